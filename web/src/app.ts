// Shared state of the page: mode, models, device, the runs it can show.
import { apiGet, deviceOf, type DeviceInfo } from "./api";
import { parseClaims, type ClaimsJson } from "./claims";
import type { Mode, ReportData } from "./mode";
import type { Models } from "./models";
import type { RunJson } from "./records";

export interface ResultEntry {
  id: string;
  date?: string;
  device?: string;
  commit?: string;
  records?: number;
}

export interface App {
  mode: Mode;
  models: Models;
  device: DeviceInfo | null;
  deviceReason: string;
  report: ReportData;
  /** Runs the page can show: the report's, or the server's results folder. */
  listRuns(): Promise<ResultEntry[]>;
  getRun(id: string): Promise<RunJson>;
  /** The claims with the verdicts of run `id` (the report's inlined ones, or GET /api/claims?run=);
   * without an id: the claims and their plan, no verdicts. */
  getClaims(id?: string): Promise<ClaimsJson>;
}

export function makeApp(mode: Mode, models: Models, report: ReportData): App {
  const cache = new Map<string, Promise<RunJson>>();
  return {
    mode,
    models,
    device: null,
    deviceReason: "",
    report,
    async listRuns() {
      if (mode === "report") {
        return report.runs.map((r, i) => ({
          id: String(i),
          date: r.run.context?.date,
          device: String(r.run.context?.device?.name ?? ""),
          commit: r.run.context?.tool?.git_commit,
          records: r.run.records.length,
          name: r.name,
        }));
      }
      // The server lists the newest first and marks files that are not run JSON ("error"): the
      // pages get runs only, oldest first (the latest last, as in a report).
      const list = await apiGet<(ResultEntry & { error?: string })[]>("api/results");
      return list.filter((r) => !r.error).reverse();
    },
    getRun(id: string) {
      if (mode === "report") {
        const r = report.runs[Number(id)];
        return r ? Promise.resolve(r.run) : Promise.reject(new Error(`no run ${id}`));
      }
      let p = cache.get(id);
      if (!p) {
        p = apiGet<RunJson>(`api/results/${encodeURIComponent(id)}`);
        cache.set(id, p);
      }
      return p;
    },
    async getClaims(id?: string) {
      if (mode === "report") {
        const r = id === undefined ? undefined : report.runs[Number(id)];
        // A report without inlined claims (an older memlab) shows none rather than failing.
        return parseClaims(r?.claims ?? report.runs[0]?.claims ?? null);
      }
      const q = id === undefined ? "" : `?run=${encodeURIComponent(id)}`;
      return parseClaims(await apiGet<unknown>(`api/claims${q}`));
    },
  };
}

export async function loadDevice(app: App): Promise<void> {
  if (app.mode === "report") {
    const d = app.report.runs[0]?.run.context?.device;
    app.device = d ? (d as DeviceInfo) : null;
    return;
  }
  try {
    const info = await apiGet<Record<string, unknown>>("api/info");
    app.device = deviceOf(info);
    app.deviceReason = typeof info.reason === "string" ? info.reason : "";
  } catch (e) {
    app.device = null;
    app.deviceReason = String(e);
  }
}

/** Whether "measure on this GPU" can be offered: serve mode with a device. */
export function canMeasure(app: App): boolean {
  return app.mode === "serve" && app.device !== null;
}
