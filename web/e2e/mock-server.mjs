// A tiny stand-in for `memlab serve`, used by the e2e tests ONLY when MEMLAB_BIN is not set
// (until branch web-server's binary is merged): serves dist/, /wasm/ from $MEMLAB_WASM_DIR and
// the API routes the pages call, with no GPU. Not part of the product.
import { createServer } from "node:http";
import { readFileSync, existsSync } from "node:fs";
import { join, extname } from "node:path";

const TYPES = {
  ".html": "text/html",
  ".js": "text/javascript",
  ".mjs": "text/javascript",
  ".css": "text/css",
  ".wasm": "application/wasm",
  ".json": "application/json",
};

const json = (res, status, body) => {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
};

/** The one-person lab's routes and the static bundle (the class mock falls back to these). */
export function baseHandler({ dist, wasmDir, results, token }) {
  const run = JSON.parse(readFileSync(results, "utf8"));
  return (req, res) => {
    const url = new URL(req.url, "http://x");
    const p = url.pathname;
    if (p === "/api/info") return json(res, 200, { device: null, reason: "no CUDA device (mock)" });
    if (p === "/api/results")
      return json(res, 200, [
        {
          id: "h200-full",
          date: run.context.date,
          device: run.context.device.name,
          records: run.records.length,
        },
      ]);
    if (p.startsWith("/api/results/")) return json(res, 200, run);
    if (p === "/api/list")
      return json(res, 200, {
        experiments: [
          {
            name: "coalescing",
            summary: "stride",
            variants: ["strided_read", "strided_copy"],
            axes: [{ name: "stride", defaults: ["1", "2"] }],
          },
        ],
      });
    if (p === "/api/lessons") return json(res, 200, { lessons: ["coalescing"] });
    if (p.startsWith("/api/lessons/"))
      return json(res, 200, {
        doc: "# Coalescing\n\nmock doc",
        sources: [{ file: "kernels.cu", text: "__global__ void k() {}" }],
      });
    if (p === "/api/runs" && req.method === "POST") {
      if (req.headers["x-memlab-token"] !== token)
        return json(res, 403, { error: "token: missing or wrong", parameter: "token" });
      return json(res, 503, { error: "no CUDA device (mock)", parameter: "" });
    }
    if (p === "/api/claims") {
      // The stored `memlab claims --json` of the H200 (no explainer pages: written before them).
      const claims = JSON.parse(
        readFileSync(join(results, "../h200-2026-11-30-claims.json"), "utf8"),
      );
      return json(res, 200, { ...claims, run: url.searchParams.get("run") ?? undefined });
    }
    // One exercise from the fixture of a diagnosed check (tests/host/test_diagnosis_runs.cpp).
    const diag = JSON.parse(
      readFileSync(join(import.meta.dirname, "fixtures/check-diagnosis.json"), "utf8"),
    );
    if (p === `/api/exercises/${diag.exercise.name}`) return json(res, 200, diag.exercise);
    if (p === `/api/exercises/${diag.exercise.name}/check` && req.method === "POST") {
      if (req.headers["x-memlab-token"] !== token)
        return json(res, 403, { error: "token: missing or wrong", parameter: "token" });
      return json(res, 200, diag.check);
    }
    // Any other check: a result with counters and the compiler's view (fixtures/check-counters.json).
    if (/^\/api\/exercises\/[^/]+\/check$/.test(p) && req.method === "POST") {
      if (req.headers["x-memlab-token"] !== token)
        return json(res, 403, { error: "token: missing or wrong", parameter: "token" });
      return json(
        res,
        200,
        JSON.parse(readFileSync(join(import.meta.dirname, "fixtures/check-counters.json"), "utf8")),
      );
    }
    if (p.startsWith("/api/exercises")) return json(res, 501, { error: "not built yet" });
    if (p.startsWith("/api/")) return json(res, 404, { error: "no route" });
    let file =
      p === "/"
        ? join(dist, "index.html")
        : p.startsWith("/wasm/") && wasmDir
          ? join(wasmDir, p.slice(6))
          : join(dist, p);
    if (!existsSync(file)) return json(res, 404, { error: "no file" });
    res.writeHead(200, { "Content-Type": TYPES[extname(file)] ?? "application/octet-stream" });
    res.end(readFileSync(file));
  };
}

export function startMock(opts) {
  const server = createServer(baseHandler(opts));
  const { token } = opts;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ server, url: `http://127.0.0.1:${server.address().port}/?token=${token}` }),
    ),
  );
}

/** What `memlab report` writes (mirrors branch web-server's report_html.cpp) for the mock run. */
export function mockReport({ dist, wasmDir, runs, lang }) {
  let html = readFileSync(join(dist, "index.html"), "utf8");
  const js = readFileSync(join(dist, "assets/memlab.js"), "utf8").replace(
    /<\/script/gi,
    "<\\/script",
  );
  const css = readFileSync(join(dist, "assets/memlab.css"), "utf8");
  html = html.replace(
    /<script[^>]*src="[^"]*"[^>]*><\/script>/,
    () => `<script type="module">${js}</script>`,
  );
  html = html.replace(/<link rel="stylesheet"[^>]*>/, () => `<style>${css}</style>`);
  const data = JSON.stringify({
    kind: "memlab-report",
    runs: runs.map((r) => ({ name: r.name, run: JSON.parse(readFileSync(r.file, "utf8")) })),
  }).replace(/</g, "\\u003c");
  const attr = lang ? ` data-lang="${lang}"` : "";
  let blocks = `<script type="application/json" id="memlab-data"${attr}>${data}</script>\n`;
  if (wasmDir && existsSync(join(wasmDir, "memlab_models.mjs")))
    blocks += `<script type="application/octet-stream" id="memlab-wasm/memlab_models.mjs" data-encoding="base64">${readFileSync(join(wasmDir, "memlab_models.mjs")).toString("base64")}</script>\n`;
  return html.replace("</head>", () => blocks + "</head>");
}
