// A lesson's headline and a run's one-screen summary (host-only), both computed from a run's JSON
// (`memlab run --json`, schema 1 or 2) so that the CLI, `memlab summary`, the report and the web
// lab say the same thing. Contract: docs/lessons-json.md ("Headline").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::report {

// The variants that are a vendor's line rather than memlab's own kernel (matched without case):
// cublas, cub, cudaMemcpy, memcpy, cufft, thrust. A lesson that declares its own (`lessons.<name>
// .vendor` of a schema-2 run) is read from there instead.
const std::vector<std::string>& default_vendor_variants();

// A record's status as written (schema 2: "status"); a schema-1 record without it is read from its
// booleans: "timed" | "verified" | "failed" | "skipped" | "expected_failure".
std::string record_status(const nlohmann::json& record);

// The Headline of one experiment of the run (docs/lessons-json.md):
// {"figure", "unit", "better": "higher"|"lower", "at": "k=v ...", "point": {params},
//  "best": {"variant", "value"}, "baseline": {...}|null, "speedup": x|null,
//  "vendor": {...}|null, "pct_vendor": p|null,
//  "model": {"within_15pct", "of", "worst_ratio" (only when of > 0)},
//  "counts": {"timed", "verified", "failed", "skipped", "expected_failure"}}.
// The headline point is the point where the most variants were timed (ties: the largest working
// set, then the most useful bytes, then the first in the run). The figure: a cycles-per-X figure
// when most records there carry one (lower is better), else gflops when every record there
// counts flops, else gbps when every one moves bytes, else median_ms (lower is better). Best is
// the best non-vendor variant; speed-up and pct_vendor are oriented so that > 1 (> 100) is better.
// `baseline` "" takes the records' own; `vendors` empty takes default_vendor_variants(). With
// nothing timed, figure/best/... are null and only model and counts are filled.
nlohmann::json lesson_headline(const nlohmann::json& run, const std::string& experiment,
                               const std::string& baseline = "",
                               const std::vector<std::string>& vendors = {});

// The run summary: {"device", "ordinal", "date", "commit", "version", "seed", "quick",
// "command_line", "clocks": {sm_start, sm_end, mem_start, mem_end}, "memcpy_gbps",
// "peak_bandwidth_gbps", "records": {"total", and the counts per status},
// "lessons": [{"experiment", "varying": "axes that vary in the lesson's records, at the headline
// point", "headline": {...}}] in run order (a schema-2 run's own lessons.<name>.headline where it
// has one), "skips": [{"experiment", "reason", "count"}] most first, "failures": [{"experiment",
// "variant", "at", "detail"}], "claims": claims::evaluate_json(run)["counts"] (null if the
// records cannot be judged), "outputs": []}. The caller may append {"what", "path"} to outputs.
nlohmann::json run_summary(const nlohmann::json& run, const std::vector<std::string>& vendors = {});

struct SummaryTextOptions {
  std::size_t max_skip_reasons = 4;  // more: one line "... N more reasons" (0: all of them)
  std::size_t max_failures = 8;      // more: one line "... N more failures"
  std::string run_path;              // named in the "more reasons" hint (memlab summary PATH)
};

// About 40 lines for the default suite: the run, one line per lesson, the skips per reason, the
// failures, the claims' verdict counts and the files written.
std::string render_summary(const nlohmann::json& summary, const SummaryTextOptions& options = {});

}  // namespace memlab::report
