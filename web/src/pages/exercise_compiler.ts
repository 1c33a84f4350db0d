// What the compiler made of the learner's kernel (issue 21 #7): ptxas's resources in one line and
// the PTX listing interleaved with the learner's source lines (from NVRTC's -lineinfo records).
import { h } from "../dom";
import { num, t } from "../i18n";

export interface PtxGroup {
  line: number; // the learner's line; 0: no line of theirs (declarations, generated code)
  source?: string;
  ptx: string[];
}

export interface CompilerJson {
  registers?: number;
  spill_stores?: number;
  spill_loads?: number;
  stack_bytes?: number;
  shared_bytes?: number;
  barriers?: number;
  local_bytes?: number;
  ptx_lines?: PtxGroup[];
  ptx_total?: number;
  ptx_shown?: number;
  ptx_truncated?: boolean;
  functions?: string[];
}

function bytes(b: number): string {
  return b >= 1024 ? `${num(b / 1024, 1)} KiB` : `${b} B`;
}

/** "32 registers, 0 B spilled, 4.1 KiB shared, 1 barrier" in the page's language. */
export function resourcesText(c: CompilerJson): string {
  if (c.registers === undefined || c.registers < 0) return t("compiler.no_resources");
  const spilled = Math.max(0, c.spill_stores ?? 0) + Math.max(0, c.spill_loads ?? 0);
  const parts = [
    t("compiler.registers", { n: c.registers }),
    t("compiler.spilled", { bytes: bytes(spilled) }),
    t("compiler.shared", { bytes: bytes(Math.max(0, c.shared_bytes ?? 0)) }),
  ];
  if ((c.local_bytes ?? 0) > 0) parts.push(t("compiler.local", { bytes: bytes(c.local_bytes!) }));
  if ((c.barriers ?? 0) > 0) parts.push(t("compiler.barriers", { n: c.barriers! }));
  return parts.join(", ");
}

export interface ListingRow {
  kind: "source" | "ptx";
  line: number;
  text: string;
}

/** The listing: each run of PTX under the learner's line it came from. */
export function listingRows(c: CompilerJson): ListingRow[] {
  const rows: ListingRow[] = [];
  for (const g of c.ptx_lines ?? []) {
    rows.push({
      kind: "source",
      line: g.line,
      text: g.line > 0 ? (g.source ?? "") : t("compiler.no_line"),
    });
    for (const p of g.ptx) rows.push({ kind: "ptx", line: g.line, text: p });
  }
  return rows;
}

export function compilerSection(c: CompilerJson | undefined): HTMLElement | null {
  if (!c) return null;
  const rows = listingRows(c);
  const pre = h(
    "pre",
    { class: "code ptx-listing", "data-testid": "ptx-listing" },
    rows.map((r) =>
      r.kind === "source"
        ? h(
            "span",
            { class: "src-line", "data-line": r.line },
            r.line > 0 ? `${String(r.line).padStart(4)} | ${r.text}\n` : `     | ${r.text}\n`,
          )
        : h("span", { class: "ptx-line" }, `       ${r.text}\n`),
    ),
  );
  return h(
    "details",
    { class: "compiler", "data-testid": "compiler" },
    h(
      "summary",
      {},
      `${t("compiler.title")}: `,
      h("span", { "data-testid": "compiler-resources" }, resourcesText(c)),
    ),
    c.ptx_truncated
      ? h(
          "p",
          { class: "muted", "data-testid": "ptx-truncated" },
          t("compiler.truncated", { shown: c.ptx_shown ?? 0, total: c.ptx_total ?? 0 }),
        )
      : null,
    h("p", { class: "muted" }, t("compiler.lead")),
    pre,
  );
}
