// The check's "diagnosis" (include/memlab/exercise/diagnosis.hpp): compute-sanitizer's findings
// said in the learner's lines. The server also sends an English sentence per finding; the page
// builds its own from the structured fields, in the page's language (diagnosis.* messages).
import { t } from "./i18n";

export interface DiagSide {
  access?: string;
  line?: number;
  file?: string;
  code?: string;
  expr?: string;
  thread?: number[];
}

export interface Finding {
  tool?: string;
  kind?: string; // RAW | WAR | WAW | access | exception | barrier
  message?: string; // raw | raw_same_warp | war | war_next | waw | oob | oob_shared | ...
  severity?: string;
  same_warp?: boolean;
  array?: string;
  block?: number[];
  hazards?: number;
  records?: number;
  write?: DiagSide;
  read?: DiagSide;
  at?: DiagSide;
  size_bytes?: number;
  problem?: string;
  bounds?: { array?: string; index?: string; limit?: string };
  sentence?: string;
}

export interface ToolRun {
  tool?: string;
  point?: string;
  exit?: number;
  wall_s?: number;
  timed_out?: boolean;
  records?: number;
  output?: string;
  skipped?: string;
}

export interface Diagnosis {
  ran?: boolean;
  reason?: string;
  point?: string;
  point_reason?: string; // smallest_failing | smallest
  tool_runs?: ToolRun[];
  hazards?: Finding[];
  sentences?: string[];
}

/** One line of the diagnosis: its text and the learner's lines it names (for the editor). */
export interface DiagnosisItem {
  text: string;
  lines: number[];
  code: string[]; // the quoted source lines, "13: As[ty][tx] = ..."
}

function triple(x: number[] | undefined): string {
  return x && x.length === 3 ? `(${x.join(",")})` : "?";
}

function verb(access: string | undefined): string {
  return t(`diagnosis.access.${access === "write" || access === "read" ? access : "other"}`);
}

/** The finding as a sentence in the page's language. */
export function findingText(f: Finding): string {
  const w = f.write ?? {};
  const r = f.read ?? {};
  const at = f.at ?? {};
  const wexpr = w.expr ?? f.array ?? "__shared__";
  const rexpr = r.expr ?? wexpr;
  const threads = Boolean(w.thread && r.thread);
  const who = t(
    !threads
      ? "diagnosis.who.thread"
      : f.same_warp
        ? "diagnosis.who.same_warp"
        : "diagnosis.who.warp",
  );
  const vars: Record<string, string | number> = {
    wline: w.line ?? 0,
    rline: r.line ?? 0,
    wexpr,
    rexpr,
    who,
    line: at.line ?? 0,
    thread: triple(at.thread),
    block: triple(f.block),
    access: verb(at.access),
    bytes: f.size_bytes ?? 0,
    problem: f.problem ?? "",
    index: f.bounds?.index ?? "",
    limit: f.bounds?.limit ?? "",
    tool: f.tool ?? "",
    count: f.hazards ?? f.records ?? 0,
  };
  let key = `diagnosis.${f.message ?? "elsewhere"}`;
  if (f.message === "oob" && f.bounds?.limit) key = "diagnosis.oob_bounds";
  let text = t(key, vars);
  if (f.tool === "racecheck" && f.message !== "elsewhere") {
    const parts: string[] = [];
    if (threads) {
      const [a, b] = f.kind === "WAR" ? [r.thread, w.thread] : [w.thread, r.thread];
      parts.push(t("diagnosis.threads", { a: triple(a), b: triple(b), block: triple(f.block) }));
    }
    parts.push(t(vars.count === 1 ? "diagnosis.count_one" : "diagnosis.count", { n: vars.count }));
    text += ` (${parts.join("; ")})`;
  } else if ((f.records ?? 1) > 1 && f.message !== "elsewhere") {
    text += ` (${t("diagnosis.count", { n: f.records ?? 1 })})`; // more than one: plural
  }
  return text;
}

function quoted(f: Finding): { lines: number[]; code: string[] } {
  const lines: number[] = [];
  const code: string[] = [];
  for (const s of [f.write, f.read, f.at]) {
    if (!s?.line || lines.includes(s.line) || f.message === "elsewhere") continue;
    lines.push(s.line);
    if (s.code) code.push(`${s.line}: ${s.code}`);
  }
  return { lines, code };
}

/** What the page shows: the reason line first, then one item per finding. */
export function diagnosisItems(d: Diagnosis | undefined): {
  summary: string;
  items: DiagnosisItem[];
} {
  if (!d) return { summary: "", items: [] };
  const tools = (d.tool_runs ?? []).map((r) => r.tool ?? "").join(", ");
  const point = d.point ?? "";
  const why = t(
    d.point_reason === "smallest" ? "diagnosis.point.smallest" : "diagnosis.point.smallest_failing",
  );
  let summary: string;
  if (!d.ran) summary = t("diagnosis.not_run", { reason: d.reason ?? "" });
  else if (!(d.hazards ?? []).length) summary = t("diagnosis.nothing", { tools, point, why });
  else summary = t("diagnosis.ran", { tools, point, why });
  const items = (d.hazards ?? []).map((f) => ({ text: findingText(f), ...quoted(f) }));
  return { summary, items };
}
