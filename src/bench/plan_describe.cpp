// The plan as data, as the text `memlab run` prints without a GPU, and as JSON.
#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/cuda/check.hpp"

namespace memlab::bench {

PlanDescription describe(const Plan& plan) {
  PlanDescription d;
  d.seed = plan.seed;
  d.quick = plan.quick;
  d.warm = plan.warm;
  d.verify_only = plan.verify_only;
  d.measurements = plan.measurement_count();
  for (const ExperimentPlan& ep : plan.experiments) {
    const Experiment& e = *ep.experiment;
    ExperimentDescription ed;
    ed.name = e.name;
    ed.summary = e.summary;
    ed.bytes_convention = e.bytes_convention;
    ed.baseline = e.baseline;
    for (const Variant* v : ep.variants) ed.variants.push_back(v->name);
    for (const PlannedPoint& point : ep.points) {
      PointDescription pd;
      pd.params = point.params.values();
      pd.footprint = point.footprint;
      for (const PlannedVariant& pv : point.variants) {
        VariantAtPoint vd;
        vd.name = pv.variant->name;
        if (pv.variant->needs) vd.needs = pv.variant->needs_reason;
        vd.bytes = pv.bytes;
        vd.flops = pv.flops;
        if (pv.variant->predict) {
          try {
            if (auto pred = pv.variant->predict(point.params)) vd.model = pred->model;
          } catch (const CudaError&) {
            vd.model = "needs the GPU";
          }
        }
        pd.variants.push_back(std::move(vd));
      }
      ed.points.push_back(std::move(pd));
    }
    d.experiments.push_back(std::move(ed));
  }
  return d;
}

std::string render_plan(const PlanDescription& plan) {
  std::string out;
  for (const ExperimentDescription& e : plan.experiments) {
    out += fmt::format("  {}: {}\n", e.name, e.summary);
    if (!e.bytes_convention.empty()) out += "    bytes: " + e.bytes_convention + "\n";
    for (const PointDescription& point : e.points) {
      out += fmt::format("    {}  (device memory {})\n", format_point(point.params),
                         format_bytes(point.footprint.value_or(0.0)));
      for (const VariantAtPoint& v : point.variants) {
        out += fmt::format("      {:<22} useful bytes {}", v.name, format_bytes(v.bytes));
        if (!v.model.empty()) out += "; model: " + v.model;
        if (!v.needs.empty()) out += "; " + v.needs;
        out += "\n";
      }
    }
  }
  return out;
}

std::string render_plan_json(const PlanDescription& plan) {
  nlohmann::json experiments = nlohmann::json::array();
  for (const ExperimentDescription& e : plan.experiments) {
    nlohmann::json points = nlohmann::json::array();
    for (const PointDescription& point : e.points) {
      nlohmann::json params = nlohmann::json::object();
      for (const auto& [k, v] : point.params) params[k] = v;
      nlohmann::json variants = nlohmann::json::array();
      for (const VariantAtPoint& v : point.variants) {
        nlohmann::json j = {
            {"name", v.name}, {"status", "planned"}, {"bytes", v.bytes}, {"flops", v.flops}};
        if (!v.model.empty()) j["model"] = v.model;
        if (!v.needs.empty()) j["needs"] = v.needs;
        variants.push_back(std::move(j));
      }
      points.push_back({{"params", std::move(params)},
                        {"footprint_bytes",
                         point.footprint ? nlohmann::json(*point.footprint) : nlohmann::json()},
                        {"variants", std::move(variants)}});
    }
    experiments.push_back({{"name", e.name},
                           {"summary", e.summary},
                           {"bytes_convention", e.bytes_convention},
                           {"baseline", e.baseline},
                           {"variants", e.variants},
                           {"points", std::move(points)}});
  }
  const nlohmann::json j = {{"seed", plan.seed},
                            {"quick", plan.quick},
                            {"warm", plan.warm},
                            {"verify_only", plan.verify_only},
                            {"measurements", plan.measurements},
                            {"experiments", std::move(experiments)}};
  return j.dump(2) + "\n";
}

std::string format_progress(const ProgressEvent& e) {
  switch (e.stage) {
    case ProgressEvent::Stage::Ceiling:
      return "measuring the cudaMemcpy ceiling";
    case ProgressEvent::Stage::Setup:
      return fmt::format("{} {}: setting up", e.experiment, e.point);
    case ProgressEvent::Stage::Measure:
      return fmt::format("{} {} {} ({}/{})", e.experiment, e.variant, e.point, e.index, e.total);
  }
  return e.experiment;
}

}  // namespace memlab::bench
