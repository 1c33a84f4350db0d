// e2e (run.mjs): the exercise result's counters beside the model and the compiler's PTX, in en,
// de and zh. No GPU here: the check's answer is the fixture (fixtures/check-counters.json: a
// real compile of the starter with sample counters), served in place of POST .../check.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

export async function exerciseResultViews({ page, go, lang, shots, assert }) {
  const fixture = readFileSync(join(here, "fixtures/check-counters.json"), "utf8");
  const want = {
    en: ["32-way conflict", "model, intended", "registers", "wavefronts per shared load"],
    de: ["32-facher Konflikt", "Modell, gewollt", "Register", "Wavefronts pro Shared-Load"],
    zh: ["32 路冲突", "模型（目标写法）", "寄存器", "wavefront"],
  };
  const p = await page();
  await p.route("**/api/exercises/*/check", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: fixture }),
  );
  await go(p, "#/exercise/transpose_bank_conflict");
  for (const l of ["en", "de", "zh"]) {
    await lang(p, l);
    await p.waitForSelector('[data-testid="editor"] .cm-content');
    await p.click('[data-testid="check"]');
    await p.waitForSelector('[data-testid="counters"]', { timeout: 30000 });
    const text = await p.textContent('[data-testid="check-result"]');
    for (const w of want[l]) assert(text.includes(w), `${l}: no "${w}" in ${text.slice(0, 600)}`);
    // The learner's 32 beside the model's 1 and 32, and the lesson's variants in the same row.
    const row = p.locator('tr[data-figure="wavefronts_per_shared_load"]');
    const cell = async (col) =>
      (await row.locator(`td[data-column="${col}"]`).textContent()).trim();
    assert((await cell("yours")) === "32", `yours: ${await cell("yours")}`);
    assert((await cell("intended")) === "1", `intended: ${await cell("intended")}`);
    assert((await cell("starter")) === "32", `starter: ${await cell("starter")}`);
    assert((await row.locator("td").count()) >= 5, "no variant columns");
    // The compiler's view: opened, the column read's shared load under its source line.
    await p.click('[data-testid="compiler"] summary');
    const listing = await p.textContent('[data-testid="ptx-listing"]');
    assert(listing.includes("tile[threadIdx.x][j]") && listing.includes("ld.shared.f32"), listing);
    await p.screenshot({ path: join(shots, `exercise-counters-${l}.png`), fullPage: true });
  }
  // Script errors only (a 404 of a route this server lacks, e.g. attempts, is not the page's).
  const errors = p.consoleErrors.filter((e) => !e.startsWith("Failed to load resource"));
  assert(errors.length === 0, `console: ${errors.join("; ")}`);
  await p.context().close();
}
