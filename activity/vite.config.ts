import { defineConfig } from "vitest/config";

// The Activity's browser app (issue 28 section 3). `npm run build` writes dist/, which the
// bot's web server serves at `/`; `npm run dev` proxies the API and WebSocket to HATS_WEB_URL
// (default the fake server of scripts/fake-server.mjs on 127.0.0.1:8765).
const backend = process.env.HATS_WEB_URL ?? "http://127.0.0.1:8765";

export default defineConfig({
  base: "./",
  build: {
    target: "es2022",
    assetsInlineLimit: 0,
    reportCompressedSize: true,
  },
  server: {
    proxy: {
      "/api": backend,
      "/ws": { target: backend.replace(/^http/, "ws"), ws: true },
    },
  },
  test: {
    environment: "node",
    include: ["test/**/*.test.ts", "test/**/*.test.tsx"],
  },
});
