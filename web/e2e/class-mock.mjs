// A stand-in for `memlab serve --class` (docs/class-lab.md's API), used by the e2e's class tests
// (class.mjs) until the server's class lab is merged: roles from tokens, join, one queue with
// round-robin across learners, superseding, a per-learner limit, attempts, the teacher's overview
// computed from the attempts, exports, revoke and the class claims run. No GPU: a check of the
// reference solution answers the H200 check JSON of that solution (fixtures/class-lab.json), a
// source with "not C++" on a line a compile error at that line, anything else "no CUDA device".
// Falls back to mock-server.mjs's routes (the one-person lab) for the rest. Not part of the product.
import { createServer } from "node:http";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join } from "node:path";
import { baseHandler } from "./mock-server.mjs";

const json = (res, status, body, headers = {}) => {
  res.writeHead(status, { "Content-Type": "application/json", ...headers });
  res.end(JSON.stringify(body));
};
const err = (res, status, error, parameter, headers) =>
  json(res, status, { error, parameter }, headers);

function readBody(req) {
  return new Promise((resolve) => {
    let text = "";
    req.on("data", (d) => (text += d));
    req.on("end", () => {
      try {
        resolve(text ? JSON.parse(text) : {});
      } catch {
        resolve(null);
      }
    });
  });
}

/** The exercise catalogue from exercises/<name>/ (what GET /api/exercises[/<name>] answers). */
function catalogue(repo) {
  const dir = join(repo, "exercises");
  const out = new Map();
  for (const name of readdirSync(dir).sort()) {
    const spec = JSON.parse(readFileSync(join(dir, name, "exercise.json"), "utf8"));
    const statement = {};
    for (const l of ["de", "en", "zh"]) {
      const f = join(dir, name, `statement.${l}.md`);
      if (existsSync(f)) statement[l] = readFileSync(f, "utf8");
    }
    out.set(name, {
      name,
      lesson: spec.lesson,
      level: spec.level ?? 1,
      order: spec.order ?? 0,
      title: spec.title,
      statement,
      starter: readFileSync(join(dir, name, "starter.cu"), "utf8"),
      solution: readFileSync(join(dir, name, "solution.cu"), "utf8"),
      target: spec.target,
      hints: spec.hints,
    });
  }
  return out;
}

