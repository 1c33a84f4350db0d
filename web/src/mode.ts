// Report mode (a static file from `memlab report`: data inlined, no API) or serve mode (the API of
// `memlab serve` at the same origin).
import type { Catalogue } from "./lessons";
import type { RunJson } from "./records";

export interface ReportData {
  kind?: string;
  /** claims: the verdicts of `memlab claims` over the run (memlab report inlines them). */
  runs: { name: string; run: RunJson; claims?: unknown }[];
  /** The lessons of the runs with their declarations, docs and kernels (memlab report). */
  catalogue?: Catalogue;
}

export type Mode = "report" | "serve";

export function detectMode(doc: Document = document): Mode {
  return doc.getElementById("memlab-data") ? "report" : "serve";
}

/** The inlined data; accepts {runs:[{name, run}]}, a list of runs or one run. */
export function parseReportData(text: string): ReportData {
  const data: unknown = JSON.parse(text);
  if (Array.isArray(data)) {
    return { runs: data.map((run, i) => ({ name: `run ${i + 1}`, run: run as RunJson })) };
  }
  const obj = data as Record<string, unknown>;
  if (Array.isArray(obj.runs)) return obj as unknown as ReportData;
  if (Array.isArray(obj.records))
    return { runs: [{ name: "run", run: obj as unknown as RunJson }] };
  return { runs: [] };
}

export function reportData(doc: Document = document): ReportData {
  const el = doc.getElementById("memlab-data");
  return el && el.textContent?.trim() ? parseReportData(el.textContent) : { runs: [] };
}
