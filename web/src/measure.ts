// "Measure on this GPU": POST /api/runs with the token, poll, hand the records back.
import { apiGet, apiPost, ApiError } from "./api";
import type { App } from "./app";
import { h } from "./dom";
import { t } from "./i18n";
import type { RunJson, RunRecord } from "./records";

export interface RunRequest {
  experiments: string[];
  variants?: string[];
  axes?: Record<string, (string | number)[]>;
  quick?: boolean;
}

export interface JobStatus {
  id: string;
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  progress: string[];
  position?: number;
  records?: RunRecord[];
  run?: RunJson;
  error?: string;
  parameter?: string;
}

export async function startRun(req: RunRequest): Promise<string> {
  const r = await apiPost<{ id: string }>("api/runs", req, true);
  return r.id;
}

export async function cancelRun(id: string): Promise<JobStatus> {
  return apiPost<JobStatus>(`api/runs/${encodeURIComponent(id)}/cancel`, {}, true);
}

/** Polls until the job ends; onUpdate sees every status. */
export async function follow(
  id: string,
  onUpdate: (s: JobStatus) => void,
  intervalMs = 500,
): Promise<JobStatus> {
  for (;;) {
    const s = await apiGet<JobStatus>(`api/runs/${encodeURIComponent(id)}`);
    onUpdate(s);
    if (s.state === "done" || s.state === "failed" || s.state === "cancelled") return s;
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * A "measure on this GPU" box: a button when the server reports a device, otherwise a line
 * saying why not. onRecords receives the measured records.
 */
export function measureBox(
  app: App,
  request: () => RunRequest | Promise<RunRequest>,
  onRecords: (records: RunRecord[], run: RunJson | undefined) => void,
): HTMLElement {
  const box = h("div", { class: "measure", "data-testid": "measure" });
  if (app.mode !== "serve") return box;
  if (!app.device) {
    box.append(
      h("p", { class: "muted" }, t("measure.unavailable", { reason: app.deviceReason || "-" })),
    );
    return box;
  }
  const status = h("span", { class: "measure-status" });
  const button = h(
    "button",
    { type: "button", class: "primary" },
    t("measure.button", { name: app.device.name }),
  );
  button.addEventListener("click", async () => {
    button.disabled = true;
    status.textContent = t("measure.starting");
    try {
      const id = await startRun(await request());
      const end = await follow(id, (s) => {
        status.textContent =
          s.state === "queued"
            ? t("run.queued", { position: s.position ?? 0 })
            : (s.progress[s.progress.length - 1] ?? t("run.running"));
      });
      if (end.state === "done") {
        status.textContent = t("measure.done");
        onRecords(end.records ?? end.run?.records ?? [], end.run);
      } else {
        status.textContent = `${t(`run.state.${end.state}`)}: ${end.error ?? ""}`;
      }
    } catch (e) {
      status.textContent = e instanceof ApiError ? e.message : String(e);
      status.classList.add("error");
    } finally {
      button.disabled = false;
    }
  });
  box.append(button, " ", status);
  return box;
}
