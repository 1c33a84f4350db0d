// A lesson's declared ladder as the lab draws it from a stored run (the plot declarations the
// run carries, as the core wrote them): shared by the vitest files over device runs.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LessonDecl } from "../src/lessons";
import { plotData } from "../src/plots/declared";
import type { RunJson } from "../src/records";

export type DeclaredRun = RunJson & { lessons: Record<string, LessonDecl> };

export function declaredLadder(run: DeclaredRun, lesson: string) {
  const decl = run.lessons[lesson]!;
  const plot = decl.plots!.find((p) => p.kind === "ladder")!;
  return plotData(
    run,
    decl,
    plot,
    run.records.filter((r) => r.experiment === lesson),
  );
}

// The measured bar of one variant in one facet, or undefined where the ladder has none.
export const measuredBar = (
  pd: ReturnType<typeof declaredLadder>,
  facet: string,
  variant: string,
) => pd.data.find((d) => d.kind === "measured" && d.facet === facet && d.variant === variant);

// A stored device result of docs/results/ (a run, or a call's parts keyed by name), parsed.
export function storedResult<T = DeclaredRun>(file: string): T {
  return JSON.parse(readFileSync(join(__dirname, "../../docs/results", file), "utf8")) as T;
}

// The % of memcpy of the run's record of `variant` whose parameters include `params` (values
// compared as strings; the first such record, i.e. the first repeat's median).
export function pctMemcpy(run: DeclaredRun, variant: string, params: Record<string, string> = {}) {
  const rec = run.records.find(
    (r) =>
      r.variant === variant && Object.entries(params).every(([k, v]) => String(r.params[k]) === v),
  );
  if (!rec) throw new Error(`no record of ${variant} at ${JSON.stringify(params)}`);
  return rec.pct_memcpy!;
}
