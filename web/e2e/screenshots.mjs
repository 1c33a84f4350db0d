// e2e (run.mjs): screenshots of every page of the web lab, de, en and zh, at 1400 px and 420 px;
// the README's pages are copied to docs/img/.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";

const pagesOf = (lessons) => [
  "#/summary",
  "#/",
  "#/coalescing",
  "#/banks",
  "#/sync",
  "#/alloc",
  "#/streams",
  "#/claims",
  ...lessons.map((l) => `#/lesson/${l}`),
  "#/results",
  "#/compare",
  "#/run",
  "#/exercises",
  "#/exercise/transpose_bank_conflict",
];
// For the README (docs/img/): the summary, the hierarchy table, coalescing and the hierarchy
// lesson.
const README = ["summary", "hierarchy", "coalescing", "lesson-hierarchy"];
/** Every page in every language, wide and narrow; the README's into docs/img/. */
export async function screenshots({ page, go, lang, lessons, shots, docImg }) {
  const PAGES = pagesOf(lessons);
  mkdirSync(docImg, { recursive: true });
  const wanted = process.env.E2E_SHOT_LANGS?.split(",") ?? ["en", "de", "zh"];
  for (const [l, viewport, tag] of wanted.flatMap((l) => [
    [l, { width: 1400, height: 900 }, l],
    [l, { width: 420, height: 900 }, `narrow-${l}`],
  ])) {
    const p = await page({ viewport });
    // Every page in English at 1400 px; the README's pages and a few lessons otherwise.
    const pages =
      tag === "en"
        ? PAGES
        : [
            "#/summary",
            "#/",
            "#/coalescing",
            "#/streams",
            "#/lesson/hierarchy",
            "#/lesson/coalescing",
            "#/results",
          ];
    for (const hash of pages) {
      await go(p, hash);
      if ((await p.evaluate(() => document.documentElement.lang)) !== l) await lang(p, l);
      // The models' answers (the API fallback: a child process each) before the picture; the
      // bank page's gcd curve may still be loading after 8 s, its figures are there.
      await p.waitForLoadState("networkidle", { timeout: 8000 }).catch(() => {});
      await p.waitForTimeout(150);
      const name = (hash.replace(/^#\/?/, "") || "hierarchy").replace(/\//g, "-");
      const path = join(shots, `${name}-${tag}.png`);
      await p.screenshot({ path, fullPage: true });
      // Nothing widens the page: at 420 px a long run name or command line wraps or shrinks.
      const wider = await p.evaluate(
        () => document.documentElement.scrollWidth - window.innerWidth,
      );
      if (wider > 1) throw new Error(`${hash} (${tag}) is ${wider} px wider than the window`);
      // English wide and narrow for each; the summary in every language.
      if (README.includes(name) && (l === "en" || name === "summary"))
        copyFileSync(path, join(docImg, `web-${name}-${tag}.png`));
    }
    await p.context().close();
  }
}
