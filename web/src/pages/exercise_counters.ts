// The learner's hardware counters beside the lesson's model and the lesson's variants (issue 21
// #6): one row per figure (sectors, wavefronts per request, DRAM over useful bytes, occupancy),
// a column for the learner's kernel, the model's intended and starter patterns, and each variant
// counted at the same point; a small bar in each cell, scaled to the row. The sentence that says
// which counter explains the verdict is built here from its parts, in the page's language.
import { h } from "../dom";
import { num, t } from "../i18n";
import { loc } from "./exercises";

type Texts = Record<string, string>;

export interface CounterModel {
  figure: string;
  unit?: string;
  what?: Texts;
  intended: { label?: Texts; value: number };
  starter: { label?: Texts; value: number };
}

export interface CounterVerdict {
  figure: string;
  yours: number;
  intended: number;
  starter: number;
  off: boolean;
  closer_to?: string;
}

export interface CountersJson {
  status?: string; // collected | unavailable
  reason?: string;
  point?: string;
  passes?: number;
  yours?: Record<string, unknown>;
  model?: CounterModel[];
  variants?: Record<string, unknown>[];
  explain?: string;
  verdict?: CounterVerdict;
}

/** Figures shown without a model where they were measured. */
const ALWAYS = ["dram_over_useful", "achieved_occupancy_pct"];

export interface CounterCell {
  column: string; // "yours", "intended", "starter" or the variant's name
  value: number | null;
  bar: number; // 0..1 of the row's largest value
}

export interface CounterRow {
  figure: string;
  cells: CounterCell[];
}

export interface CounterTable {
  columns: { id: string; label: string }[];
  rows: CounterRow[];
}

function value(o: Record<string, unknown> | undefined, key: string): number | null {
  const v = o?.[key];
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The table's data: declared figures first, then the unmodelled ones that were measured. */
export function counterTable(c: CountersJson): CounterTable {
  const models = c.model ?? [];
  const variants = (c.variants ?? []).filter((v) => typeof v.variant === "string");
  const columns = [
    { id: "yours", label: t("counters.yours") },
    { id: "intended", label: t("counters.model_intended") },
    { id: "starter", label: t("counters.model_starter") },
    ...variants.map((v) => ({ id: String(v.variant), label: String(v.variant) })),
  ];
  const figures = [
    ...models.map((m) => m.figure),
    ...ALWAYS.filter(
      (f) =>
        !models.some((m) => m.figure === f) &&
        (value(c.yours, f) !== null || variants.some((v) => value(v, f) !== null)),
    ),
  ];
  const rows = figures.map((figure) => {
    const m = models.find((x) => x.figure === figure);
    const raw: [string, number | null][] = [
      ["yours", value(c.yours, figure)],
      ["intended", m ? m.intended.value : null],
      ["starter", m ? m.starter.value : null],
      ...variants.map((v): [string, number | null] => [String(v.variant), value(v, figure)]),
    ];
    const max = Math.max(0, ...raw.map(([, v]) => v ?? 0));
    return {
      figure,
      cells: raw.map(([column, v]) => ({
        column,
        value: v,
        bar: v !== null && max > 0 ? v / max : 0,
      })),
    };
  });
  return { columns, rows };
}

function fmt(v: number): string {
  if (Math.abs(v) >= 1e6) return v.toExponential(2);
  return num(v, Math.abs(v - Math.round(v)) < 0.05 ? 0 : 2);
}

/** The sentence in the page's language, from the verdict's parts and the declared texts. */
export function explainText(c: CountersJson, passed: boolean): string {
  const v = c.verdict;
  const m = v ? (c.model ?? []).find((x) => x.figure === v.figure) : undefined;
  if (!v || !m) return "";
  const vars = {
    what: loc(m.what),
    yours: fmt(v.yours),
    unit: t(`counters.unit.${v.figure}`),
    label: loc(m.intended.label),
    intended: fmt(v.intended),
    starter_label: loc(m.starter.label),
    starter: fmt(v.starter),
  };
  if (v.off) {
    const conflict =
      v.figure.startsWith("wavefronts") && v.yours >= 1.5
        ? " " + t("counters.conflict", { n: Math.round(v.yours) })
        : "";
    return t("counters.explain.off", vars).replace("{conflict}", conflict);
  }
  return t(passed ? "counters.explain.as_model" : "counters.explain.not_this", vars);
}

/** The counters section of a check result; null when the check reached no counters pass. */
export function countersSection(c: CountersJson | undefined, passed: boolean): HTMLElement | null {
  if (!c) return null;
  const box = h("section", { class: "counters", "data-testid": "counters" });
  box.append(h("h3", {}, t("counters.title")));
  if (c.status !== "collected") {
    box.append(
      h(
        "p",
        { class: "muted", "data-testid": "counters-unavailable" },
        t("counters.unavailable", { reason: c.reason ?? "" }),
      ),
    );
    return box;
  }
  const explain = explainText(c, passed);
  if (explain)
    box.append(h("p", { class: "counters-explain", "data-testid": "counters-explain" }, explain));
  const table = counterTable(c);
  const models = c.model ?? [];
  const label = (col: string): string => {
    const m = models[0];
    if (col === "intended" && m) return `${t("counters.model_intended")}: ${loc(m.intended.label)}`;
    if (col === "starter" && m) return `${t("counters.model_starter")}: ${loc(m.starter.label)}`;
    return table.columns.find((x) => x.id === col)?.label ?? col;
  };
  box.append(
    h(
      "table",
      { class: "counters-table" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("counters.figure")),
          table.columns.map((c2) => h("th", { "data-column": c2.id }, label(c2.id))),
        ),
      ),
      h(
        "tbody",
        {},
        table.rows.map((r) =>
          h(
            "tr",
            { "data-figure": r.figure },
            h("th", {}, t(`counters.unit.${r.figure}`)),
            r.cells.map((cell) =>
              h(
                "td",
                { "data-column": cell.column, class: cell.column === "yours" ? "mine" : "" },
                cell.value === null ? "—" : fmt(cell.value),
                cell.value === null
                  ? null
                  : h("span", {
                      class: `bar ${cell.column === "yours" ? "mine" : ""}`,
                      style: `width:${(100 * cell.bar).toFixed(1)}%`,
                    }),
              ),
            ),
          ),
        ),
      ),
    ),
  );
  box.append(
    h("p", { class: "muted" }, t("counters.note", { point: c.point ?? "", passes: c.passes ?? 0 })),
  );
  return box;
}
