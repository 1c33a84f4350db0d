// Self-registering experiments. An experiment is one lesson; a variant is one implementation.
// Each experiment declares its axes, its useful bytes (and flops), how to set up one axis point
// (allocate, draw random inputs, compute the CPU reference), how to poison the outputs, how to
// check them, and its variants. The runner does the rest: verify, then time, then report.
//
//   static const bool registered = memlab::bench::register_experiment(
//       memlab::bench::ExperimentBuilder<State>("bandwidth", "Streaming kernels against memcpy")
//           .axis(...).bytes(...).setup(...).poison(...).check(...)
//           .variant("copy_f4", "16-byte loads and stores", launch_copy_f4)
//           .baseline("copy_f1")
//           .build());
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "memlab/bench/lesson.hpp"
#include "memlab/bench/params.hpp"
#include "memlab/bench/verify.hpp"
#include "memlab/cuda/device_info.hpp"

namespace memlab::bench {

// What a model says about one variant at one point. Either a traffic/work estimate (the runner
// turns it into a time with the measured memcpy ceiling and the FP32 peak: a roofline), a time
// the model computed itself (e.g. a stream timeline's makespan), or a slowdown relative to the
// experiment's baseline variant at the same point.
struct Prediction {
  std::string model;      // one line: which model and its key figure
  double dram_bytes = 0;  // bytes the model says cross DRAM
  double flops = 0;
  double slowdown = 0;  // predicted time / baseline time; 0 = not given
  double time_ms = 0;   // a time given directly; used as is when > 0 (wins over bytes/flops)
  // What `--counters` can check beyond dram_bytes (0: not predicted): 32-byte sectors per warp
  // request of global loads (coalescing model), wavefronts per shared-memory access (bank model).
  double sectors_per_request = 0;
  double wavefronts_per_request = 0;
  // Optional, with time_ms: the resource that limits (e.g. "latency") and each bound's time.
  std::string bound;
  std::vector<std::pair<std::string, double>> bounds_ms;
};

// What a prediction may use of the device and of the run; the runner fills it.
struct PredictContext {
  double memcpy_gbps = 0;  // 0: not measured
  int sm_count = 0;
  double sm_clock_mhz = 0;  // maximum (boost) SM clock
  int max_threads_per_sm = 0;
};

// The time a prediction stands for, in milliseconds: time_ms when given, else the roofline time
// of dram_bytes at `memcpy_gbps` (0: not measured) and flops at `peak_flops`; 0 when neither.
// A slowdown is resolved by the runner against the baseline, not here.
inline double predicted_time_ms(const Prediction& p, double memcpy_gbps, double peak_flops) {
  if (p.time_ms > 0) return p.time_ms;
  if (!(p.dram_bytes > 0 || p.flops > 0)) return 0.0;
  const double mem_s = memcpy_gbps > 0 ? p.dram_bytes / (memcpy_gbps * 1e9) : 0.0;
  const double flop_s = peak_flops > 0 ? p.flops / peak_flops : 0.0;
  return 1e3 * (mem_s > flop_s ? mem_s : flop_s);
}

// What a variant may add to its record after it was timed: named figures (overlap ratio, achieved
// link bandwidth, ...), a text block printed under the table (an ASCII timeline) and raw JSON
// (per-operation intervals) stored under the record's "extra" key.
struct Extras {
  std::vector<std::pair<std::string, double>> figures;
  std::string text;
  std::string json;  // must be a valid JSON value when not empty
};

// One value a kernel may take as an argument, as the lesson exposes it for learners' kernels (the
// exercise engine, src/exercise/): a name ("in", "n"), a C++ type ("const float*", "int") and the
// value's bytes; for a device buffer also its size in bytes (to zero it or copy it into a
// __constant__ symbol). The lesson only lists what it already holds; it knows nothing of exercises.
struct KernelArg {
  std::string name;
  std::string type;
  std::vector<unsigned char> value;
  std::size_t buffer_bytes = 0;  // > 0 for device pointers
};

template <class T>
KernelArg kernel_arg(std::string name, std::string type, const T& value,
                     std::size_t buffer_bytes = 0) {
  static_assert(std::is_trivially_copyable_v<T>);
  KernelArg a{std::move(name), std::move(type), std::vector<unsigned char>(sizeof(T)),
              buffer_bytes};
  std::memcpy(a.value.data(), &value, sizeof(T));
  return a;
}

// Type-erased state of one axis point (buffers, reference result).
struct Instance {
  virtual ~Instance() = default;
};

using ParamFn = std::function<double(const Params&)>;

struct Variant {
  std::string name;
  std::string description;
  std::function<void(Instance&, const Params&, cudaStream_t)> run;
  // Optional: what must be true before every run of `run` but is no part of what it measures
  // (e.g. the CPU writing the input again, so that each sample starts from host memory). Called
  // outside the timed region before the verification run, each warm-up run and each sample
  // (before the L2 flush and the start event), after the stream's earlier work has finished.
  // A variant with it gets no batch figure (back-to-back launches would skip it).
  std::function<void(Instance&, const Params&, cudaStream_t)> prepare;
  ParamFn bytes;  // overrides the experiment's bytes when set
  ParamFn flops;
  std::function<std::optional<Prediction>(const Params&)> predict;
  // Wins over `predict` when set: a prediction that needs the device (SMs, clock, ceilings).
  std::function<std::optional<Prediction>(const Params&, const PredictContext&)> predict_on_device;
  // Where the variant applies, decided without a device: the plan crosses it only with the points
  // its axes admit and its only_if holds at (others are not in the plan at all, never skipped).
  std::vector<VariantAxis> axes;               // empty: every value of every axis
  std::function<bool(const Params&)> applies;  // only_if; empty: wherever `axes` admit
  std::string only;  // says where it applies and why, e.g. "runs once, at access=read stride=1"
  // What only the device decides (compute capability, GPU count): checked by the runner at run
  // time; false: the record is skipped with `needs_reason`. Empty: runs wherever it is planned.
  std::function<bool(const Params&)> needs;
  std::string needs_reason;  // e.g. "needs compute capability 9.0"
  std::function<void(Instance&, const Params&, Extras&)> inspect;  // after timing; may be empty
  // Non-empty: the variant is broken on purpose (e.g. a tiled kernel without its barrier) and
  // this says what its failed check teaches. Its failure is recorded, not counted: the run does
  // not exit 1 for it, and it is never timed.
  std::string expected_failure;
  // Non-empty: the variant is opt-in. A plan takes it only when -v/--variants names it (never in
  // a default run, nor in `memlab run LESSON`); this says why, e.g. "not yet verified on hardware"
  // for a kernel that compiles but has not passed its checks on a GPU. `memlab list` shows it.
  std::string opt_in;
  // In the plan at `p`: its axes admit p's values and its only_if holds (no device asked).
  bool applies_to(const Params& p) const {
    for (const VariantAxis& a : axes) {
      if (!p.has(a.axis)) continue;
      if (!a.values.empty()) {
        bool found = false;
        for (const std::string& v : a.values) found = found || v == p.s(a.axis);
        if (!found) return false;
      }
      if (a.min && p.n(a.axis) < *a.min) return false;
      if (a.max && p.n(a.axis) > *a.max) return false;
    }
    return !applies || applies(p);
  }
  // Runs at `p` on this machine: applies there, and the device has what it needs.
  bool runs_here(const Params& p) const { return applies_to(p) && (!needs || needs(p)); }
};

// Thrown by a lesson's setup, run or check when only the device can decide that a point cannot
// run here (too few GPUs, a feature the device lacks): the runner records every variant of the
// point as skipped with what() as the reason ("needs two or more GPUs"), never as a failure.
struct SkipPoint : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The reason of a skip when the lesson's needs_device gives none.
inline constexpr const char* kDefaultSkipReason = "does not apply at this point";

struct Experiment {
  std::string name;
  std::string summary;
  std::string bytes_convention;  // says what "useful bytes" counts for this lesson
  std::vector<AxisSpec> axes;
  std::vector<std::vector<std::pair<std::string, std::string>>> test_points;  // small, odd sizes
  std::vector<Variant> variants;
  std::string baseline;
  std::vector<std::string> vendor;  // variants that are a vendor's line (cuBLAS, cudaMemcpy)
  bool in_default_suite = true;
  // The lesson's folder under src/experiments/ and its page docs/<home>.md, where it is registered
  // in another lesson's folder (misalignment in coalescing/); empty: its own name.
  std::string home;
  const std::string& home_or_name() const { return home.empty() ? name : home; }
  bool flush_l2 = true;  // false for experiments that never touch DRAM in the timed region
  ParamFn bytes;
  ParamFn flops;
  ParamFn footprint;                            // device bytes one point allocates
  std::function<void(const Params&)> validate;  // throws UsageError
  std::function<std::unique_ptr<Instance>(const Params&, std::uint64_t seed)> setup;
  std::function<void(Instance&, const Params&, cudaStream_t)> poison;
  std::function<Check(Instance&, const Params&, const std::string& variant)> check;
  // Optional: the point's buffers and sizes as kernel arguments (see KernelArg); empty when the
  // lesson offers none. Used only by front ends (the exercise engine), never by the runner.
  std::function<std::vector<KernelArg>(Instance&, const Params&)> kernel_args;
  // How its result is drawn (every lesson declares at least one) and what it concludes from its
  // records (optional; host-only, called by report::lessons_json). docs/lessons-json.md.
  std::vector<Plot> plots;
  FindingsFn findings;

