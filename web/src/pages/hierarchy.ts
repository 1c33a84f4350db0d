// #/ : the memory hierarchy as a table (seed 001), filled with this GPU's sizes when known.
import type { App } from "../app";
import { h } from "../dom";
import { bytes } from "../format";
import { t } from "../i18n";

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

export function render(root: HTMLElement, app: App): void {
  const d = app.device;
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
      { class: "hierarchy", "data-testid": "hierarchy" },
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
          h("th", {}, t("hierarchy.col.note")),
        ),
      ),
      h(
        "tbody",
        {},
        levels(app).map((l) =>
          h(
            "tr",
            { class: `level-${l.key}` },
            h("th", { scope: "row" }, t(`hierarchy.${l.key}.name`)),
            h("td", {}, t(`hierarchy.${l.key}.scope`)),
            h("td", { "data-size": l.key }, l.size),
            h("td", { class: "num" }, l.latency),
            h("td", {}, t(`hierarchy.${l.key}.note`)),
          ),
        ),
      ),
    ),
    h("p", { class: "footnote" }, t("hierarchy.footnote")),
    h(
      "div",
      { class: "next" },
      h("a", { href: "#/coalescing", class: "button" }, t("nav.coalescing") + " →"),
    ),
  );
}
