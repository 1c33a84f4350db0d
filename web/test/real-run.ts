// The device run of 2026-12-01 (H200, commit 488fbef, schema 1, 759 records): the real-data
// fixture of the vitest and e2e tests (web/e2e/fixtures/).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import type { RunJson } from "../src/records";

export const REAL_RUN_FILE = join(__dirname, "../e2e/fixtures/h200-2026-12-01-full.json.gz");

export function realRun(): RunJson {
  return JSON.parse(gunzipSync(readFileSync(REAL_RUN_FILE)).toString("utf8")) as RunJson;
}