  const Variant* find_variant(const std::string& variant) const;
};

// Registry (static, filled at start-up by the lessons' registrations).
bool register_experiment(Experiment experiment);
const std::vector<Experiment>& experiments();
const Experiment* find_experiment(const std::string& name);

// Typed builder: State is the lesson's own struct (move-only buffers are fine).
template <class State>
class ExperimentBuilder {
 public:
  struct Holder : Instance {
    explicit Holder(State s) : state(std::move(s)) {}
    State state;
  };
  static State& get(Instance& i) { return static_cast<Holder&>(i).state; }

  ExperimentBuilder(std::string name, std::string summary) {
    e_.name = std::move(name);
    e_.summary = std::move(summary);
  }
  ExperimentBuilder& bytes_convention(std::string text) {
    e_.bytes_convention = std::move(text);
    return *this;
  }
  ExperimentBuilder& int_axis(std::string name, std::vector<std::string> defaults,
                              std::vector<std::string> quick, std::int64_t min, std::int64_t max,
                              std::string help) {
    AxisSpec a;
    a.name = std::move(name);
    a.kind = AxisSpec::Kind::Int;
    a.defaults = std::move(defaults);
    a.quick = std::move(quick);
    a.min = min;
    a.max = max;
    a.help = std::move(help);
    e_.axes.push_back(std::move(a));
    return *this;
  }
  ExperimentBuilder& choice_axis(std::string name, std::vector<std::string> choices,
                                 std::vector<std::string> defaults, std::vector<std::string> quick,
                                 std::string help) {
    AxisSpec a;
    a.name = std::move(name);
    a.kind = AxisSpec::Kind::Choice;
    a.choices = std::move(choices);
    a.defaults = std::move(defaults);
    a.quick = std::move(quick);
    a.help = std::move(help);
    e_.axes.push_back(std::move(a));
    return *this;
  }
  ExperimentBuilder& test_point(std::vector<std::pair<std::string, std::string>> point) {
    e_.test_points.push_back(std::move(point));
    return *this;
  }
  ExperimentBuilder& bytes(ParamFn fn) {
    e_.bytes = std::move(fn);
    return *this;
  }
  ExperimentBuilder& flops(ParamFn fn) {
    e_.flops = std::move(fn);
    return *this;
  }
  ExperimentBuilder& footprint(ParamFn fn) {
    e_.footprint = std::move(fn);
    return *this;
  }
  ExperimentBuilder& validate(std::function<void(const Params&)> fn) {
    e_.validate = std::move(fn);
    return *this;
  }
  ExperimentBuilder& flush_l2(bool on) {
    e_.flush_l2 = on;
    return *this;
  }
  // The lesson lives in another lesson's folder and page (see Experiment::home).
  ExperimentBuilder& home(std::string folder) {
    e_.home = std::move(folder);
    return *this;
  }
  ExperimentBuilder& default_suite(bool on) {
    e_.in_default_suite = on;
    return *this;
  }
  ExperimentBuilder& setup(std::function<State(const Params&, std::uint64_t)> fn) {
    e_.setup = [fn = std::move(fn)](const Params& p, std::uint64_t seed) {
      return std::unique_ptr<Instance>(std::make_unique<Holder>(fn(p, seed)));
    };
    return *this;
  }
  ExperimentBuilder& poison(std::function<void(State&, const Params&, cudaStream_t)> fn) {
    e_.poison = [fn = std::move(fn)](Instance& i, const Params& p, cudaStream_t s) {
      fn(get(i), p, s);
    };
    return *this;
  }
  ExperimentBuilder& check(std::function<Check(State&, const Params&, const std::string&)> fn) {
    e_.check = [fn = std::move(fn)](Instance& i, const Params& p, const std::string& v) {
      return fn(get(i), p, v);
    };
    return *this;
  }
  ExperimentBuilder& kernel_args(std::function<std::vector<KernelArg>(State&, const Params&)> fn) {
    e_.kernel_args = [fn = std::move(fn)](Instance& i, const Params& p) { return fn(get(i), p); };
    return *this;
  }
  ExperimentBuilder& variant(std::string name, std::string description,
                             std::function<void(State&, const Params&, cudaStream_t)> fn) {
    Variant v;
    v.name = std::move(name);
    v.description = std::move(description);
    v.run = [fn = std::move(fn)](Instance& i, const Params& p, cudaStream_t s) {
      fn(get(i), p, s);
    };
    e_.variants.push_back(std::move(v));
    return *this;
  }
  // Per-variant refinements apply to the variant declared last.
  ExperimentBuilder& variant_bytes(ParamFn fn) {
    e_.variants.back().bytes = std::move(fn);
    return *this;
  }
  ExperimentBuilder& variant_flops(ParamFn fn) {
    e_.variants.back().flops = std::move(fn);
    return *this;
  }
  // The variant declared last prepares every sample outside the timed region (Variant::prepare).
  ExperimentBuilder& prepare(std::function<void(State&, const Params&, cudaStream_t)> fn) {
    e_.variants.back().prepare = [fn = std::move(fn)](Instance& i, const Params& p,
                                                      cudaStream_t s) { fn(get(i), p, s); };
    return *this;
  }
  // The variant declared last adds figures/text/JSON to its record after it was timed.
  ExperimentBuilder& inspect(std::function<void(State&, const Params&, Extras&)> fn) {
    e_.variants.back().inspect = [fn = std::move(fn)](Instance& i, const Params& p, Extras& x) {
      fn(get(i), p, x);
    };
    return *this;
  }
  ExperimentBuilder& predict(std::function<std::optional<Prediction>(const Params&)> fn) {
    e_.variants.back().predict = std::move(fn);
    return *this;
  }
  ExperimentBuilder& predict_on_device(
      std::function<std::optional<Prediction>(const Params&, const PredictContext&)> fn) {
    e_.variants.back().predict_on_device = std::move(fn);
    return *this;
  }
  // The variant declared last applies only at these values of axis `axis` (any spelling the
  // axis accepts: "2^20" = "1048576"); at other values it is not in the plan. `why` (optional)
  // is what `memlab list` and the JSON say, e.g. "a fixed read pattern: runs once".
  ExperimentBuilder& variant_axis(std::string axis, std::vector<std::string> values,
                                  std::string why = "") {
    e_.variants.back().axes.push_back({std::move(axis), std::move(values), {}, {}});
    return add_only(std::move(why));
  }
  // ... only at values of integer axis `axis` in [min, max] (std::nullopt: open on that side).
  ExperimentBuilder& variant_range(std::string axis, std::optional<std::int64_t> min,
                                   std::optional<std::int64_t> max, std::string why = "") {
    e_.variants.back().axes.push_back({std::move(axis), {}, min, max});
    return add_only(std::move(why));
  }
  // ... only at points where `fn` is true, for a condition no axis list says (n % 4 == 0): the
  // plan leaves the other points out. `why` says where it applies. Never ask the device here.
  ExperimentBuilder& only_if(std::function<bool(const Params&)> fn, std::string why) {
    e_.variants.back().applies = std::move(fn);
    return add_only(std::move(why));
  }
  // The variant declared last needs what only the device can tell (a compute capability, two
  // GPUs): the runner asks `fn` at run time and records the variant as skipped with `reason`
  // where it is false. A whole point that cannot run: throw SkipPoint from setup/run/check.
  ExperimentBuilder& needs_device(std::function<bool(const Params&)> fn, std::string reason) {
    e_.variants.back().needs = std::move(fn);
    e_.variants.back().needs_reason = std::move(reason);
    return *this;
  }
  // The variant declared last is broken on purpose; `lesson` says what its failed check shows.
  ExperimentBuilder& expected_failure(std::string lesson) {
    e_.variants.back().expected_failure = std::move(lesson);
    return *this;
  }
  // The variant declared last is opt-in (see Variant::opt_in); `reason` says why.
  ExperimentBuilder& opt_in(std::string reason) {
    e_.variants.back().opt_in = std::move(reason);
    return *this;
  }
  ExperimentBuilder& baseline(std::string name) {
    e_.baseline = std::move(name);
    return *this;
  }
  // A variant that is a vendor's line (cuBLAS, cudaMemcpy): plots draw it as a reference.
  ExperimentBuilder& vendor(std::string name) {
    e_.vendor.push_back(std::move(name));
    return *this;
  }
  // A plot of the lesson's records (see Plot, docs/lessons-json.md); declare at least one.
  ExperimentBuilder& plot(Plot p) {
    e_.plots.push_back(std::move(p));
    return *this;
  }
  // The lesson's findings hook (see FindingsFn).
  ExperimentBuilder& findings(FindingsFn fn) {
    e_.findings = std::move(fn);
    return *this;
  }
  // Checks the variants' axis declarations against the axes (a wrong name or value is a bug in
  // the lesson: std::logic_error at start-up) and stores their values in canonical spelling.
  Experiment build() {
    for (Variant& v : e_.variants) {
      for (VariantAxis& a : v.axes) {
        const AxisSpec* spec = nullptr;
        for (const AxisSpec& s : e_.axes) spec = s.name == a.axis ? &s : spec;
        if (spec == nullptr) {
          throw std::logic_error(e_.name + " " + v.name + ": no axis " + a.axis);
        }
        for (std::string& value : a.values) value = spec->validate(value);
      }
    }
    return std::move(e_);
  }

 private:
  ExperimentBuilder& add_only(std::string why) {
    std::string& only = e_.variants.back().only;
    if (!why.empty()) only += (only.empty() ? "" : "; ") + why;
    return *this;
  }
  Experiment e_;
};

}  // namespace memlab::bench
