// The diagnosis under the exercise check's verdict: what compute-sanitizer found, said in the
// learner's lines (src/diagnosis.ts builds the text); each line it names is a button that selects
// that line in the editor. The tools' raw output stays one click away.
import { h } from "../dom";
import { t } from "../i18n";
import { diagnosisItems, type Diagnosis } from "../diagnosis";

export function diagnosisView(
  d: Diagnosis | undefined,
  onLine: (line: number) => void,
): HTMLElement | null {
  if (!d) return null;
  const { summary, items } = diagnosisItems(d);
  const box = h(
    "section",
    { class: "diagnosis", "data-testid": "diagnosis" },
    h("h3", {}, t("diagnosis.title")),
    h("p", { class: "muted", "data-testid": "diagnosis-summary" }, summary),
  );
  if (items.length)
    box.append(
      h(
        "ul",
        { class: "findings" },
        items.map((it) =>
          h(
            "li",
            { "data-testid": "finding" },
            h("span", {}, it.text),
            " ",
            ...it.lines.map((n) =>
              h(
                "button",
                {
                  type: "button",
                  class: "line-link",
                  "data-line": String(n),
                  onclick: () => onLine(n),
                },
                t("diagnosis.show_line", { n }),
              ),
            ),
            it.code.length ? h("pre", { class: "code" }, it.code.join("\n")) : null,
          ),
        ),
      ),
    );
  for (const r of d.tool_runs ?? []) {
    if (!r.output) continue;
    box.append(
      h(
        "details",
        { class: "raw" },
        h("summary", {}, t("diagnosis.raw_output", { tool: r.tool ?? "", point: r.point ?? "" })),
        h("pre", { class: "code log" }, r.output),
      ),
    );
  }
  return box;
}
