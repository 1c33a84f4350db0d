// Shared state of the page: mode, models, device, the runs it can show.
import { apiGet, ApiError, deviceOf, type DeviceInfo } from "./api";
import { whoFrom, type Me } from "./classlab";
import { parseClaims, type ClaimsJson } from "./claims";
import { lessonOf, parseCatalogue, type Catalogue, type LessonDecl } from "./lessons";
import type { Mode, ReportData } from "./mode";
import type { Models } from "./models";
import { checkSchema, type RunJson } from "./records";

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
  /** GET /api/me: the role in a class lab; null in the one-person lab (or a report). */
  me: Me | null;
  /** The class lab refused this browser's token (none, expired or revoked): #/join. */
  signedOut: boolean;
  report: ReportData;
  /** Runs the page can show: the report's, or the server's results folder. */
  listRuns(): Promise<ResultEntry[]>;
  getRun(id: string): Promise<RunJson>;
  /** The claims with the verdicts of run `id` (the report's inlined ones, or GET /api/claims?run=);
   * without an id: the claims and their plan, no verdicts. */
  getClaims(id?: string): Promise<ClaimsJson>;
  /** The lesson catalogue: declarations (GET /api/list, or the report's inlined catalogue). */
  catalogue(): Promise<Catalogue>;
  /** A lesson's doc and kernels (GET /api/lessons/<name>, or the report's catalogue). */
  lessonContent(name: string): Promise<LessonDecl>;
  /** The lesson as a run shows it: run.lessons over the catalogue. */
  lesson(run: RunJson, name: string): Promise<LessonDecl>;
}

export function makeApp(mode: Mode, models: Models, report: ReportData): App {
  const cache = new Map<string, Promise<RunJson>>();
  const content = new Map<string, Promise<LessonDecl>>();
  let catalogue: Promise<Catalogue> | null = null;
  return {
    mode,
    models,
    device: null,
    deviceReason: "",
    me: null,
    signedOut: false,
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
        if (!r) return Promise.reject(new Error(`no run ${id}`));
        try {
          return Promise.resolve(checkSchema(r.run));
        } catch (e) {
          return Promise.reject(e);
        }
      }
      let p = cache.get(id);
      if (!p) {
        p = apiGet<RunJson>(`api/results/${encodeURIComponent(id)}`).then(checkSchema);
        cache.set(id, p);
      }
      return p;
    },
    catalogue() {
      if (!catalogue)
        catalogue =
          mode === "report"
            ? Promise.resolve(parseCatalogue(report.catalogue ?? {}))
            : apiGet<unknown>("api/list")
                .then(parseCatalogue)
                .catch(() => ({}));
      return catalogue;
    },
    lessonContent(name: string) {
      if (mode === "report")
        return this.catalogue().then((c) => {
          // A lesson registered in another lesson's folder carries that one's doc and kernels
          // once (the report's catalogue names it as `home`).
          const e = c[name] ?? {};
          const h = e.home !== undefined ? c[e.home] : undefined;
          return h ? { ...e, doc: h.doc, sources: h.sources } : e;
        });
      let p = content.get(name);
      if (!p) {
        p = apiGet<LessonDecl>(`api/lessons/${encodeURIComponent(name)}`);
        content.set(name, p);
      }
      return p;
    },
    async lesson(run: RunJson, name: string) {
      return lessonOf(run.lessons, await this.catalogue(), name);
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

/** Who this browser is (GET /api/me); a server without the route leaves the one-person lab. */
export async function loadMe(app: App): Promise<void> {
  if (app.mode === "report") return;
  let who;
  try {
    who = whoFrom(200, await apiGet<unknown>("api/me"));
  } catch (e) {
    who = whoFrom(e instanceof ApiError ? e.status : 0, null);
  }
  app.me = who.me;
  app.signedOut = who.signedOut;
}
