#include "exercise/measure_kernel.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <thread>

#include "exercise/learner_counters.hpp"
#include "exercise/nvrtc.hpp"
#include "memlab/bench/measure.hpp"
#include "memlab/bench/physical.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/compare.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/event.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

// The kernel's arguments at one point, in the signature's order, plus the buffers to zero.
struct Bound {
  std::vector<bench::KernelArg> args;
  std::vector<void*> pointers;
  std::vector<std::pair<void*, std::size_t>> zero;
};

Bound bind(const LearnerKernel& k, const Exercise& e, const bench::Experiment& x,
           bench::Instance& inst, const bench::Params& p, cudaStream_t stream) {
  const std::vector<bench::KernelArg> offered = x.kernel_args(inst, p);
  auto find = [&](const std::string& name) -> const bench::KernelArg& {
    for (const auto& a : offered) {
      if (a.name == name) return a;
    }
    throw UsageError(fmt::format("lesson {} offers no kernel argument {}", x.name, name));
  };
  Bound b;
  for (const json& param : e.spec.at("kernel").at("params")) {
    const bench::KernelArg& a = find(param.value("from", param.at("name").get<std::string>()));
    if (a.type != param.at("type").get<std::string>()) {
      throw UsageError(fmt::format("kernel parameter {}: type {}, the lesson gives {}",
                                   param.at("name").get<std::string>(),
                                   param.at("type").get<std::string>(), a.type));
    }
    b.args.push_back(a);
  }
  for (auto& a : b.args) b.pointers.push_back(a.value.data());
  for (const json& z : e.spec.value("zero", json::array())) {
    const bench::KernelArg& a = find(z.get<std::string>());
    void* ptr = nullptr;
    std::memcpy(&ptr, a.value.data(), sizeof ptr);
    b.zero.emplace_back(ptr, a.buffer_bytes);
  }
  for (const json& c : e.spec.value("constants", json::array())) {
    const std::string symbol = c.at("symbol").get<std::string>();
    const bench::KernelArg& a = find(c.at("from").get<std::string>());
    void* dst = nullptr;
    std::size_t bytes = 0;
    if (cudaLibraryGetGlobal(&dst, &bytes, k.library, symbol.c_str()) != cudaSuccess) {
      (void)cudaGetLastError();
      throw LearnerError("wrong_result",
                         fmt::format("your file defines no __constant__ {} (the exercise copies "
                                     "the mask there before each launch)",
                                     symbol));
    }
    if (bytes < a.buffer_bytes) {
      throw LearnerError("wrong_result", fmt::format("__constant__ {} holds {} bytes, the mask "
                                                     "needs {} at this point",
                                                     symbol, bytes, a.buffer_bytes));
    }
    const void* src = nullptr;
    std::memcpy(&src, a.value.data(), sizeof src);
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(dst, src, a.buffer_bytes, cudaMemcpyDeviceToDevice, stream));
  }
  return b;
}

void enqueue(const LearnerKernel& k, Bound& b, const Launch& l, cudaStream_t stream) {
  for (const auto& [ptr, bytes] : b.zero) MEMLAB_CUDA_CHECK(cudaMemsetAsync(ptr, 0, bytes, stream));
  const dim3 grid(static_cast<unsigned>(l.grid[0]), static_cast<unsigned>(l.grid[1]),
                  static_cast<unsigned>(l.grid[2]));
  const dim3 block(static_cast<unsigned>(l.block[0]), static_cast<unsigned>(l.block[1]),
                   static_cast<unsigned>(l.block[2]));
  MEMLAB_CUDA_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(k.kernel), grid, block,
                                     b.pointers.data(), static_cast<std::size_t>(l.shared_bytes),
                                     stream));
}

