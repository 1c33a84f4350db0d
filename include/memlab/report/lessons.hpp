// The lessons block of a run's JSON (docs/lessons-json.md): each experiment's declaration from
// today's catalogue (summary, variants with their axes, plots) and its findings computed from the
// run's records. Host-only, but needs the registry: built into memlab_cuda, not memlab_core.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/record.hpp"

namespace memlab::report {

// {"id", "kind", "title", "x", "y", "series", ...}: exactly docs/lessons-json.md "Plot"; optional
// members only where set.
nlohmann::json plot_json(const bench::Plot& plot);
// {"name", "description", "axes"?, "only"?, "needs"?, "opt_in"?, "expected_failure"?}; "axes":
// {"stride": ["1"], "ws": {"min": 64, "max": 32768}} (absent: every value of every axis).
nlohmann::json variant_json(const bench::Variant& variant);
// {"summary", "baseline", "vendor", "bytes_convention", "variants", "plots"}: what /api/list and
// the run's lessons block both carry.
nlohmann::json lesson_declaration(const bench::Experiment& experiment);
// The experiment's findings hook over `records` (this lesson's records of one run) and the run's
// context: an array of {"key", "label", "value", "unit", "x_from"?, "x_to"?}; [] without a hook.
// Throws what the hook throws.
nlohmann::json lesson_findings(const bench::Experiment& experiment, const nlohmann::json& records,
                               const nlohmann::json& context);
// The "lessons" object for ANY run JSON (schema 1 or 2): for every experiment its records name
// that is registered today, in the order of first appearance, the declaration plus "findings".
// A findings hook that throws leaves "findings": [] and "findings_error": its message.
nlohmann::json lessons_json(const nlohmann::json& run);
// Adds run["lessons"] = lessons_json(run) when the run has none; a run's own block stays.
void with_lessons(nlohmann::json& run);
// render_json's text with the lessons block: what `memlab run --json` and POST /api/runs write.
std::string render_run_json(const bench::RunReport& report);

}  // namespace memlab::report
