// e2e (run.mjs): the class lab's pages against class-mock.mjs (docs/class-lab.md's API): a learner
// joins (wrong code, a taken name, then in), checks (queued behind three others: place and wait,
// then the result), sees and opens their history, has a check superseded; the teacher's page
// (passes, failures and the example attempt, export, revoke), the queue (pause, cancel, reserve)
// and the class claims run that everyone sees. In en (1400 px), de (420 px) and zh (1400 px);
// screenshots of the learner's and the teacher's pages in every language, wide and narrow, and in
// de and en into docs/img/.
import { readFileSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import { startClassMock } from "./class-mock.mjs";

const TEXT = {
  en: {
    place: /place 3 in the queue, about \d+ s/,
    passed: "passed",
    superseded: /Replaced by your newer check/,
  },
  de: {
    place: /Platz 3 in der Warteschlange, etwa \d+ s/,
    passed: "bestanden",
    superseded: /Durch deine neuere Prüfung ersetzt/,
  },
  zh: {
    place: /队列中第 3 位，约 \d+ 秒|队列中第 3 位，约 \d+ s/,
    passed: "通过",
    superseded: /已被你较新的检查替换/,
  },
};
const WIDE = { width: 1400, height: 900 };
const NARROW = { width: 420, height: 900 };
const EXERCISE = "smem_reverse_static";
// The refusals these tests ask for (no token, a wrong code, a taken name, no class run yet, a
// revoked token) show in the console as failed loads; anything else is an error of the page.
const unexpected = (errors) =>
  errors.filter((e) => !/^Failed to load resource: .* status of (401|403|404|409) /.test(e));

export async function classTests({ page, test, assert, web, repo, shots, docImg }) {
  const fixture = join(web, "e2e/fixtures/class-lab.json");
  const fx = JSON.parse(readFileSync(fixture, "utf8"));
  const mock = await startClassMock({
    dist: join(web, "dist"),
    wasmDir: process.env.MEMLAB_WASM_DIR,
    results: join(repo, "docs/results/h200-2026-11-29-full.json"),
    repo,
    fixture,
  });
  const solution = readFileSync(join(repo, `exercises/${EXERCISE}/solution.cu`), "utf8");
  const tokenOf = (name) => mock.learners.find((l) => l.name === name).token;
  const ready = (p) =>
    p.waitForFunction(() => document.body.dataset.ready === "1", null, { timeout: 30000 });
  /** To `hash` and its page rendered (ready is reset first: no stale "1" of the last page). */
  const nav = async (p, hash) => {
    await p.evaluate((h) => {
      document.body.dataset.ready = "";
      location.hash = h;
    }, hash);
    await ready(p);
  };
  const open = async (p, hash, l, token = "") => {
    await p.goto(`${mock.origin}?lang=${l}${token ? `#token=${token}` : hash}`);
    await ready(p);
    if (token && hash !== "#/") await nav(p, hash);
  };
  const clickTo = async (p, selector, page) => {
    await p.click(selector);
    await p.waitForSelector(`main[data-page="${page}"]`);
    await ready(p);
  };
  const language = async (p, l) => {
    await p.click(`button[data-lang="${l}"]`);
    await p.waitForFunction(
      (l) => document.documentElement.lang === l && document.body.dataset.ready === "1",
      l,
    );
  };
  /** Until the queue is empty (the last test's jobs done): the places below are then known. */
  const until = async (what, ok) => {
    for (let i = 0; i < 100; i++) {
      const q = await fetch(`${mock.origin}api/queue`, {
        headers: { "X-Memlab-Token": mock.teacherToken },
      }).then((r) => r.json());
      if (ok(q)) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`the queue: ${what}`);
  };
  const idle = () => until("did not empty", (q) => !q.jobs.length);
  /** Checks posted through the API as other learners: the learner's own lands behind them. */
  const others = (p, names) =>
    p.evaluate(
      async ({ tokens, name, source }) => {
        for (const t of tokens)
          await fetch(`api/exercises/${name}/check`, {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-Memlab-Token": t },
            body: JSON.stringify({ source }),
          });
      },
      { tokens: names.map(tokenOf), name: EXERCISE, source: solution },
    );
  const shot = async (p, name, l, tag, toDoc) => {
    const path = join(shots, `class-${name}-${tag}.png`);
    // From the top: a full-page shot of a scrolled page draws the sticky header mid-page.
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.screenshot({ path, fullPage: true });
    if (toDoc) copyFileSync(path, join(docImg, `web-class-${name}-${tag}.png`));
  };
  const both = async (p, name, l, viewport) => {
    // Both widths of the page as it is now; de and en wide into docs/img/.
    for (const [v, tag] of [
      [WIDE, l],
      [NARROW, `narrow-${l}`],
    ]) {
      await p.setViewportSize(v);
      await p.waitForTimeout(150);
      await shot(p, name, l, tag, l !== "zh" && v === WIDE);
    }
    await p.setViewportSize(viewport);
  };
  const setSource = async (p, text) => {
    await p.click('[data-testid="editor"] .cm-content');
    await p.keyboard.press("Control+a");
    await p.keyboard.insertText(text);
  };

  const learnerNames = { en: "Farah", de: "Jonas", zh: "李明" };
  for (const [l, viewport] of [
    ["en", WIDE],
    ["de", NARROW],
    ["zh", WIDE],
  ]) {
    await test(`class lab (${l}): join, a queued check, the history`, async () => {
      const p = await page({ viewport });
      // Without a token: told so, with the way to join.
      await open(p, "#/", l);
      await p.waitForSelector('[data-testid="signed-out"] a[href="#/join"]');
      await nav(p, `#/join/${fx.class.code}`);
      assert((await p.inputValue('[data-testid="join-code"]')) === fx.class.code, "code prefilled");
      const refused = async (code, name, want) => {
        await p.fill('[data-testid="join-code"]', code);
        await p.fill('[data-testid="join-name"]', name);
        await p.click('[data-testid="join-submit"]');
        await p.waitForFunction(
          () => document.querySelector('[data-testid="join-error"]')?.textContent,
        );
        const text = await p.textContent('[data-testid="join-error"]');
        assert(want.test(text) && !text.includes("\n"), `join ${code}/${name}: ${text}`);
      };
      await refused(
        "WRONG-1",
        learnerNames[l],
        { en: /^class code:/, de: /^Klassencode:/, zh: /^班级代码：/ }[l],
      );
      await refused(fx.class.code, "Anna", { en: /^name:/, de: /^Name:/, zh: /^名字：/ }[l]);
      await p.fill('[data-testid="join-code"]', fx.class.code);
      await p.fill('[data-testid="join-name"]', learnerNames[l]);
      await p.click('[data-testid="join-submit"]');
      await p.waitForSelector('[data-testid="joined"]');
      // The header knows the learner at once (no join link, no run page).
      await p.waitForSelector('[data-testid="who"]');
      assert(
        (await p.locator('nav.nav a[href="#/join"], nav.nav a[href="#/run"]').count()) === 0,
        "header after join",
      );
      if (l !== "zh") await both(p, "join", l, viewport);
      await clickTo(p, '[data-testid="join-go"]', "exercises");
      const links = await p
        .locator("nav.nav a")
        .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
      assert(
        links.includes("#/queue") &&
          !links.includes("#/run") &&
          !links.includes("#/class") &&
          !links.includes("#/join"),
        `learner nav ${links}`,
      );
      assert((await p.textContent('[data-testid="who"]')).includes(learnerNames[l]), "who");

      // A check behind three others: its place and wait, then the result, kept as an attempt.
      await nav(p, `#/exercise/${EXERCISE}`);
      await p.waitForSelector('[data-testid="editor"] .cm-content');
      await setSource(p, solution);
      await idle();
      await others(p, ["Ben", "Chen Wei", "Dilara"]);
      // Ben's running, two wait: the learner's check is third in line when it is posted.
      await until("nothing runs", (q) => q.jobs.some((j) => j.state === "running"));
      await p.click('[data-testid="check"]');
      await p.waitForFunction(
        (re) =>
          new RegExp(re).test(
            document.querySelector('[data-testid="check-status"]')?.textContent ?? "",
          ),
        TEXT[l].place.source,
        { timeout: 10000 },
      );
      if (l === "en") {
        // The queue in a second tab (the kept token signs it in): the learner's job marked.
        const q = await p.context().newPage();
        await q.goto(`${mock.origin}#/queue`);
        await ready(q);
        await q.waitForSelector('[data-testid="queue-table"] tr.mine');
        const owners = await q
          .locator('[data-testid="queue-table"] tbody tr td:nth-child(3)')
          .allTextContents();
        assert(
          owners.filter((o) => o === "another learner").length >= 2 && owners.includes("you"),
          `owners ${owners}`,
        );
        assert(
          (await q.locator('[data-testid="queue-controls"]').count()) === 0,
          "a learner has no queue controls",
        );
        await both(q, "queue-learner", l, viewport);
        await q.close();
      }
      await p.waitForSelector('[data-testid="check-result"]', { timeout: 20000 });
      const verdict = await p.textContent('[data-testid="check-result"] .verdict');
      assert(verdict.includes(TEXT[l].passed), `verdict ${verdict}`);
      await p.waitForSelector('[data-testid="attempts"] li[data-attempt]');
      const first = await p.getAttribute(
        '[data-testid="attempts"] li[data-attempt]',
        "data-attempt",
      );
      await both(p, "exercise-learner", l, viewport);

      // A compile error on line 3, then the passed attempt opened again from the history.
      await setSource(p, "// line 1\n// line 2\nthis is not C++;\n");
      await p.click('[data-testid="check"]');
      await p.waitForSelector('[data-testid="diagnostics"]', { timeout: 20000 });
      assert(/3/.test(await p.textContent('[data-testid="diagnostics"]')), "line 3");
      await p.waitForFunction(
        () => document.querySelectorAll('[data-testid="attempts"] li[data-attempt]').length === 2,
      );
      await p.click(
        `[data-testid="attempts"] li[data-attempt="${first}"] [data-testid="attempt-open"]`,
      );
      await p.waitForSelector('[data-testid="attempt-shown"]');
      const editor = await p.textContent('[data-testid="editor"] .cm-content');
      assert(editor.includes("__syncthreads"), "the opened attempt's source is in the editor");
      assert(
        (await p.textContent('[data-testid="check-result"] .verdict')).includes(TEXT[l].passed),
        "its result",
      );
      assert((await p.locator("#app .error").count()) === 0, "an error on the page");

      if (l === "en") {
        // Superseded: a newer check from another tab replaces the queued one.
        await others(p, ["Ben", "Chen Wei"]);
        await p.click('[data-testid="check"]');
        await p.waitForSelector('[data-testid="check-status"][data-state="queued"]');
        const r = await p.evaluate(async (name) => {
          const res = await fetch(`api/exercises/${name}/check`, {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              "X-Memlab-Token": sessionStorage.getItem("memlab.token"),
            },
            body: JSON.stringify({ source: "// newer" }),
          });
          return res.json();
        }, EXERCISE);
        assert(r.superseded.length === 1, `superseded ${JSON.stringify(r)}`);
        await p.waitForSelector('[data-testid="check-ended"]', { timeout: 10000 });
        assert(
          TEXT[l].superseded.test(await p.textContent('[data-testid="check-ended"]')),
          "superseded shown",
        );
      }
      assert(unexpected(p.consoleErrors).length === 0, `console: ${p.consoleErrors.join(" | ")}`);
      await p.context().close();
    });
  }

  await test("class lab: the teacher's page, export, revoke, the queue, the class claims run", async () => {
    const p = await page({ viewport: WIDE });
    p.on("dialog", (d) => void d.accept());
    await open(p, "#/class", "en", mock.teacherToken);
    await p.waitForSelector('[data-testid="class-learners"] tbody tr');
    const links = await p
      .locator("nav.nav a")
      .evaluateAll((as) => as.map((a) => a.getAttribute("href")));
    assert(
      links.includes("#/class") && links.includes("#/queue") && links.includes("#/run"),
      `teacher nav ${links}`,
    );
    assert(
      (await p.textContent('[data-testid="class-code"]')).includes(fx.class.code),
      "join code",
    );
    // The most common failure of the exercise, counted from the attempts the server exports
    // (the fixture's and this run's; revoked learners aside).
    const exported = await p.evaluate(async () => {
      const headers = { "X-Memlab-Token": sessionStorage.getItem("memlab.token") };
      return (await fetch("api/class/export.json", { headers })).json();
    });
    const revoked = fx.learners.filter((x) => x.revoked).map((x) => x.name);
    const counts = {};
    for (const a of exported)
      if (a.exercise === EXERCISE && a.status !== "passed" && !revoked.includes(a.learner))
        counts[a.status] = (counts[a.status] ?? 0) + 1;
    const [top, n] = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
    const sec = `section[data-exercise="${EXERCISE}"]`;
    const mc = await p.textContent(`${sec} [data-testid="class-most-common"]`);
    assert(
      mc.includes(`(${n}×)`) && mc.includes(top.replace("_", " ")),
      `most common: ${mc} (want ${top} ${n})`,
    );
    // The three learners who joined in this run passed it, beside the fixture's.
    const passedNames = await p
      .locator(`${sec} tr.passed`)
      .evaluateAll((rs) => rs.map((r) => r.dataset.learner));
    for (const name of ["Farah", "Jonas", "李明", "Anna"])
      assert(passedNames.includes(name), `${name} passed: ${passedNames}`);
    assert(
      (await p.locator(`${sec} [data-testid="class-chart"] svg`).count()) === 1,
      "best-time chart",
    );
    assert(
      (await p.locator('[data-testid="class-progress"] tr[data-learner="Farah"]').count()) === 1,
      "progress",
    );
    // Export: a CSV with one row per attempt.
    const [download] = await Promise.all([
      p.waitForEvent("download"),
      p.click('[data-testid="export-csv"]'),
    ]);
    const csv = readFileSync(await download.path(), "utf8")
      .trim()
      .split("\n");
    const all = await p.evaluate(
      async () =>
        (
          await (
            await fetch("api/class/export.json", {
              headers: { "X-Memlab-Token": sessionStorage.getItem("memlab.token") },
            })
          ).json()
        ).length,
    );
    assert(
      csv[0].startsWith("id,learner,exercise,status") && csv.length === all + 1,
      `csv ${csv.length} lines, ${all} attempts`,
    );
    assert(/\.csv$/.test(download.suggestedFilename()), download.suggestedFilename());
    await both(p, "teacher", "en", WIDE);
    // The example attempt opens on the exercise page with its source.
    await clickTo(p, `${sec} [data-testid="class-example"]`, "exercise");
    await p.waitForSelector('[data-testid="attempt-shown"]');
    await p.goBack();
    await p.waitForSelector('main[data-page="class"]');
    await ready(p);
    // Revoke: the learner's token no longer signs in.
    await p.waitForSelector(
      '[data-testid="class-learners"] tr[data-learner="Dilara"] [data-testid="revoke"]',
    );
    await p.click(
      '[data-testid="class-learners"] tr[data-learner="Dilara"] [data-testid="revoke"]',
    );
    await p.waitForSelector('[data-testid="class-learners"] tr.revoked[data-learner="Dilara"]');
    const me = await p.evaluate(
      async (t) => (await fetch("api/me", { headers: { "X-Memlab-Token": t } })).status,
      tokenOf("Dilara"),
    );
    assert(me === 401, `revoked learner: /api/me ${me}`);
    // The class claims run: queued, done, and its summary here and on everyone's #/claims.
    await p.click('[data-testid="class-claims-run"]');
    await p.waitForSelector('[data-testid="class-claims-box"] [data-testid="claims-summary"]', {
      timeout: 20000,
    });
    // The queue: pause holds a learner's check, the teacher cancels it, resumes, reserves.
    await nav(p, "#/queue");
    await p.click('[data-testid="queue-pause"]');
    await p.waitForSelector('[data-testid="queue-paused"]');
    await others(p, ["Anna", "Ben"]);
    await p.waitForSelector('[data-testid="queue-table"] tbody tr', { timeout: 5000 });
    const queued = await p
      .locator('[data-testid="queue-table"] tbody tr[data-state="queued"]')
      .count();
    assert(queued === 2, `${queued} queued while paused`);
    await both(p, "queue-teacher", "en", WIDE);
    await p.click('[data-testid="queue-table"] tbody tr:first-child [data-testid="job-cancel"]');
    await p.waitForFunction(
      () => document.querySelectorAll('[data-testid="queue-table"] tbody tr').length === 1,
    );
    await p.click('[data-testid="queue-resume"]');
    await p.waitForSelector('[data-testid="queue-pause"]');
    await p.fill('[data-testid="reserve-minutes"]', "15");
    await p.click('[data-testid="queue-reserve"]');
    await p.waitForSelector('[data-testid="queue-reserved"]');
    await p.click('[data-testid="queue-release"]');
    await p.waitForSelector('[data-testid="queue-reserve"]');
    // In German: the teacher's page and the queue for the README.
    await language(p, "de");
    await nav(p, "#/class");
    await p.waitForSelector('[data-testid="class-learners"] tbody tr');
    await both(p, "teacher", "de", WIDE);
    await language(p, "zh");
    await p.waitForSelector('[data-testid="class-learners"] tbody tr');
    await both(p, "teacher", "zh", WIDE);
    assert(unexpected(p.consoleErrors).length === 0, `console: ${p.consoleErrors.join(" | ")}`);
    await p.context().close();
    // A learner sees the class claims run.
    const q = await page({ viewport: WIDE });
    await open(q, "#/claims", "en", tokenOf("Anna"));
    await q.waitForSelector('[data-testid="class-claims"]');
    await q.waitForSelector('[data-testid="claims-table"]');
    await q.context().close();
  });
  mock.server.close();
}
