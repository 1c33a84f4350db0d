// The lesson catalogue (docs/lessons-json.md): what each lesson declares (plots, variants' axes)
// and what the core concluded from a run's records (findings, headline). The pages draw from this
// alone; no lesson is named in the front end.

export type PlotKind = "curve" | "bars" | "ladder" | "heatmap" | "gantt" | "roofline" | "stacked";

export interface AxisDecl {
  /** An axis name, "variant", or (y) a record field: gbps, median_ms, figure:NAME, ... */
  field: string;
  log?: boolean;
  unit?: string;
}

export interface PlotDecl {
  id: string;
  kind: PlotKind;
  title?: string;
  x?: AxisDecl;
  y?: AxisDecl;
  series?: string;
  facet?: string;
  where?: Record<string, string>;
  variants?: string[];
  references?: string[];
  model?: boolean;
  stack?: string[];
  heat?: { row: string; col: string };
}

export interface Finding {
  key: string;
  label: string;
  value: number;
  unit?: string;
  x_from?: number;
  x_to?: number;
}

export interface HeadlineValue {
  variant: string;
  value: number;
}

export interface Headline {
  figure?: string;
  unit?: string;
  at?: string;
  best?: HeadlineValue;
  baseline?: HeadlineValue;
  speedup?: number;
  vendor?: HeadlineValue;
  pct_vendor?: number;
  model?: { within_15pct: number; of: number; worst_ratio?: number };
  counts?: { timed?: number; failed?: number; skipped?: number; expected_failure?: number };
}

export interface VariantDecl {
  name: string;
  description?: string;
  axes?: Record<string, string[] | { min?: number; max?: number }>;
  only?: string;
  opt_in?: string;
  expected_failure?: string;
}

export interface LessonDecl {
  summary?: string;
  baseline?: string;
  vendor?: string[];
  bytes_convention?: string;
  variants?: VariantDecl[];
  plots?: PlotDecl[];
  findings?: Finding[];
  headline?: Headline | null;
  /** The catalogue only (GET /api/lessons/<name>, the report's inlined catalogue). */
  doc?: string | null;
  sources?: { file: string; text: string }[];
  /** The report's catalogue: the lesson whose doc and kernels this one shows (Experiment::home). */
  home?: string;
}

export type Catalogue = Record<string, LessonDecl>;

/**
 * GET /api/list ({experiments: [{name, ...declaration}]}, or the bare list) or the report's
 * inlined catalogue ({name: declaration}) as one map by lesson name.
 */
export function parseCatalogue(raw: unknown): Catalogue {
  const out: Catalogue = {};
  if (!raw || typeof raw !== "object") return out;
  const list = Array.isArray(raw)
    ? raw
    : Array.isArray((raw as { experiments?: unknown }).experiments)
      ? (raw as { experiments: unknown[] }).experiments
      : null;
  if (list) {
    for (const e of list) {
      const o = e as LessonDecl & { name?: string };
      if (o && typeof o.name === "string") out[o.name] = o;
    }
    return out;
  }
  for (const [k, v] of Object.entries(raw as Record<string, unknown>))
    if (v && typeof v === "object") out[k] = v as LessonDecl;
  return out;
}

/**
 * A lesson as the pages see it: the run's own block (schema 2, or what the server/report computed
 * for a stored schema-1 run) over the catalogue's declaration. The run's plots win; findings and
 * headline come only from the run.
 */
export function lessonOf(
  runLessons: Record<string, LessonDecl> | undefined,
  catalogue: Catalogue,
  name: string,
): LessonDecl {
  const fromRun = runLessons?.[name];
  const fromCat = catalogue[name] ?? {};
  const out: LessonDecl = { ...fromCat, ...(fromRun ?? {}) };
  if (!fromRun?.plots?.length && fromCat.plots?.length) out.plots = fromCat.plots;
  if (!fromRun) {
    delete out.findings;
    delete out.headline;
  }
  return out;
}

/** A finding of the lesson by key ("level.L2"), or undefined. */
export function finding(lesson: LessonDecl, key: string): Finding | undefined {
  return lesson.findings?.find((f) => f.key === key);
}

/** Every finding of the run whose key starts with `prefix`, whichever lesson concluded it. */
export function findingsByPrefix(
  lessons: Record<string, LessonDecl> | undefined,
  prefix: string,
): Finding[] {
  const out: Finding[] = [];
  for (const l of Object.values(lessons ?? {}))
    for (const f of l.findings ?? []) if (f.key.startsWith(prefix)) out.push(f);
  return out;
}

/** What an explainer asks of a lesson: a plot of this kind and/or these x and y fields. */
export interface PlotQuery {
  kind?: PlotKind;
  x?: string;
  y?: string;
  facet?: string;
  /** Only plots that draw the model's prediction too. */
  model?: boolean;
}

export function matchesPlot(p: PlotDecl, q: PlotQuery): boolean {
  return (
    (q.kind === undefined || p.kind === q.kind) &&
    (q.x === undefined || p.x?.field === q.x) &&
    (q.y === undefined || p.y?.field === q.y) &&
    (q.facet === undefined || p.facet === q.facet) &&
    (q.model === undefined || !!p.model === q.model)
  );
}

/** The first lesson (catalogue order) that declares a plot matching q, with that plot. */
export function lessonWithPlot(
  catalogue: Catalogue,
  q: PlotQuery,
): { name: string; plot: PlotDecl } | null {
  for (const [name, l] of Object.entries(catalogue)) {
    const plot = l.plots?.find((p) => matchesPlot(p, q));
    if (plot) return { name, plot };
  }
  return null;
}
