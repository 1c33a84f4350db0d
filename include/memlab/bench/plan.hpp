// Run planning, shared by every front end (`memlab run`, the server's POST /api/runs, the
// exercise engine):
//
//   RunRequest (plain fields, filled from argv or JSON)
//     -> make_plan()   no device needed: experiments x variants x axis points, validated
//                      (UsageError naming the option as the user typed it), footprints and
//                      useful bytes computed once per point; each variant crossed only with
//                      the points its axes and only_if admit (no skip is planned)
//     -> describe() / render_plan() / render_plan_json()   the plan as data, text or JSON
//     -> execute()     on the GPU: device and memory checks, the memcpy ceiling, the context,
//                      verify then time every planned variant; progress events; cancellable
//     -> RunReport     (record.hpp; written by report/*)
//
// Host-only header: no CUDA, no CLI11, no JSON library.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "memlab/bench/params.hpp"
#include "memlab/bench/record.hpp"

namespace memlab::bench {

struct Experiment;
struct Variant;
struct Prediction;
struct PredictContext;

// What a front end asks for. Every field has the default of a plain `memlab run`.
struct RunRequest {
  std::vector<std::string> experiments;  // empty: the default suite
  std::vector<std::string> variants;     // "NAME" or "EXPERIMENT:NAME"; empty: all
  std::vector<std::pair<std::string, std::vector<std::string>>> axes;  // NAME -> values, as given
  bool quick = false;
  bool warm = false;                  // do not flush the L2 between samples
  bool verify_only = false;           // check every variant, time nothing
  bool counters = false;              // a counters pass per variant (CUPTI), never timed
  std::optional<std::uint64_t> seed;  // empty: drawn at random (and reported)
  int min_samples = 10;
  double noise = 0.005;
  std::optional<double> budget_s;  // empty: 0.3 s (0.05 s with quick)
  int device = 0;
};

// One variant at one point where it applies. The runner may still skip it (needs_device false,
// SkipPoint thrown): what only the device decides.
struct PlannedVariant {
  const Variant* variant = nullptr;
  double bytes = 0;  // useful bytes (the variant's, else the experiment's)
  double flops = 0;
};

struct PlannedPoint {
  Params params;
  std::optional<double> footprint;       // device bytes the point allocates (evaluated once)
  std::uint64_t seed = 0;                // point_seed(run seed, experiment, params)
  std::vector<PlannedVariant> variants;  // never empty in a plan of make_plan
};

struct ExperimentPlan {
  const Experiment* experiment = nullptr;
  std::vector<const Variant*> variants;  // the selected ones, in declaration order
  std::vector<PlannedPoint> points;
};

struct Plan {
  std::vector<ExperimentPlan> experiments;
  std::uint64_t seed = 0;  // resolved: the request's, or drawn at random
  bool quick = false;
  bool warm = false;
  bool verify_only = false;
  bool counters = false;
  int min_samples = 10;
  double noise = 0.005;
  double budget_s = 0.3;  // resolved
  int device = 0;