void check_launch_fits(const LearnerKernel& k, const Launch& l) {
  const std::int64_t threads = l.block[0] * l.block[1] * l.block[2];
  if (threads > k.attr.maxThreadsPerBlock) {
    throw LearnerError("launch_error",
                       fmt::format("the exercise launches {} threads per block, your kernel can "
                                   "run at most {} ({} registers per thread; drop "
                                   "__launch_bounds__ or use fewer registers)",
                                   threads, k.attr.maxThreadsPerBlock, k.attr.numRegs));
  }
  if (l.shared_bytes > 48 * 1024) {
    MEMLAB_CUDA_CHECK(cudaKernelSetAttributeForDevice(k.kernel,
                                                      cudaFuncAttributeMaxDynamicSharedMemorySize,
                                                      static_cast<int>(l.shared_bytes), 0));
  }
}

// The kernel's outputs: its non-const pointer parameters, with a device copy of what the
// verified launch wrote there. After every timed launch the harness counts on the GPU where the
// output differs from that copy (issue 21, hole 4): every launch must redo the work, since the
// output is poisoned before each one.
class OutputWitness {
 public:
  OutputWitness(const Exercise& e, const Bound& b, cudaStream_t stream) {
    const auto& params = e.spec.at("kernel").at("params");
    for (std::size_t i = 0; i < params.size() && i < b.args.size(); ++i) {
      const std::string type = params[i].at("type").get<std::string>();
      if (type.find('*') == std::string::npos || type.find("const") != std::string::npos) continue;
      const bench::KernelArg& a = b.args[i];
      if (a.buffer_bytes == 0) continue;
      Output o;
      std::memcpy(&o.ptr, a.value.data(), sizeof o.ptr);
      o.bytes = a.buffer_bytes;
      o.as = type.rfind("float", 0) == 0 ? CompareAs::Float
             : (type.find("int") != std::string::npos || type.find("unsigned") != std::string::npos)
                 ? CompareAs::Word
                 : CompareAs::Byte;
      if (o.as != CompareAs::Byte && o.bytes % 4 != 0) o.as = CompareAs::Byte;
      o.reference = DeviceBuffer<unsigned char>(o.bytes);
      MEMLAB_CUDA_CHECK(
          cudaMemcpyAsync(o.reference.get(), o.ptr, o.bytes, cudaMemcpyDeviceToDevice, stream));
      outputs_.push_back(std::move(o));
    }
    mismatches_ = DeviceBuffer<unsigned long long>(kSlots);
    mismatches_.fill_bytes(0, stream);
  }
  bool empty() const { return outputs_.empty(); }
  // Counts the mismatches of the launch that just ran (in its own slot).
  void compare(cudaStream_t stream) {
    const std::size_t slot = launches_ < kSlots ? launches_ : kSlots - 1;
    for (const Output& o : outputs_) {
      count_mismatches(o.ptr, o.reference.get(), o.bytes, o.as, mismatches_.get() + slot, stream);
    }
    ++launches_;
  }
  // {launches compared, launches whose output was not the verified one}; synchronises.
  std::pair<int, int> result(cudaStream_t stream) const {
    std::vector<unsigned long long> host(kSlots);
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(host.data(), mismatches_.get(),
                                      kSlots * sizeof(unsigned long long), cudaMemcpyDeviceToHost,
                                      stream));
    MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    int bad = 0;
    for (std::size_t i = 0; i < kSlots && i < launches_; ++i) bad += host[i] != 0 ? 1 : 0;
    return {static_cast<int>(launches_), bad};
  }

 private:
  static constexpr std::size_t kSlots = 4096;
  struct Output {
    void* ptr = nullptr;
    std::size_t bytes = 0;
    CompareAs as = CompareAs::Byte;
    DeviceBuffer<unsigned char> reference;
  };
  std::vector<Output> outputs_;
  DeviceBuffer<unsigned long long> mismatches_;
  std::size_t launches_ = 0;
};

