// The e2e test of a diagnosed exercise check (run.mjs calls it): the check result of matmul_tiled
// without its barriers, as check() writes it with racecheck's output (tests/host/
// test_diagnosis_runs.cpp writes fixtures/check-diagnosis.json). The real server has no GPU here:
// the check's POST is answered from the fixture, the exercise itself is the server's.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export async function diagnosisTest({ page, go, lang, assert, shots, here }) {
  const fx = JSON.parse(readFileSync(join(here, "fixtures/check-diagnosis.json"), "utf8"));
  const p = await page();
  await p.route("**/api/exercises/*/check", (route) =>
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(fx.check) }),
  );
  await go(p, `#/exercise/${fx.exercise.name}`);
  const want = {
    en: [
      "line 14 writes Bs[ty][tx] while line 15 of another warp reads Bs[i][tx]",
      "the same warp",
    ],
    de: [
      "Zeile 14 schreibt Bs[ty][tx], während Zeile 15 in einem anderen Warp Bs[i][tx] liest",
      "Schleifenrumpfs",
    ],
    zh: ["第 14 行写入 Bs[ty][tx]，而另一个 warp在第 15 行读取 Bs[i][tx]", "循环体末尾"],
  };
  for (const l of ["en", "de", "zh"]) {
    await lang(p, l);
    await p.waitForSelector('[data-testid="editor"] .cm-content');
    await p.click('[data-testid="editor"] .cm-content');
    await p.keyboard.press("Control+a");
    await p.keyboard.insertText(fx.source);
    await p.click('[data-testid="check"]');
    await p.waitForSelector('[data-testid="diagnosis"] [data-testid="finding"]');
    const items = await p.locator('[data-testid="finding"]').allTextContents();
    assert(items.length === 3, `${l}: ${items.length} findings`);
    const all = items.join("\n");
    for (const w of want[l]) assert(all.includes(w), `${l}: no "${w}" in ${all}`);
    assert(all.includes("(1,14,0)") && all.includes("3072"), `${l}: threads/count: ${all}`);
    // The line's button selects that line in the editor.
    await p.locator('[data-testid="finding"]').nth(1).locator('button[data-line="14"]').click();
    const active = await p.textContent('[data-testid="editor"] .cm-activeLine');
    assert(active?.includes("Bs[ty][tx] ="), `${l}: active line ${active}`);
    await p.screenshot({ path: join(shots, `exercise-diagnosis-${l}.png`), fullPage: true });
  }
  // Script errors only: the mock server lacks routes the real one has (404s are not the page's).
  const errors = p.consoleErrors.filter((e) => !e.startsWith("Failed to load resource"));
  assert(errors.length === 0, errors.join("; "));
  await p.context().close();
}
