// The claims for the web lab and the report: the explainer page of each claim, a run's verdicts
// as JSON, the claims and their plan without a run.
#include <fmt/format.h>

#include <string_view>

#include "memlab/claims/claims.hpp"

namespace memlab::claims {

std::string page_of(const Claim& claim) {
  // The first measured experiment decides; claims on the device's sizes (no needs) belong to the
  // hierarchy table, which shows those sizes.
  const std::string experiment = claim.needs.empty() ? "" : claim.needs.front().experiment;
  static const std::pair<std::string_view, std::string_view> kPages[] = {
      {"", "hierarchy"},
      {"hierarchy", "hierarchy"},
      {"constant_memory", "hierarchy"},
      {"bandwidth", "coalescing"},
      {"coalescing", "coalescing"},
      {"misalignment", "coalescing"},
      {"bank_conflicts", "banks"},
      {"histogram", "sync"},
      {"syncthreads", "sync"},
      {"transfers", "alloc"},
      {"unified_memory", "alloc"},
      {"streams", "streams"},
      {"default_stream", "streams"},
  };
  for (const auto& [exp, page] : kPages) {
    if (exp == experiment) return std::string(page);
  }
  return "";
}

std::vector<std::pair<double, double>> chase_points(const nlohmann::json& run) {
  std::vector<std::pair<double, double>> points;
  if (!run.contains("records") || !run["records"].is_array()) return points;
  for (const auto& r : run["records"]) {
    if (!r.is_object() || r.value("experiment", "") != "hierarchy" ||
        r.value("variant", "") != "chase_ca" || !r.contains("figures") ||
        !r["figures"].contains("cycles_per_load") || !r.contains("params") ||
        !r["params"].contains("ws")) {
      continue;
    }
    points.emplace_back(std::stod(r["params"]["ws"].get<std::string>()),
                        r["figures"]["cycles_per_load"].get<double>());
  }
  return points;
}

nlohmann::json evaluate_json(const nlohmann::json& run) {
  const std::vector<Result> results = evaluate(run);
  nlohmann::json j = to_json(results, detect_levels(chase_points(run)));
  int counts[4] = {0, 0, 0, 0};
  for (std::size_t i = 0; i < results.size(); ++i) {
    j["claims"][i]["page"] = page_of(*results[i].claim);
    ++counts[static_cast<int>(results[i].evaluation.verdict)];
  }
  j["counts"] = {{"holds", counts[0]},
                 {"holds_different", counts[1]},
                 {"does_not_hold", counts[2]},
                 {"no_record", counts[3]}};
  return j;
}

nlohmann::json list_json() {
  nlohmann::json claims = nlohmann::json::array();
  for (const Claim& c : all()) {
    nlohmann::json needs = nlohmann::json::array();
    for (const Need& n : c.needs) {
      needs.push_back({{"experiment", n.experiment}, {"variants", n.variants}, {"axes", n.axes}});
    }
    claims.push_back({{"id", c.id},
                      {"page", page_of(c)},
                      {"source", c.source},
                      {"quote", c.quote},
                      {"test", c.test},
                      {"rule", c.rule},
                      {"needs", needs}});
  }
  return {{"claims", claims}, {"plan", render_plan()}};
}

}  // namespace memlab::claims