// The other processes NVML lists on the device (this worker and its parent left out). Empty when
// NVML cannot tell, or when this worker is not among those listed (another pid namespace: the
// list cannot be attributed).
json other_gpu_processes(const DeviceInfo& device) {
  json out = json::array();
  const auto pids = compute_processes(device);
  if (!pids) return out;
  const auto self = static_cast<unsigned>(getpid()), parent = static_cast<unsigned>(getppid());
  if (std::find(pids->begin(), pids->end(), self) == pids->end()) return out;
  for (unsigned pid : *pids) {
    if (pid != self && pid != parent) out.push_back(pid);
  }
  return out;
}

std::function<void()>& timeout_hook() {
  static std::function<void()> hook;
  return hook;
}

double median_of(const json& rec) {
  return rec.value("median_ms", 0.0);
}

}  // namespace

LearnerKernel load_learner_kernel(const Exercise& e, const std::string& source,
                                  const std::string& file_name, const DeviceInfo& device) {
  std::string arch = fmt::format("sm_{}{}", device.cc_major, device.cc_minor);
  Compiled c = nvrtc_compile(source, file_name, e.kernel_expr(), arch);
  if (!c.ok && c.diagnostics.empty()) {  // this NVRTC does not know the GPU: PTX, JIT by driver
    arch = "compute_90";
    c = nvrtc_compile(source, file_name, e.kernel_expr(), arch);
  }
  if (!c.ok) throw LearnerError("compile_error", c.log);
  LearnerKernel k;
  MEMLAB_CUDA_CHECK(
      cudaLibraryLoadData(&k.library, c.image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
  MEMLAB_CUDA_CHECK(cudaLibraryGetKernel(&k.kernel, k.library, c.lowered_name.c_str()));
  MEMLAB_CUDA_CHECK(cudaFuncGetAttributes(&k.attr, reinterpret_cast<const void*>(k.kernel)));
  k.info = {{"arch", arch},
            {"registers", k.attr.numRegs},
            {"static_shared_bytes", k.attr.sharedSizeBytes},
            {"local_bytes", k.attr.localSizeBytes},
            {"max_threads_per_block", k.attr.maxThreadsPerBlock}};
  return k;
}

void set_timeout_hook(std::function<void()> hook) {
  timeout_hook() = std::move(hook);
}

void launch_learner(const LearnerKernel& k, const Exercise& e, const bench::Experiment& x,
                    bench::Instance& inst, const PlannedPoint& pp, cudaStream_t stream,
                    double deadline_s, bool poison) {
  check_launch_fits(k, pp.launch);
  if (poison) x.poison(inst, pp.params, stream);
  Bound b = bind(k, e, x, inst, pp.params, stream);
  enqueue(k, b, pp.launch, stream);
  Event done;
  MEMLAB_CUDA_CHECK(cudaEventRecord(done.get(), stream));
  const auto t0 = std::chrono::steady_clock::now();
  for (;;) {
    const cudaError_t q = cudaEventQuery(done.get());
    if (q == cudaSuccess) break;
    if (q != cudaErrorNotReady) MEMLAB_CUDA_CHECK(q);
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > deadline_s) {
      if (timeout_hook()) timeout_hook()();  // does not return
      throw LearnerError("timeout", "");
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

json measure_learner(const Exercise& e, const bench::Experiment& x, const LearnerKernel& k,
                     const PlannedPoint& pp, const DeviceInfo& device, cudaStream_t stream,
                     std::uint64_t seed, double deadline_s,
                     const std::function<void(const std::string&)>& phase) {
  const bench::Params& p = pp.params;
  bench::RunOptions ro;
  ro.measure.noise = 0.01;
  ro.measure.budget_s = 0.25;
  ro.measure.max_samples = 200;
  phase("measuring cudaMemcpy and the lesson's variants at " + p.label());
  bench::Runner runner(device, ro);
  const bench::Ceiling ceiling = runner.measure_memcpy_ceiling(std::size_t{256} << 20);
  // The lesson's variants (those the exercise compares with) at this one point.
  bench::ExperimentPlan plan;
  plan.experiment = &x;
  const json compare = e.spec.value("compare", json::array());
  for (const bench::Variant& v : x.variants) {
    // No compare list: every variant but the opt-in ones (not yet verified on a GPU), as a plan.
    bool wanted = compare.empty() && v.opt_in.empty();
    for (const json& c : compare) wanted = wanted || c.get<std::string>() == v.name;
    if (wanted) plan.variants.push_back(&v);
  }
  plan.points.push_back(bench::plan_point(x, plan.variants, p, seed));
  std::vector<bench::Record> records;
  runner.run(plan, records);

  phase("verifying and measuring your kernel at " + p.label());
  auto inst = x.setup(p, bench::point_seed(seed, x.name, p));
  launch_learner(k, e, x, *inst, pp, stream, deadline_s, true);
  const std::string check_as = e.spec.at("check_as").get<std::string>();
  const bench::Check c = x.check(*inst, p, check_as);
  json m = {{"point", p.label()}, {"launch", launch_json(pp.launch)}, {"verified", c.ok}};
  if (!c.ok) {
    m["detail"] = c.detail;
    return m;
  }
  Bound b = bind(k, e, x, *inst, p, stream);
  bench::MeasureOptions mo = ro.measure;
  mo.flush_l2 = x.flush_l2;
  bench::L2Flusher flusher(static_cast<std::size_t>(device.l2_bytes));
  // Every launch, warm-up and timed, is checked: before it (outside the timed region) the output
  // of the previous one is compared with the verified output on the GPU, then poisoned.
  OutputWitness witness(e, b, stream);
  bool first = true;
  auto prepare = [&](cudaStream_t st) {
    if (!first) witness.compare(st);
    first = false;
    x.poison(*inst, p, st);
  };
  const json others_before = other_gpu_processes(device);
  const bench::Measurement meas =
      bench::measure([&](cudaStream_t st) { enqueue(k, b, pp.launch, st); }, stream, mo,
                     mo.flush_l2 ? &flusher : nullptr, {}, prepare);
  const bench::Stats& s = meas.stats;
  witness.compare(stream);  // the last launch
  if (json others = other_gpu_processes(device); !others.empty() || !others_before.empty()) {
    for (const json& pid : others_before) {
      if (std::find(others.begin(), others.end(), pid) == others.end()) others.push_back(pid);
    }
    m["gpu_shared"] = {
        {"pids", others},
        {"note", fmt::format("{} other process(es) had a context on the GPU while your kernel was "
                             "timed (NVML): the time may be disturbed",
                             others.size())}};
  }
  const auto [compared, skipped] = witness.result(stream);
  m["launches_verified"] = witness.empty() ? 0 : compared;
  if (skipped > 0) {
    m["verified"] = false;
    m["skipped_work"] = skipped;
    m["detail"] = fmt::format(
        "{} of the {} launches timed after the output was poisoned left a wrong output: your "
        "kernel did not do the measured work every time (a launch counter, a cached result?)",
        skipped, compared);
    return m;
  }
  const bench::Variant* as = x.find_variant(check_as);
  const double bytes = bench::useful_bytes(x, *as, p);
  const double flops = bench::useful_flops(x, *as, p);
  auto figures = [&](double median_ms) {
    json f = {{"median_ms", median_ms}};
    if (!(median_ms > 0)) return f;  // not timed (failed check): no rates
    if (bytes > 0) {
      f["gbps"] = bytes / (median_ms * 1e-3) / 1e9;
      f["pct_memcpy"] = 100.0 * f["gbps"].get<double>() / ceiling.gbps;
    }
    if (flops > 0) f["tflops"] = flops / (median_ms * 1e-3) / 1e12;
    return f;
  };
  json yours = figures(s.median);
  yours["samples"] = s.samples;
  yours["cv"] = s.relative_stdev();
  {
    const double seconds = s.median * 1e-3;
    auto why =
        bench::impossible_bandwidth(bytes, seconds, meas.cold, static_cast<double>(device.l2_bytes),
                                    device.peak_bandwidth_bytes_per_s());
    if (!why) why = bench::impossible_fp32_rate(flops, seconds, device.peak_fp32_flops());
    if (why) {
      m["verified"] = false;
      m["impossible"] = true;
      m["yours"] = yours;
      m["detail"] = *why;
      return m;
    }
  }
  json variants = json::array();
  const json* best = nullptr;
  for (const bench::Record& r : records) {
    if (r.skipped) continue;  // does not apply at this point (e.g. cudaMemset for op=copy)
    // Each variant's own useful bytes and flops (a lesson's variants may differ in what they
    // must move, e.g. coalescing's strided read), not those of the variant the check is judged as.
    json v = {{"median_ms", r.timed ? r.stats.median : 0.0}};
    if (r.timed && r.stats.median > 0) {
      const double sec = r.stats.median * 1e-3;
      if (r.bytes > 0) {
        v["gbps"] = r.bytes / sec / 1e9;
        v["pct_memcpy"] = 100.0 * v["gbps"].get<double>() / ceiling.gbps;
      }
      if (r.flops > 0) v["tflops"] = r.flops / sec / 1e12;
    }
    v["variant"] = r.variant;
    v["description"] = r.description;
    v["verified"] = r.verified;
    v["timed"] = r.timed;
    if (r.prediction) v["predicted_ms"] = r.prediction->predicted_ms;
    variants.push_back(v);
  }
  for (const json& v : variants) {
    if (v.value("timed", false) && (best == nullptr || median_of(v) < median_of(*best))) best = &v;
  }
  auto variant_ms = [&](const std::string& name) {
    for (const json& v : variants) {
      if (v["variant"] == name && v.value("timed", false)) return median_of(v);
    }
    return 0.0;
  };
  const double naive_ms = variant_ms(e.spec.at("naive").get<std::string>());
  if (naive_ms > 0) yours["speedup_over_naive"] = naive_ms / s.median;
  m["yours"] = yours;
  m["variants"] = variants;
  m["memcpy_gbps"] = ceiling.gbps;
  m["naive"] = e.spec.at("naive");
  if (best != nullptr) m["best"] = *best;
  bench::PredictContext ctx;
  ctx.memcpy_gbps = ceiling.gbps;
  ctx.sm_count = device.sm_count;
  ctx.sm_clock_mhz = device.sm_clock_khz / 1e3;
  ctx.max_threads_per_sm = device.max_threads_per_sm;
  if (auto pred = bench::predict_variant(*as, p, ctx)) {
    double ms = bench::predicted_time_ms(*pred, ceiling.gbps, device.peak_fp32_flops());
    if (pred->slowdown > 0) ms = pred->slowdown * variant_ms(x.baseline);
    m["prediction"] = {{"model", pred->model},
                       {"predicted_ms", ms},
                       {"measured_over_predicted", ms > 0 ? s.median / ms : 0.0}};
  }
  const json& t = e.spec.at("target");
  const std::string kind = t.at("kind").get<std::string>();
  const double want = t.at("value").get<double>();
  double got = 0;
  std::string text;
  if (kind == "pct_memcpy") {
    got = yours.value("pct_memcpy", 0.0);
    text = fmt::format("{:.1f}% of cudaMemcpy (target: at least {:g}%)", got, want);
  } else {
    const std::string v = t.at("variant").get<std::string>();
    const double vm = variant_ms(v);
    got = vm > 0 ? vm / s.median : 0.0;
    text = fmt::format("{:.2f}x the lesson's {} (target: at least {:g}x)", got, v, want);
  }
  const bool met = got >= want;
  m["target"] = {{"kind", kind},
                 {"value", want},
                 {"achieved", got},
                 {"met", met},
                 {"summary", (met ? "target met: " : "target missed: ") + text},
                 {"text", t.at("text")}};
  // After the timing, in passes of their own: the counters beside the model (issue 21 #6).
  phase("counting the memory traffic of your kernel at " + p.label());
  m["counters"] = learner_counters(e, x, k, *inst, pp, device, stream, deadline_s, m);
  return m;
}

}  // namespace memlab::exercise
