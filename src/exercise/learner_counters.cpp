#include "exercise/learner_counters.hpp"

#include <fmt/format.h>

#include <memory>
#include <string>
#include <vector>

#include "exercise/counter_model.hpp"
#include "memlab/bench/measure.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/cupti.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

bool timed_here(const json& measured, const std::string& variant) {
  for (const json& v : measured.value("variants", json::array())) {
    if (v.value("variant", "") == variant && v.value("timed", false)) return true;
  }
  return false;
}

}  // namespace

json learner_counters(const Exercise& e, const bench::Experiment& x, const LearnerKernel& k,
                      bench::Instance& inst, const PlannedPoint& pp, const DeviceInfo& device,
                      cudaStream_t stream, double deadline_s, const json& measured) {
  const bench::Params& p = pp.params;
  json out = {{"point", p.label()}, {"model", counter_models(e)}, {"cold", true}};
  auto unavailable = [&out](const std::string& why) {
    out["status"] = "unavailable";
    out["reason"] = why;
    out.erase("yours");
    out.erase("variants");
    return out;
  };
  std::unique_ptr<CounterSession> session;
  try {
    session = std::make_unique<CounterSession>(device.ordinal);
  } catch (const CountersUnavailable& ex) {
    return unavailable(ex.what());
  }
  const std::vector<bench::Counter> wanted = exercise_counters();
  const std::vector<std::string> metrics = bench::metric_names(wanted);
  bench::L2Flusher flusher(static_cast<std::size_t>(device.l2_bytes));
  auto before = [&] { flusher.flush(stream); };
  const bench::Variant* as = x.find_variant(e.spec.at("check_as").get<std::string>());
  const double useful = bench::useful_bytes(x, *as, p);
  try {
    const CounterSession::Result got = session->collect(metrics, before, [&] {
      launch_learner(k, e, x, inst, pp, stream, deadline_s, /*poison=*/false);
    });
    out["yours"] = derive_figures(wanted, got.values, useful);
    out["passes"] = got.passes;
    out["variants"] = json::array();
    for (const std::string& name : counter_variants(e)) {
      const bench::Variant* v = x.find_variant(name);
      if (v == nullptr || !timed_here(measured, name)) continue;
      const CounterSession::Result vg = session->collect(metrics, before, [&] {
        if (v->prepare) {
          MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
          v->prepare(inst, p, stream);
        }
        v->run(inst, p, stream);
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(stream));
      });
      json fig = derive_figures(wanted, vg.values, bench::useful_bytes(x, *v, p));
      fig["variant"] = name;
      out["variants"].push_back(fig);
    }
  } catch (const CountersUnavailable& ex) {
    return unavailable(ex.what());
  } catch (const LearnerError&) {
    throw;  // the learner's kernel failed in the counters pass: the worker reports it
  } catch (const CudaError&) {
    throw;
  } catch (const std::runtime_error& ex) {  // another CUPTI failure: said, not invented
    return unavailable(fmt::format("CUPTI: {}", ex.what()));
  }
  out["status"] = "collected";
  const bool met = measured.contains("target") && measured["target"].value("met", false);
  const json verdict = explain_counters(out, met);
  if (!verdict.empty()) {
    out["explain"] = verdict["text"];
    out["verdict"] = verdict;
  }
  return out;
}

}  // namespace memlab::exercise
