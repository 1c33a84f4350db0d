// #/compare : two runs, ratio per record (new / base median time), changes beyond the threshold
// highlighted (memlab compare's rule: a regression is new/base - 1 > threshold).
import * as Plot from "@observablehq/plot";
import type { App } from "../app";
import { clear, h, numberInput, select } from "../dom";
import { num, t } from "../i18n";
import { compareRuns } from "../records";

export const title = "compare.title";

export async function render(root: HTMLElement, app: App): Promise<void> {
  root.append(h("h1", {}, t("compare.title")));
  const runs = await app.listRuns();
  if (runs.length < 2) {
    root.append(h("p", { class: "muted" }, t("compare.need_two")));
    if (runs.length === 1) {
      // One run: compare it with itself so the view is not empty (every ratio 1).
    } else return;
  }
  let a = runs[0]!.id;
  let b = runs[runs.length - 1]!.id;
  let threshold = 5;
  const body = h("div", {});
  const opts = runs.map((r) => [r.id, `${r.date ?? r.id} · ${r.device ?? ""}`] as [string, string]);
  root.append(
    h(
      "div",
      { class: "controls" },
      h(
        "label",
        { class: "field" },
        h("span", {}, t("compare.base")),
        select(opts, a, (v) => ((a = v), void draw())),
      ),
      h(
        "label",
        { class: "field" },
        h("span", {}, t("compare.new")),
        select(opts, b, (v) => ((b = v), void draw())),
      ),
      h(
        "label",
        { class: "field" },
        h("span", {}, t("compare.threshold")),
        numberInput(threshold, 1, 100, (v) => ((threshold = v), void draw())),
      ),
    ),
    body,
  );
  async function draw(): Promise<void> {
    const [ra, rb] = await Promise.all([app.getRun(a), app.getRun(b)]);
    const rows = compareRuns(ra, rb, threshold / 100);
    clear(body);
    const changed = rows.filter((r) => r.change !== "same");
    body.append(
      h(
        "p",
        { "data-testid": "compare-summary" },
        t("compare.summary", {
          n: rows.length,
          slower: rows.filter((r) => r.change === "slower").length,
          faster: rows.filter((r) => r.change === "faster").length,
        }),
      ),
    );
    if (rows.length)
      body.append(
        Plot.plot({
          width: Math.min(680, root.clientWidth || 680),
          height: 260,
          marginLeft: 50,
          x: { label: t("compare.record_index") },
          y: { type: "log", label: t("compare.ratio"), grid: true },
          marks: [
            Plot.ruleY([1 - threshold / 100, 1 + threshold / 100], {
              stroke: "var(--muted)",
              strokeDasharray: "3 3",
            }),
            Plot.dot(
              rows.map((r, i) => ({ ...r, i })),
              {
                x: "i",
                y: "ratio",
                fill: (r: { change: string }) =>
                  r.change === "slower"
                    ? "var(--bad)"
                    : r.change === "faster"
                      ? "var(--good)"
                      : "var(--muted)",
                r: 3,
                tip: true,
                title: "key",
              },
            ),
          ],
        }),
      );
    body.append(
      h(
        "table",
        { class: "compare", "data-testid": "compare-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", {}, t("compare.record")),
            h("th", {}, t("compare.base_ms")),
            h("th", {}, t("compare.new_ms")),
            h("th", {}, t("compare.ratio")),
          ),
        ),
        h(
          "tbody",
          {},
          [...changed, ...rows.filter((r) => r.change === "same")].map((r) =>
            h(
              "tr",
              { class: r.change },
              h("td", {}, r.key),
              h("td", { class: "num" }, num(r.a_ms, 4)),
              h("td", { class: "num" }, num(r.b_ms, 4)),
              h("td", { class: "num" }, num(r.ratio, 3)),
            ),
          ),
        ),
      ),
    );
  }
  await draw();
}
