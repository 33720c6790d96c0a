#!/usr/bin/env node
/**
 * Runs scripts/export_data.py (pictures and catalogs -> src/generated/) with the repository's
 * Python: $HATS_PYTHON, else ../.venv/bin/python, else python3. Where no Python with the
 * bot's packages is found, the committed src/generated/ files are used as they are (the
 * Python test tests/activity_client/test_generated_data.py fails when they are stale).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));
const script = here("./export_data.py");
const candidates = [process.env.HATS_PYTHON, here("../../.venv/bin/python"), "python3"].filter(Boolean);
for (const python of candidates) {
  if (python.includes("/") && !existsSync(python)) continue;
  const run = spawnSync(python, [script], { stdio: "inherit" });
  if (run.status === 0) process.exit(0);
}
if (!existsSync(here("../src/generated/pictures.json"))) {
  console.error("export-data: no Python with the bot's packages and no generated files");
  process.exit(1);
}
console.warn("export-data: no Python with the bot's packages found; using the committed src/generated/");
