// #/ : the memory hierarchy as a table (seed 001), filled with this GPU's sizes when known, and
// beside the course's orders of magnitude the latencies the newest run measured (its findings
// level.* and latency.*, computed by memlab).
import type { App } from "../app";
import { h } from "../dom";
import { bytes } from "../format";
import { num, t } from "../i18n";
import { findingsByPrefix, type Finding } from "../lessons";
import { newestRunWith } from "./evidence";

export const title = "hierarchy.title";

interface Level {
  key: string;
  size: string;
  latency: string;
}

function levels(app: App): Level[] {
  const d = app.device;
  const known = (v: unknown): v is number => typeof v === "number" && v > 0;
  const regs = known(d?.regs_per_sm)
    ? t("hierarchy.size.regs", {
        k: d.regs_per_sm / 1024,
        kib: bytes(d.regs_per_sm * 4),
      })
    : t("hierarchy.generic.regs");
  const smem = known(d?.smem_per_sm_bytes)
    ? t("hierarchy.size.smem", {
        sm: bytes(d.smem_per_sm_bytes),
        block: bytes(d.smem_per_block_optin_bytes ?? d.smem_per_block_bytes ?? 0),
      })
    : t("hierarchy.generic.smem");
  const l2 = known(d?.l2_bytes)
    ? t("hierarchy.size.l2", { l2: bytes(d.l2_bytes) })
    : t("hierarchy.generic.l2");
  const global = known(d?.global_mem_bytes)
    ? t("hierarchy.size.global", {
        size: bytes(d.global_mem_bytes),
        bw: known(d.peak_bandwidth_gbps) ? Math.round(d.peak_bandwidth_gbps) : "?",
      })
    : t("hierarchy.generic.global");
  const cmem = known(d?.const_mem_bytes) ? bytes(d.const_mem_bytes) : t("hierarchy.generic.const");
  return [
    { key: "regs", size: regs, latency: "≈ 1" },
    { key: "smem", size: smem, latency: "≈ 20–30" },
    { key: "l1", size: t("hierarchy.generic.l1"), latency: "≈ 30" },
    { key: "const", size: cmem, latency: t("hierarchy.latency.const") },
    { key: "l2", size: l2, latency: "≈ 200" },
    { key: "global", size: global, latency: "≈ 400–600" },
  ];
}

/** The findings that measure each row, by key (the first present wins; a prefix matches too). */
const MEASURED_BY: Record<string, string[]> = {
  regs: ["latency.chase_register", "latency.register"],
  smem: ["latency.chase_shared", "latency.shared"],
  l1: ["level.L1", "latency.L1"],
  const: ["latency.constant", "latency.const"],
  l2: ["level.L2", "latency.L2"],
  global: ["level.HBM", "level.DRAM", "latency.global", "latency.HBM"],
};

function measuredFor(key: string, found: Finding[]): Finding | undefined {
  for (const k of MEASURED_BY[key] ?? []) {
    const f = found.find((x) => x.key === k) ?? found.find((x) => x.key.startsWith(k + "."));
    if (f) return f;
  }
  return undefined;
}

function findingText(f: Finding): string {
  return `${num(f.value, f.value < 10 ? 1 : 0)}${f.unit ? " " + f.unit : ""}`;
}

/** Fills the "measured" column and lists the run's other latency findings below the table. */
async function addMeasured(app: App, table: HTMLElement, below: HTMLElement): Promise<void> {
  const run = await newestRunWith(app);
  if (!run?.lessons) return;
  const found = [
    ...findingsByPrefix(run.lessons, "level."),
    ...findingsByPrefix(run.lessons, "latency."),
  ];
  if (!found.length) return;
  const used = new Set<string>();
  for (const row of table.querySelectorAll<HTMLElement>("tr[data-level]")) {
    const f = measuredFor(row.dataset.level!, found);
    const cell = row.querySelector<HTMLElement>("td.measured")!;
    if (f) {
      used.add(f.key);
      cell.textContent = findingText(f);
      cell.dataset.finding = f.key;
    }
  }
  table.querySelector("th.measured")!.textContent = t("hierarchy.col.measured", {
    device: String(run.context?.device?.name ?? "?"),
  });
  const rest = found.filter((f) => !used.has(f.key));
  below.append(
    h("p", { class: "source" }, t("hierarchy.measured_note", { date: run.context?.date ?? "?" })),
    rest.length
      ? h(
          "ul",
          { class: "findings", "data-testid": "other-findings" },
          rest.map((f) => h("li", { "data-finding": f.key }, `${f.label}: ${findingText(f)}`)),
        )
      : "",
  );
}

export function render(root: HTMLElement, app: App): void {
  const d = app.device;
  const measuredBelow = h("div", { "data-testid": "hierarchy-measured" });
  root.append(
    h("h1", {}, t("hierarchy.title")),
    h("p", { class: "lead" }, t("hierarchy.lead")),
    h(
      "p",
      { class: "source", "data-testid": "hierarchy-source" },
      d
        ? t(app.mode === "report" ? "hierarchy.from_run" : "hierarchy.from_device", {
            name: d.name,
            sms: d.sm_count ?? "?",
          })
        : t("hierarchy.generic_note"),
    ),
    h(
      "div",
      { class: "scale" },
      h("span", {}, t("hierarchy.faster")),
      h("span", {}, t("hierarchy.slower")),
    ),
    h(
      "table",
      { class: "levels", "data-testid": "levels", id: "levels" },
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          h("th", {}, t("hierarchy.col.memory")),
          h("th", {}, t("hierarchy.col.scope")),
          h("th", {}, t("hierarchy.col.size")),
          h("th", {}, t("hierarchy.col.latency")),
          h("th", { class: "measured" }, ""),
          h("th", {}, t("hierarchy.col.note")),
        ),
      ),
      h(
        "tbody",
        {},
        levels(app).map((l) =>
          h(
            "tr",
            { class: `level-${l.key}`, "data-level": l.key },
            h("th", { scope: "row" }, t(`hierarchy.${l.key}.name`)),
            h("td", {}, t(`hierarchy.${l.key}.scope`)),
            h("td", { "data-size": l.key }, l.size),
            h("td", { class: "num" }, l.latency),
            h("td", { class: "num measured" }, ""),
            h("td", {}, t(`hierarchy.${l.key}.note`)),
          ),
        ),
      ),
    ),
    measuredBelow,
    h("p", { class: "footnote" }, t("hierarchy.footnote")),
    h(
      "div",
      { class: "next" },
      h("a", { href: "#/coalescing", class: "button" }, t("nav.coalescing") + " →"),
    ),
  );
  const table = root.querySelector<HTMLElement>("#levels");
  if (table) void addMeasured(app, table, measuredBelow);
}