  std::size_t measurement_count() const;  // planned variant x point pairs
};

// Validates the request against the registry and expands it. Throws UsageError naming the
// option as typed (experiment, -v/--variants, -a/--axis, axis NAME, --min-samples, --noise,
// --budget), including duplicated experiments, variants, axes and axis values, and a variant
// named by -v that applies at none of the points (its axes and only_if leave none).
Plan make_plan(const RunRequest& request);

// One point of one experiment: its seed (point_seed of the run's), its footprint, and those of
// `variants` that apply there (Variant::applies_to), with their useful bytes and flops.
// make_plan plans every point with it; the exercise engine plans the learner's point with it.
PlannedPoint plan_point(const Experiment& experiment, const std::vector<const Variant*>& variants,
                        Params params, std::uint64_t run_seed);
// The variant's prediction at a point: predict_on_device with `ctx` when the variant has one, else
// predict; nullopt when it has neither. The runner, the exercise engine and the tests all ask
// through here, so a lesson can move to the device-aware hook without a caller noticing.
std::optional<Prediction> predict_variant(const Variant& variant, const Params& params,
                                          const PredictContext& ctx);
// A variant's useful bytes and flops at a point: the variant's own, else the experiment's, else 0.
double useful_bytes(const Experiment& experiment, const Variant& variant, const Params& params);
double useful_flops(const Experiment& experiment, const Variant& variant, const Params& params);

// The plan as data (for text, JSON, a web page): what will run where.
struct VariantAtPoint {
  std::string name;
  std::string needs;  // the device condition the runner checks (needs_device); empty: none
  double bytes = 0;
  double flops = 0;
  std::string model;  // the prediction's one-line model; "needs the GPU"; empty: none
};
struct PointDescription {
  std::vector<std::pair<std::string, std::string>> params;
  std::optional<double> footprint;
  std::vector<VariantAtPoint> variants;
};
struct ExperimentDescription {
  std::string name, summary, bytes_convention, baseline;
  std::vector<std::string> variants;
  std::vector<PointDescription> points;
};
struct PlanDescription {
  std::vector<ExperimentDescription> experiments;
  std::uint64_t seed = 0;
  bool quick = false, warm = false, verify_only = false;
  std::size_t measurements = 0;
};
PlanDescription describe(const Plan& plan);
// The text `memlab run` prints without a GPU (after its header line "plan (...):").
std::string render_plan(const PlanDescription& plan);
// {"seed", "quick", "warm", "verify_only", "measurements", "skipped", "experiments": [{"name",
//  "summary", "bytes_convention", "baseline", "variants", "points": [{"params", "footprint_bytes",
//  "variants": [{"name", "status": "planned", "needs"?, "bytes", "flops", "model"?}]}]}]}
std::string render_plan_json(const PlanDescription& plan);

// Device memory: the memcpy ceiling's buffer size (1 GiB, halved while two buffers and the L2
// flush buffer take more than half of the free memory; at least 64 MiB).
std::size_t memcpy_ceiling_bytes(double free_bytes, double flush_bytes);
// Throws UsageError naming the first point whose footprint plus the flush buffer does not fit
// in 95% of the free memory.
void check_device_memory(const Plan& plan, double free_bytes, double flush_bytes);

// The report's context: device, tool version, commit, date, seed, cold/quick, command line.
Context make_context(const Plan& plan, const DeviceInfo& device, const std::string& command_line);
// Live clocks (NVML) of context.device: SM and memory clocks and the PCIe link at the start;
// the clocks at the end. Leave the fields 0 where NVML is missing.
void read_clocks_start(Context& context);
void read_clocks_end(Context& context);

// Progress of execute(), as data: the server forwards it, the CLI prints one line.
struct ProgressEvent {
  enum class Stage { Ceiling, Setup, Measure };
  Stage stage = Stage::Measure;
  std::string experiment;
  std::string variant;    // Measure only
  std::string point;      // format_point of the params (Setup and Measure)
  std::size_t index = 0;  // Measure: 1-based number of this measurement ...
  std::size_t total = 0;  // ... of Plan::measurement_count()
};
using ProgressFn = std::function<void(const ProgressEvent&)>;
// "bandwidth elem_f1 n=1024 op=copy (3/12)", "bandwidth n=1024: setting up", ...
std::string format_progress(const ProgressEvent& event);

struct ExecuteOptions {
  std::string command_line;  // recorded in the context
  // Called once the device is known and the context filled, before the first measurement.
  std::function<void(const Context&)> on_start;
  // Plan::counters and counters cannot be collected: called once with the one-line reason
  // (the run carries on without counters; the context says "unavailable: ...").
  std::function<void(const std::string&)> on_counters_unavailable;
};

// Runs the plan on plan.device: checks the ordinal (UsageError --device) and the memory, measures
// the memcpy ceiling (unless verify_only), then verifies and times every planned variant and
// records the variants the device cannot run (needs_device, SkipPoint) as skipped. `cancel` (may be
// null) is checked between measurements; when it is set, the report holds the records so far and
// `cancelled` is true. Throws CudaError.
RunReport execute(const Plan& plan, const ExecuteOptions& options, const ProgressFn& progress = {},
                  const std::atomic<bool>* cancel = nullptr);

}  // namespace memlab::bench
