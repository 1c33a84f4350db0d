#include "memlab/bench/runner.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <vector>

#include "memlab/bench/physical.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/clock_probe.hpp"
#include "memlab/cuda/nvtx.hpp"

namespace memlab::bench {

std::uint64_t point_seed(std::uint64_t seed, const std::string& experiment, const Params& p) {
  // FNV-1a over the name and the point, mixed with the run's seed (splitmix64 finaliser).
  std::uint64_t h = 1469598103934665603ull;
  for (char c : experiment + '|' + p.label()) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  std::uint64_t z = seed ^ h;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

Check verify_variant(const Experiment& e, Instance& instance, const Params& p, const Variant& v,
                     cudaStream_t stream) {
  e.poison(instance, p, stream);
  if (v.prepare) {
    MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
    v.prepare(instance, p, stream);
  }
  {
    const NvtxRange range(fmt::format("memlab:{}/{}/{}", e.name, v.name, p.label()));
    v.run(instance, p, stream);
  }
  MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
  return e.check(instance, p, v.name);
}

Runner::Runner(const DeviceInfo& device, RunOptions options)
    : device_(device), options_(std::move(options)) {
  if (options_.measure.flush_l2 || (options_.counters && options_.counters_cold)) {
    flusher_ = std::make_unique<L2Flusher>(static_cast<std::size_t>(device_.l2_bytes));
  }
  probe_ = make_clock_probe(device_);
  if (options_.counters) {
    try {
      counters_ = std::make_unique<CounterSession>(device_.ordinal);
      counters_status_ = "collected";
    } catch (const CountersUnavailable& e) {
      counters_unavailable(e.what());
    }
  }
}

void Runner::counters_unavailable(const std::string& reason) {
  counters_.reset();
  counters_status_ = "unavailable: " + reason;
  if (options_.on_counters_unavailable) options_.on_counters_unavailable(reason);
}

// The counters pass: never timed; the work replayed until CUPTI has every pass, each replay from
// a flushed L2 (unless --warm) like the cold samples. A refusal ends counters for the whole run.
void Runner::collect_counters(Record& r, const std::optional<Prediction>& prediction,
                              const std::function<void()>& work) {
  if (!counters_) return;
  ModelCounters model;
  if (prediction) {
    model.dram_bytes = prediction->dram_bytes;
    model.sectors_per_request = prediction->sectors_per_request;
    model.wavefronts_per_request = prediction->wavefronts_per_request;
  }
  const std::vector<Counter> wanted = select_counters(model);
  L2Flusher* flusher = options_.counters_cold ? flusher_.get() : nullptr;
  try {
    const CounterSession::Result got = counters_->collect(
        metric_names(wanted),
        [&] {
          if (flusher != nullptr) flusher->flush(stream_);
        },
        work);
    r.counters = merge_counters(wanted, got.values, got.passes, model, r.bytes);
    set_counter_view(*r.counters, r.working_set_bytes, static_cast<double>(device_.l2_bytes));
  } catch (const CountersUnavailable& e) {
    counters_unavailable(e.what());
  }
}

Ceiling Runner::measure_memcpy_ceiling(std::size_t bytes) {
  DeviceBuffer<unsigned char> src(bytes), dst(bytes);
  src.fill_bytes(0x5A, stream_);
  auto work = [&](cudaStream_t s) {
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(dst.get(), src.get(), bytes, cudaMemcpyDeviceToDevice, s));
  };
  Ceiling c;
  c.stats = measure(work, stream_, options_.measure, flusher_.get(), probe_).stats;
  c.bytes = 2.0 * static_cast<double>(bytes);
  c.gbps = c.bytes / (c.stats.median * 1e-3) / 1e9;
  c.measured = true;
  ceiling_ = c;
  return c;
}

bool Runner::cancelled() const {
  return options_.cancel != nullptr && options_.cancel->load();
}

void Runner::run(const ExperimentPlan& plan, std::vector<Record>& out) {
  const Experiment& e = *plan.experiment;
  MeasureOptions mopt = options_.measure;
  mopt.flush_l2 = mopt.flush_l2 && e.flush_l2;

  for (const PlannedPoint& point : plan.points) {
    if (cancelled()) return;
    const Params& p = point.params;
    const std::string label = p.label();
    // What only the device decides: a variant whose needs_device is false here is a skip record.
    std::vector<bool> device_ok;
    for (const PlannedVariant& pv : point.variants) {
      device_ok.push_back(!pv.variant->needs || pv.variant->needs(p));
    }
    const bool any_runnable =
        std::find(device_ok.begin(), device_ok.end(), true) != device_ok.end();
    if (options_.progress && any_runnable) {
      options_.progress({ProgressEvent::Stage::Setup, e.name, "", label, index_, options_.total});
    }
    auto skip_record = [&](const Variant& v, std::string reason) {
      Record r;
      r.experiment = e.name;
      r.variant = v.name;
      r.description = v.description;
      r.params = p.values();
      r.seed = point.seed;
      r.baseline = e.baseline;
      r.skipped = true;
      r.skip_reason = reason.empty() ? kDefaultSkipReason : std::move(reason);
      r.working_set_bytes = point.footprint.value_or(0.0);
      return r;
    };
    const std::size_t first = out.size();
    // Slowdown predictions of this point's records (0: none), resolved once the baseline is timed.
    std::vector<double> slowdown;
    try {
      // Nothing to run at this point: no set-up (no allocation), only the skip records.
      std::unique_ptr<Instance> instance = any_runnable ? e.setup(p, point.seed) : nullptr;
      run_point(e, point, mopt, instance.get(), device_ok, out, slowdown, skip_record);
    } catch (const SkipPoint& why) {
      // The device cannot run this point (thrown by setup, run or check): every variant of it
      // is a skip record with that reason, whatever was measured before the throw.
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
      slowdown.assign(point.variants.size(), 0.0);
      for (const PlannedVariant& pv : point.variants) {
        out.push_back(skip_record(*pv.variant, why.what()));
      }
    }
    resolve_baseline(e, first, slowdown, out);
  }
}

void Runner::run_point(const Experiment& e, const PlannedPoint& point, const MeasureOptions& mopt,
                       Instance* instance, const std::vector<bool>& device_ok,
                       std::vector<Record>& out, std::vector<double>& slowdown,
                       const std::function<Record(const Variant&, std::string)>& skip_record) {
  const Params& p = point.params;
  const std::string label = p.label();
  for (std::size_t k = 0; k < point.variants.size(); ++k) {
    const PlannedVariant& pv = point.variants[k];
    const Variant* v = pv.variant;
    if (!device_ok[k]) {
      out.push_back(skip_record(*v, v->needs_reason));
      slowdown.push_back(0.0);
      continue;
    }
    Record r;
    r.experiment = e.name;
    r.variant = v->name;
    r.description = v->description;
    r.params = p.values();
    r.seed = point.seed;
    r.baseline = e.baseline;
    if (cancelled()) break;
    ++index_;
    if (options_.progress) {
      options_.progress(
          {ProgressEvent::Stage::Measure, e.name, v->name, label, index_, options_.total});
    }
    r.bytes = pv.bytes;
    r.flops = pv.flops;
    r.working_set_bytes = point.footprint.value_or(r.bytes);
    r.fits_in_l2 = r.working_set_bytes <= static_cast<double>(device_.l2_bytes);

    const Check c = verify_variant(e, *instance, p, *v, stream_);
    // The model's prediction (a device-aware model gets the device and the measured memcpy rate).
    PredictContext ctx;
    ctx.memcpy_gbps = ceiling_.measured ? ceiling_.gbps : 0.0;
    ctx.sm_count = device_.sm_count;
    ctx.sm_clock_mhz = device_.sm_clock_khz / 1e3;
    ctx.max_threads_per_sm = device_.max_threads_per_sm;
    const std::optional<Prediction> pred = predict_variant(*v, p, ctx);
    auto counters_work = [&] {
      if (v->prepare) {
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
        v->prepare(*instance, p, stream_);
      }
      v->run(*instance, p, stream_);
      MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream_));
    };
    r.verified = c.ok;
    r.error = c.error;
    r.check_detail = c.detail;
    if (!v->expected_failure.empty()) {
      // Broken on purpose: record what the check found, never fail the run, never time it.
      r.expected_failure = v->expected_failure;
      r.expected_failure_observed = !c.ok;
      r.notes.push_back(c.ok ? "expected failure not observed: the check passed this time "
                               "(the race did not show); not timed"
                             : "expected failure: " + v->expected_failure + "; not timed");
      out.push_back(std::move(r));
      slowdown.push_back(0.0);
      continue;
    }
    if (!c.ok) {
      failed_ = true;
      r.notes.push_back("verification failed: not timed");
      out.push_back(std::move(r));
      slowdown.push_back(0.0);
      continue;
    }
    if (options_.verify_only) {
      collect_counters(r, pred, counters_work);
      r.notes.push_back("verified only (--verify-only): not timed");
      out.push_back(std::move(r));
      slowdown.push_back(0.0);
      continue;
    }
    auto work = [&](cudaStream_t s) { v->run(*instance, p, s); };
    std::function<void(cudaStream_t)> prepare;
    if (v->prepare) prepare = [&](cudaStream_t s) { v->prepare(*instance, p, s); };
    Measurement m = measure(work, stream_, mopt, flusher_.get(), probe_, prepare);
    r.stats = std::move(m.stats);
    r.cold = m.cold;
    r.batch = std::move(m.batch);
    r.batch_launches = m.batch_launches;
    r.clocks = m.clocks;
    if (auto note = throttle_note(r.clocks); !note.empty()) r.notes.push_back(note);
    r.timed = true;
    const double seconds = r.stats.median * 1e-3;
    if (r.bytes > 0) {
      r.gbps = r.bytes / seconds / 1e9;
      r.pct_peak = 100.0 * r.bytes / seconds / device_.peak_bandwidth_bytes_per_s();
      if (ceiling_.measured) r.pct_memcpy = 100.0 * r.gbps / ceiling_.gbps;
    }
    if (r.flops > 0) {
      r.gflops = r.flops / seconds / 1e9;
      r.pct_fp32_peak = 100.0 * r.flops / seconds / device_.peak_fp32_flops();
    }
    // A time no DRAM could deliver: the variant did not do the measured work (issue 21).
    if (auto why =
            impossible_bandwidth(r.bytes, seconds, r.cold, static_cast<double>(device_.l2_bytes),
                                 device_.peak_bandwidth_bytes_per_s())) {
      failed_ = true;
      r.verified = false;
      r.check_detail = *why;
      r.notes.push_back(*why);
    }
    if (r.fits_in_l2 && r.bytes > 0) {
      r.notes.push_back("working set fits in L2: this may measure the cache, not DRAM");
    }
    if (v->inspect) {
      Extras x;
      v->inspect(*instance, p, x);
      r.figures = std::move(x.figures);
      r.extra_text = std::move(x.text);
      r.extra_json = std::move(x.json);
    }
    collect_counters(r, pred, counters_work);
    double predicted_slowdown = 0.0;
    if (pred) {
      {
        PredictionRecord pr;
        pr.model = pred->model;
        pr.bound = pred->bound;
        pr.bounds_ms = pred->bounds_ms;
        pr.measured_ms = r.stats.median;
        pr.predicted_ms = predicted_time_ms(*pred, ceiling_.measured ? ceiling_.gbps : 0.0,
                                            device_.peak_fp32_flops());
        predicted_slowdown = pred->slowdown;
        r.prediction = pr;
      }
    }
    out.push_back(std::move(r));
    slowdown.push_back(predicted_slowdown);
  }
}

// Speed-up over the baseline and slowdown predictions, within one point's records.
void Runner::resolve_baseline(const Experiment& e, std::size_t first,
                              const std::vector<double>& slowdown, std::vector<Record>& out) {
  const Record* base = nullptr;
  for (std::size_t i = first; i < out.size(); ++i) {
    if (out[i].variant == e.baseline && out[i].timed) base = &out[i];
  }
  for (std::size_t i = first; i < out.size(); ++i) {
    Record& r = out[i];
    if (!r.timed) continue;
    if (base != nullptr) r.speedup = base->stats.median / r.stats.median;
    if (r.prediction) {
      PredictionRecord& pr = *r.prediction;
      const double sd = i - first < slowdown.size() ? slowdown[i - first] : 0.0;
      if (sd > 0) pr.predicted_ms = base != nullptr ? sd * base->stats.median : 0.0;
      if (pr.predicted_ms > 0) pr.ratio = pr.measured_ms / pr.predicted_ms;
    }
  }
}

}  // namespace memlab::bench