export async function startClassMock({ dist, wasmDir, results, repo, fixture, jobMs = 1500 }) {
  const fx = JSON.parse(readFileSync(fixture, "utf8"));
  const exercises = catalogue(repo);
  const claimsJson = JSON.parse(
    readFileSync(join(repo, "docs/results/h200-2026-11-30-claims.json"), "utf8"),
  );
  const passedResult = new Map(
    fx.attempts.filter((a) => a.result.status === "passed").map((a) => [a.exercise, a.result]),
  );
  const people = new Map(); // token -> {role, name, learner_id}
  people.set(fx.teacher.token, { role: "teacher", name: fx.teacher.name, learner_id: null });
  const learners = fx.learners.map((l) => ({ ...l, token: `e2e-learner-${l.learner_id}` }));
  for (const l of learners)
    people.set(l.token, { role: "learner", name: l.name, learner_id: l.learner_id });
  const attempts = fx.attempts.map((a) => ({ ...a }));
  let nextAttempt = Math.max(...attempts.map((a) => a.id)) + 1;
  let nextJob = 1;
  const jobs = []; // {id, kind, owner, state, enqueued, started, exercise, source, result}
  const queue = { paused: false, reserved: null };
  let classClaims = null;
  let joinTries = 0;
  const base = baseHandler({ dist, wasmDir, results, token: fx.teacher.token });

  const who = (req) => {
    const p = people.get(req.headers["x-memlab-token"] ?? "");
    if (!p) return null;
    const l = learners.find((x) => x.learner_id === p.learner_id);
    return l?.revoked ? null : p;
  };
  /** Round-robin: each owner's n-th queued job after every owner's (n-1)-th, oldest first. */
  const ordered = () => {
    const seen = new Map();
    return jobs
      .filter((j) => j.state === "queued")
      .sort((a, b) => a.enqueued - b.enqueued)
      .map((j) => {
        const n = seen.get(j.owner) ?? 0;
        seen.set(j.owner, n + 1);
        return { j, n };
      })
      .sort((a, b) => a.n - b.n || a.j.enqueued - b.j.enqueued)
      .map((x) => x.j);
  };
  const positionOf = (job) => ordered().indexOf(job) + 1;
  const etaOf = (job) => {
    const running = jobs.some((j) => j.state === "running") ? 1 : 0;
    return ((positionOf(job) - 1 + running) * jobMs + jobMs) / 1000;
  };
  const checkResult = (job) => {
    const ex = exercises.get(job.exercise);
    if (job.source.trim() === ex.solution.trim() && passedResult.has(job.exercise))
      return passedResult.get(job.exercise);
    const lines = job.source.split("\n");
    const bad = lines.findIndex((l) => l.includes("not C++"));
    if (bad >= 0) {
      const msg = "this declaration has no storage class or type specifier";
      return {
        exercise: job.exercise,
        lesson: ex.lesson,
        status: "compile_error",
        message: `kernel.cu(${bad + 1}): error: ${msg}`,
        exit_code: 2,
        compile: {
          ok: false,
          log: `kernel.cu(${bad + 1}): error: ${msg}\n`,
          diagnostics: [{ line: bad + 1, severity: "error", message: msg }],
        },
      };
    }
    return {
      exercise: job.exercise,
      lesson: ex.lesson,
      status: "no_device",
      message: "no CUDA device (cudaGetDeviceCount: no CUDA-capable device is detected)",
      exit_code: 3,
      compile: { ok: true, log: "", diagnostics: [] },
    };
  };
  const finish = (job) => {
    if (job.kind === "check") {
      const result = checkResult(job);
      const m = result.measure;
      const a = {
        id: nextAttempt++,
        learner: job.owner,
        exercise: job.exercise,
        created_at: new Date().toISOString(),
        source: job.source,
        result,
      };
      attempts.push(a);
      job.result = { ...result, attempt_id: a.id };
      void m;
    } else if (job.kind === "claims") {
      classClaims = { ...claimsJson, run: `class-claims-${new Date().toISOString().slice(0, 10)}` };
      job.result = { run: classClaims.run };
    }
    job.state = "done";
  };
  const reservedNow = () =>
    queue.reserved && Date.parse(queue.reserved.until) > Date.now() ? queue.reserved : null;
  const tick = setInterval(() => {
    const running = jobs.find((j) => j.state === "running");
    if (running && Date.now() - running.started >= jobMs) finish(running);
    if (jobs.some((j) => j.state === "running") || queue.paused || reservedNow()) return;
    const next = ordered()[0];
    if (next) {
      next.state = "running";
      next.started = Date.now();
    }
  }, 100);

  const attemptRow = (a) => {
    const m = a.result.measure;
    return {
      id: a.id,
      learner: a.learner,
      exercise: a.exercise,
      status: a.result.status,
      message: a.result.message ?? "",
      created_at: a.created_at,
      median_ms: m?.yours?.median_ms ?? null,
      achieved: m?.target?.achieved ?? null,
      target_met: m?.target?.met ?? null,
      build: "memlab 0.9.0 (e2e mock)",
      device: a.result.device ?? "",
    };
  };
  const visible = (p) =>
    p.role === "learner" ? attempts.filter((a) => a.learner === p.name) : attempts;
  const overview = () => {
    const active = learners.filter((l) => !l.revoked).map((l) => l.name);
    const byEx = [...exercises.values()].filter((e) => attempts.some((a) => a.exercise === e.name));
    const exs = byEx.map((e) => {
      const mine = attempts.filter((a) => a.exercise === e.name && active.includes(a.learner));
      const names = [...new Set(mine.map((a) => a.learner))];
      const failures = {};
      for (const a of mine)
        if (a.result.status !== "passed")
          failures[a.result.status] = (failures[a.result.status] ?? 0) + 1;
      const top = Object.entries(failures).sort(
        (x, y) => y[1] - x[1] || x[0].localeCompare(y[0]),
      )[0];
      const example = top && [...mine].reverse().find((a) => a.result.status === top[0]);
      const measured = [...mine].reverse().find((a) => a.result.measure?.variants);
      return {
        exercise: e.name,
        lesson: e.lesson,
        learners: names.map((n) => {
          const own = mine.filter((a) => a.learner === n);
          const ok = own.filter((a) => a.result.status === "passed");
          const timed = own.filter((a) => a.result.measure?.yours?.median_ms);
          const best = timed.sort(
            (x, y) => x.result.measure.yours.median_ms - y.result.measure.yours.median_ms,
          )[0];
          return {
            name: n,
            passed: ok.length > 0,
            first_passed_at: ok[0]?.created_at ?? null,
            attempts: own.length,
            best: best
              ? {
                  median_ms: best.result.measure.yours.median_ms,
                  achieved: best.result.measure.target.achieved,
                  target: best.result.measure.target.value,
                }
              : null,
          };
        }),
        failures,
        most_common: top
          ? {
              status: top[0],
              count: top[1],
              example: {
                attempt_id: example.id,
                learner: example.learner,
                message: example.result.message,
              },
            }
          : null,
        variants: (measured?.result.measure.variants ?? [])
          .filter((v) => v.median_ms)
          .map((v) => ({ variant: v.variant, median_ms: v.median_ms })),
      };
    });
    const lessons = [...new Set([...exercises.values()].map((e) => e.lesson))].sort();
    return {
      exercises: exs,
      learners: learners
        .filter((l) => !l.revoked)
        .map((l) => {
          const own = attempts.filter((a) => a.learner === l.name);
          const passed = [
            ...new Set(own.filter((a) => a.result.status === "passed").map((a) => a.exercise)),
          ];
          return {
            name: l.name,
            learner_id: l.learner_id,
            attempts: own.length,
            passed,
            lessons: lessons.map((lesson) => {
              const of = [...exercises.values()]
                .filter((e) => e.lesson === lesson)
                .map((e) => e.name);
              return {
                lesson,
                passed: passed.filter((p) => of.includes(p)).length,
                total: of.length,
              };
            }),
          };
        }),
    };
  };
  const jobView = (j, p) => ({
    id: j.id,
    kind: j.kind,
    owner: p.role === "learner" && j.owner !== p.name ? "another learner" : j.owner,
    state: j.state,
    position: j.state === "queued" ? positionOf(j) : null,
    eta_s: j.state === "queued" ? etaOf(j) : j.state === "running" ? jobMs / 1000 : null,
    mine: j.owner === p.name,
    progress: j.state === "running" ? ["compiling", "checking at 6 test points"] : [],
    result: j.result ?? null,
  });
  const enqueue = (kind, owner, extra = {}) => {
    const job = {
      id: String(nextJob++),
      kind,
      owner,
      state: "queued",
      enqueued: Date.now(),
      ...extra,
    };
    jobs.push(job);
    return job;
  };

  async function route(req, res, url) {
    const p = url.pathname;
    const method = req.method;
    if (p === "/api/class/join" && method === "POST") {
      const b = await readBody(req);
      if (++joinTries > 30)
        return err(res, 429, "join: too many tries", "code", { "Retry-After": "30" });
      if (!b || typeof b.code !== "string" || typeof b.name !== "string")
        return err(res, 400, "code, name: expected strings", "code");
      if (b.code.trim().toUpperCase() !== fx.class.code)
        return err(res, 403, "code: wrong class code", "code");
      const name = b.name.trim();
      if (!name || name.length > 64) return err(res, 400, "name: 1 to 64 characters", "name");
      if (learners.some((l) => l.name.toLowerCase() === name.toLowerCase()))
        return err(res, 409, "name: already taken", "name");
      const id = learners.length + 1;
      const l = {
        learner_id: id,
        name,
        created_at: new Date().toISOString(),
        expires_at: new Date(Date.now() + 7 * 86400e3).toISOString(),
        revoked: false,
        token: `e2e-joined-${id}-${Math.random().toString(36).slice(2, 10)}`,
      };
      learners.push(l);
      people.set(l.token, { role: "learner", name, learner_id: id });
      return json(res, 200, { token: l.token, name, learner_id: id, expires_at: l.expires_at });
    }
    if (p === "/api/exercises" && method === "GET")
      return json(
        res,
        200,
        [...exercises.values()].map((e) => ({
          name: e.name,
          lesson: e.lesson,
          level: e.level,
          title: e.title,
          target: e.target.text,
        })),
      );
    const ex = /^\/api\/exercises\/([^/]+)$/.exec(p);
    if (ex && method === "GET") {
      const e = exercises.get(decodeURIComponent(ex[1]));
      if (!e) return err(res, 404, "exercise: unknown", "name");
      const { solution, ...shown } = e;
      void solution;
      return json(res, 200, shown);
    }
    const needsToken =
      p === "/api/me" ||
      p.startsWith("/api/class") ||
      p.startsWith("/api/queue") ||
      p.startsWith("/api/jobs") ||
      p.startsWith("/api/attempts") ||
      /^\/api\/exercises\/[^/]+\/check$/.test(p);
    if (!needsToken) return false;
    const me = who(req);
    if (!me) return err(res, 401, "token: missing, unknown, expired or revoked", "X-Memlab-Token");
    const teacher = me.role === "teacher";
    if (p === "/api/me") {
      const l = learners.find((x) => x.learner_id === me.learner_id);
      return json(res, 200, {
        role: me.role,
        name: me.name,
        learner_id: me.learner_id,
        class: teacher ? fx.class : { name: fx.class.name },
        expires_at: l?.expires_at ?? "2026-12-31T00:00:00Z",
      });
    }
    const check = /^\/api\/exercises\/([^/]+)\/check$/.exec(p);
    if (check && method === "POST") {
      const name = decodeURIComponent(check[1]);
      if (!exercises.has(name)) return err(res, 404, "exercise: unknown", "name");
      const b = await readBody(req);
      if (!b || typeof b.source !== "string")
        return err(res, 400, 'source: expected {"source": "..."}', "source");
      const older = jobs.filter(
        (j) => j.owner === me.name && j.kind === "check" && j.state === "queued",
      );
      for (const j of older) j.state = "superseded";
      const job = enqueue("check", me.name, { exercise: name, source: b.source });
      return json(res, 202, {
        job: job.id,
        position: positionOf(job),
        eta_s: etaOf(job),
        superseded: older.map((j) => j.id),
      });
    }
    const jobm = /^\/api\/jobs\/([^/]+)(\/cancel)?$/.exec(p);
    if (jobm) {
      const j = jobs.find((x) => x.id === jobm[1]);
      if (!j || (!teacher && j.owner !== me.name)) return err(res, 404, "job: no such job", "id");
      if (jobm[2] && method === "POST") {
        if (j.state === "queued" || j.state === "running") j.state = "cancelled";
        return json(res, 200, jobView(j, me));
      }
      return json(res, 200, jobView(j, me));
    }
    if (p === "/api/queue" && method === "GET")
      return json(res, 200, {
        paused: queue.paused,
        reserved: reservedNow(),
        jobs: jobs
          .filter((j) => j.state === "queued" || j.state === "running")
          .map((j) => jobView(j, me)),
      });
    if (p.startsWith("/api/queue/") && method === "POST") {
      if (!teacher) return err(res, 403, "queue: the teacher's", "X-Memlab-Token");
      const b = (await readBody(req)) ?? {};
      const what = p.slice("/api/queue/".length);
      if (what === "pause") queue.paused = true;
      else if (what === "resume") queue.paused = false;
      else if (what === "release") queue.reserved = null;
      else if (what === "reserve") {
        const m = Number(b.minutes);
        if (!Number.isInteger(m) || m < 1 || m > 240)
          return err(res, 400, "minutes: 1 to 240", "minutes");
        queue.reserved = { by: me.name, until: new Date(Date.now() + m * 60e3).toISOString() };
      } else return err(res, 404, "no route", "");
      return json(res, 200, { paused: queue.paused, reserved: reservedNow() });
    }
    if (p === "/api/attempts" && method === "GET") {
      const e = url.searchParams.get("exercise");
      const l = url.searchParams.get("learner");
      return json(
        res,
        200,
        visible(me)
          .filter((a) => (!e || a.exercise === e) && (!l || !teacher || a.learner === l))
          .sort((a, b) => b.id - a.id)
          .map(attemptRow),
      );
    }
    const am = /^\/api\/attempts\/([^/]+)$/.exec(p);
    if (am && method === "GET") {
      const a = visible(me).find((x) => String(x.id) === am[1]);
      if (!a) return err(res, 404, "attempt: no such attempt", "id");
      return json(res, 200, { ...attemptRow(a), source: a.source, result: a.result });
    }
    if (p === "/api/class/claims") {
      if (method === "GET")
        return classClaims
          ? json(res, 200, classClaims)
          : err(res, 404, "claims: no class run yet", "");
      if (!teacher) return err(res, 403, "claims: the teacher's", "X-Memlab-Token");
      const job = enqueue("claims", me.name);
      return json(res, 202, {
        job: job.id,
        position: positionOf(job),
        eta_s: etaOf(job),
        superseded: [],
      });
    }
    if (!teacher) return err(res, 403, "class: the teacher's", "X-Memlab-Token");
    if (p === "/api/class/overview") return json(res, 200, overview());
    if (p === "/api/class/learners")
      return json(
        res,
        200,
        learners.map(({ token, ...l }) => (void token, l)),
      );
    const rv = /^\/api\/class\/learners\/([^/]+)\/revoke$/.exec(p);
    if (rv && method === "POST") {
      const l = learners.find((x) => String(x.learner_id) === rv[1]);
      if (!l) return err(res, 404, "learner: no such learner", "id");
      l.revoked = true;
      return json(res, 200, { learner_id: l.learner_id, revoked: true });
    }
    if (p === "/api/class/export.json") return json(res, 200, attempts.map(attemptRow));
    if (p === "/api/class/export.csv") {
      const cols = [
        "id",
        "learner",
        "exercise",
        "status",
        "created_at",
        "median_ms",
        "achieved",
        "target_met",
      ];
      const q = (v) =>
        v === null || v === undefined
          ? ""
          : /[",\n]/.test(String(v))
            ? `"${String(v).replace(/"/g, '""')}"`
            : String(v);
      res.writeHead(200, { "Content-Type": "text/csv" });
      return res.end(
        [
          cols.join(","),
          ...attempts.map(attemptRow).map((r) => cols.map((c) => q(r[c])).join(",")),
        ].join("\n") + "\n",
      );
    }
    return err(res, 404, "no route", "");
  }

  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://x");
    if ((await route(req, res, url)) === false) base(req, res);
  });
  server.on("close", () => clearInterval(tick));
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const origin = `http://127.0.0.1:${server.address().port}/`;
      resolve({
        server,
        origin,
        teacherToken: fx.teacher.token,
        learners,
        classCode: fx.class.code,
      });
    }),
  );
}
