// e2e (run.mjs, with MEMLAB_BIN): the class lab against the real `memlab serve --class` (issue
// 22), not the mock: `memlab class init` prints the teacher's URL and the class code; a learner
// joins in the browser at #/join/<code>, checks the starter (queued; without a GPU it ends "no
// CUDA device"), sees the attempt in their history from the server; the teacher's page lists
// them; the export holds the attempt exactly once.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function classRealTest({ test, assert, page, bin }) {
  await test("class lab against memlab serve --class: join, a check, the teacher's view", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "memlab-e2e-class-")), "class");
    const port = 20000 + Math.floor(Math.random() * 2000);
    const origin = `http://127.0.0.1:${port}/`;
    const init = spawnSync(bin, ["class", "init", dir, "--name", "e2e", "--url", origin], {
      encoding: "utf8",
    });
    assert(init.status === 0, `class init: ${init.stderr}`);
    const teacher = /teacher:\s+\S+#token=([0-9a-f]{64})/.exec(init.stdout)[1];
    const code = /class code:\s+(\S+)/.exec(init.stdout)[1];
    const proc = spawn(bin, ["serve", "--class", dir, "--port", String(port)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      for (let i = 0; i < 100; i++) {
        const up = await fetch(`${origin}api/info`).then(
          (r) => r.ok,
          () => false,
        );
        if (up) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      const p = await page();
      const ready = () =>
        p.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 30000 });
      await p.goto(`${origin}?lang=en#/join/${code}`);
      await ready();
      await p.fill('[data-testid="join-name"]', "Lena");
      await p.click('[data-testid="join-submit"]');
      await p.waitForSelector('[data-testid="joined"]');
      await p.evaluate(() => {
        document.body.dataset.ready = "";
        location.hash = "#/exercise/smem_reverse_static";
      });
      await ready();
      await p.waitForSelector('[data-testid="editor"] .cm-content');
      await p.click('[data-testid="check"]');
      await p.waitForSelector('[data-testid="check-result"], [data-testid="check-error"]', {
        timeout: 60000,
      });
      await p.waitForSelector('[data-testid="attempts"] li[data-attempt]', { timeout: 20000 });
      const rows = await fetch(`${origin}api/class/export.json`, {
        headers: { "X-Memlab-Token": teacher },
      }).then((r) => r.json());
      assert(rows.length === 1 && rows[0].learner === "Lena", JSON.stringify(rows).slice(0, 300));
      const shown = await p.getAttribute(
        '[data-testid="attempts"] li[data-attempt]',
        "data-attempt",
      );
      assert(String(rows[0].id) === shown, `history shows attempt ${shown}, stored ${rows[0].id}`);
      const t = await page();
      await t.goto(`${origin}?lang=en#token=${teacher}`);
      await t.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 30000 });
      await t.evaluate(() => {
        document.body.dataset.ready = "";
        location.hash = "#/class";
      });
      await t.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 30000 });
      await t.waitForFunction(() => document.querySelector("main")?.textContent.includes("Lena"));
      await p.context().close();
      await t.context().close();
    } finally {
      proc.kill("SIGTERM");
    }
  });
}
