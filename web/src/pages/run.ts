// #/run : choose lessons, variants and axis values; the server validates (same rules as the CLI,
// errors name the parameter); start, live progress, cancel.
import type { App } from "../app";
import { apiGet, ApiError } from "../api";
import { clear, h } from "../dom";
import { t } from "../i18n";
import { cancelRun, follow, startRun, type JobStatus, type RunRequest } from "../measure";
import { lessonPlots } from "../plots/render";
import type { RunJson } from "../records";

export const title = "run.title";

interface ListJson {
  experiments: {
    name: string;
    summary?: string;
    description?: string;
    variants: ({ name: string } | string)[];
    axes: {
      name: string;
      defaults?: (string | number)[];
      quick?: (string | number)[];
      help?: string;
    }[];
  }[];
}

const vname = (v: { name: string } | string) => (typeof v === "string" ? v : v.name);

export async function render(root: HTMLElement, app: App): Promise<(() => void) | void> {
  root.append(h("h1", {}, t("run.title")));
  if (app.mode !== "serve") {
    root.append(h("p", { class: "muted" }, t("run.report_mode")));
    return;
  }
  if (!app.device)
    root.append(h("p", { class: "callout" }, t("run.no_device", { reason: app.deviceReason })));
  let list: ListJson;
  try {
    const raw = await apiGet<ListJson | ListJson["experiments"]>("api/list");
    list = Array.isArray(raw) ? { experiments: raw } : raw;
  } catch (e) {
    root.append(h("p", { class: "error" }, String(e)));
    return;
  }
  const form = h("div", { class: "run-form", "data-testid": "run-form" });
  const chosen = new Set<string>();
  const variantBoxes = new Map<string, HTMLInputElement[]>();
  const axisInputs = new Map<string, HTMLInputElement>();
  for (const e of list.experiments) {
    const box = h("input", { type: "checkbox", "data-exp": e.name });
    box.addEventListener("change", () => {
      if (box.checked) chosen.add(e.name);
      else chosen.delete(e.name);
      details.open = box.checked;
    });
    const vboxes = e.variants.map((v) =>
      h("input", { type: "checkbox", checked: true, "data-variant": vname(v) }),
    );
    variantBoxes.set(e.name, vboxes);
    const details = h(
      "details",
      { class: "exp" },
      h(
        "summary",
        {},
        h("label", {}, box, " ", h("strong", {}, e.name)),
        " ",
        h("span", { class: "muted" }, e.summary ?? e.description ?? ""),
      ),
      h(
        "div",
        { class: "variants" },
        h("span", {}, t("run.variants")),
        vboxes.map((b) => h("label", {}, b, " ", b.dataset.variant ?? "")),
      ),
      h(
        "div",
        { class: "axes" },
        e.axes.map((a) => {
          const input = h("input", {
            type: "text",
            placeholder: (a.defaults ?? []).join(","),
            "data-axis": `${e.name}.${a.name}`,
            title: a.help ?? "",
          });
          axisInputs.set(`${e.name}.${a.name}`, input);
          return h("label", { class: "field" }, h("span", {}, a.name), input);
        }),
      ),
    );
    form.append(details);
  }
  const quick = h("input", { type: "checkbox", checked: true, "data-testid": "quick" });
  const start = h(
    "button",
    { type: "button", class: "primary", "data-testid": "start" },
    t("run.start"),
  );
  const cancel = h(
    "button",
    { type: "button", disabled: true, "data-testid": "cancel" },
    t("run.cancel"),
  );
  const status = h("div", { class: "run-status", "data-testid": "run-status", role: "status" });
  const progress = h("ol", { class: "progress" });
  const out = h("div", {});
  let jobId = "";
  let stopped = false;

  function request(): RunRequest {
    const variants: string[] = [];
    const axes: Record<string, string[]> = {};
    for (const name of chosen) {
      const boxes = variantBoxes.get(name) ?? [];
      if (boxes.some((b) => !b.checked))
        for (const b of boxes) if (b.checked) variants.push(b.dataset.variant!);
      for (const [key, input] of axisInputs) {
        if (!key.startsWith(`${name}.`) || !input.value.trim()) continue;
        axes[key.slice(name.length + 1)] = input.value
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean);
      }
    }
    const r: RunRequest = { experiments: [...chosen], quick: quick.checked };
    if (variants.length) r.variants = variants;
    if (Object.keys(axes).length) r.axes = axes;
    return r;
  }

  start.addEventListener("click", async () => {
    for (const i of form.querySelectorAll(".invalid")) i.classList.remove("invalid");
    status.className = "run-status";
    if (!chosen.size) {
      status.textContent = t("run.choose");
      return;
    }
    start.disabled = true;
    status.textContent = t("run.starting");
    clear(progress);
    clear(out);
    try {
      jobId = await startRun(request());
      cancel.disabled = false;
      const end: JobStatus = await follow(jobId, (s) => {
        if (stopped) return;
        status.textContent =
          s.state === "queued"
            ? t("run.queued", { position: s.position ?? 0 })
            : t(`run.state.${s.state}`);
        clear(progress);
        progress.append(...s.progress.slice(-12).map((p) => h("li", {}, p)));
      });
      status.textContent = `${t(`run.state.${end.state}`)}${end.error ? `: ${end.error}` : ""}`;
      if (end.state === "done" && end.run) {
        const run = end.run as RunJson;
        for (const name of new Set(run.records.map((r) => r.experiment)))
          out.append(
            h("h2", {}, name),
            await lessonPlots(app, run, name, await app.lesson(run, name)),
          );
      }
    } catch (e) {
      status.className = "run-status error";
      status.textContent = e instanceof ApiError ? e.message : String(e);
      if (e instanceof ApiError && e.parameter) {
        for (const [key, input] of axisInputs)
          if (key.endsWith(`.${e.parameter.replace(/^axes\./, "")}`))
            input.classList.add("invalid");
      }
    } finally {
      start.disabled = false;
      cancel.disabled = true;
    }
  });
  cancel.addEventListener("click", async () => {
    if (jobId) await cancelRun(jobId).catch((e) => (status.textContent = String(e)));
  });
  root.append(
    h("p", { class: "lead" }, t("run.lead")),
    form,
    h("div", { class: "controls" }, h("label", {}, quick, " ", t("run.quick")), start, cancel),
    status,
    progress,
    out,
  );
  return () => {
    stopped = true;
  };
}
