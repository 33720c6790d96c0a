#!/usr/bin/env node
/** The built client's JavaScript + CSS, raw and gzipped (issue 28: at most 150 KB gzipped). */
import { readdirSync, readFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";

const dir = fileURLToPath(new URL("../dist/assets/", import.meta.url));
let raw = 0;
let gz = 0;
for (const name of readdirSync(dir).filter((n) => /\.(js|css)$/.test(n)).sort()) {
  const data = readFileSync(dir + name);
  const z = gzipSync(data, { level: 9 }).length;
  raw += data.length;
  gz += z;
  console.log(`${name.padEnd(32)} ${(data.length / 1024).toFixed(1).padStart(7)} KB  gzip ${(z / 1024).toFixed(1).padStart(6)} KB`);
}
console.log(`${"total JS + CSS".padEnd(32)} ${(raw / 1024).toFixed(1).padStart(7)} KB  gzip ${(gz / 1024).toFixed(1).padStart(6)} KB`);
if (gz > 150 * 1024) {
  console.error("over the 150 KB gzipped budget");
  process.exit(1);
}
