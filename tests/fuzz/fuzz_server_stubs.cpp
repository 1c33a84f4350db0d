// What the server fuzzer (fuzz_server.cpp) replaces so that no input reaches a GPU or starts a
// process: no CUDA device, a run never executes, the exercise worker and the class claims' child
// are never started (run_process is stubbed; one
// exercise, "demo", whose check answers "no CUDA device" like a machine without a GPU), and a
// small embedded bundle. One host-only experiment, "fuzzlab", gives the plan API something to
// validate axes, variants and values against.
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "embedded.hpp"
#include "exercise/process.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab {

int device_count_or_zero(std::string* why) {
  if (why != nullptr) *why = "fuzz build: no GPU";
  return 0;
}

DeviceInfo query_device(int) {
  throw std::runtime_error("fuzz build: no GPU");
}

std::optional<LiveClocks> read_live_clocks(const DeviceInfo&) {
  return std::nullopt;
}

namespace bench {
// runner.cpp (not built here) mixes the run's seed with the point; any value serves the plan.
std::uint64_t point_seed(std::uint64_t seed, const std::string&, const Params&) {
  return seed;
}

RunReport execute(const Plan&, const ExecuteOptions&, const ProgressFn&, const std::atomic<bool>*) {
  throw std::runtime_error("fuzz build: runs never execute");
}
}  // namespace bench

namespace exercise {

const Exercise& get(const std::string& name) {
  static const Exercise demo = [] {
    Exercise e;
    e.name = "demo";
    e.spec = {{"lesson", "fuzzlab"}, {"kernel", {{"name", "demo"}}}};
    return e;
  }();
  if (name != demo.name) {
    throw UsageError("exercise: '" + name.substr(0, 40) + "' is unknown; accepted: demo");
  }
  return demo;
}

nlohmann::json list_json() {
  return {{"exercises", {{{"name", "demo"}}}}};
}

nlohmann::json exercise_json(const Exercise& e, bool) {
  return {{"name", e.name}};
}

const std::vector<Exercise>& catalogue() {
  static const std::vector<Exercise> all = {get("demo")};
  return all;
}

// The class lab's CPU pre-check: sources with "error" in them do not compile.
nlohmann::json compile_json(const Exercise&, const std::string& source, const std::string&) {
  if (source.size() > kMaxSourceBytes) throw UsageError("source: too large");
  const bool ok = source.find("error") == std::string::npos;
  return {{"ok", ok}, {"log", ok ? "" : "error"}, {"diagnostics", nlohmann::json::array()}};
}

// The class claims' child process and the worker's limits: nothing starts.
ProcessResult run_process(const std::vector<std::string>&, const std::string&, double, std::size_t,
                          const ProcessLimits&, const std::atomic<bool>*) {
  ProcessResult r;
  r.started = r.exited = true;
  r.exit_status = 3;
  r.output = "fuzz build: no process";
  return r;
}

nlohmann::json limits_json(const ProcessLimits&, double, std::size_t) {
  return nlohmann::json::object();
}

CheckResult check(const std::string& name, const std::string& source, const CheckOptions&) {
  get(name);
  if (source.size() > kMaxSourceBytes) throw UsageError("source: too large");
  if (source.find("error") != std::string::npos)
    return {2, {{"status", "compile_error"}, {"message", "kernel.cu(1): error"}}};
  return {3, {{"status", "no_device"}, {"message", "no CUDA device (fuzz build)"}}};
}

}  // namespace exercise

namespace server::embedded {
namespace {
constexpr unsigned char kIndex[] = "<!doctype html><title>memlab</title>";
constexpr unsigned char kDoc[] = "# fuzzlab\n";
constexpr unsigned char kKernels[] = "// kernels\n";
}  // namespace
const File kFiles[] = {{"web/index.html", kIndex, sizeof kIndex - 1},
                       {"docs/fuzzlab.md", kDoc, sizeof kDoc - 1},
                       {"lessons/fuzzlab/kernels.cuh", kKernels, sizeof kKernels - 1},
                       {nullptr, nullptr, 0}};
const std::size_t kFileCount = 3;
}  // namespace server::embedded

namespace {

struct State {};

bench::Experiment make_fuzzlab() {
  bench::ExperimentBuilder<State> b("fuzzlab", "a host-only experiment for the server fuzzer");
  b.bytes_convention("n*4")
      .int_axis("n", {"2^20"}, {"2^10"}, 1, std::int64_t{1} << 32, "elements")
      .choice_axis("op", {"read", "write"}, {"read", "write"}, {"read"}, "what the kernel does")
      .bytes([](const bench::Params& p) { return 4.0 * static_cast<double>(p.n("n")); })
      .footprint([](const bench::Params& p) { return 8.0 * static_cast<double>(p.n("n")); })
      .setup([](const bench::Params&, std::uint64_t) { return State{}; })
      .poison([](State&, const bench::Params&, cudaStream_t) {})
      .check([](State&, const bench::Params&, const std::string&) { return bench::Check{}; });
  b.variant("plain", "one thread per element", [](State&, const bench::Params&, cudaStream_t) {});
  b.variant("only_read", "reads only", [](State&, const bench::Params&, cudaStream_t) {
   }).variant_axis("op", {"read"}, "reads only: op=read");
  b.baseline("plain");
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make_fuzzlab());

}  // namespace
}  // namespace memlab
