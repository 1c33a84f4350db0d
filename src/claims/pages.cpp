// The claims for the web lab and the report: the explainer page of each claim, a run's verdicts
// as JSON, the claims and their plan without a run.
#include <fmt/format.h>

#include <algorithm>
#include <map>
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

nlohmann::json hierarchy_findings(const nlohmann::json& run) {
  nlohmann::json out = nlohmann::json::array();
  std::map<std::string, int> seen;
  for (const Level& l : levels_of(run)) {
    const int n = ++seen[l.key];
    const std::string key = "level." + l.key + (n > 1 ? fmt::format(".{}", n) : "");
    out.push_back({{"key", key},
                   {"label", l.name},
                   {"value", l.cycles},
                   {"unit", "cycles"},
                   {"x_from", l.from_bytes},
                   {"x_to", l.to_bytes}});
  }
  if (!run.contains("records") || !run["records"].is_array()) return out;
  static const std::pair<const char*, const char*> kChains[] = {
      {"chase_shared", "shared memory"},
      {"chase_register", "register (dependent IMAD)"},
      {"atomic_chain", "global atomicAdd"},
      {"chase_host", "host-mapped memory (PCIe)"}};
  for (const auto& [variant, label] : kChains) {
    const nlohmann::json* best = nullptr;
    double best_ws = 0, max_ws = 0;
    for (const auto& r : run["records"]) {
      if (!r.is_object() || r.value("experiment", "") != "hierarchy" ||
          r.value("variant", "") != variant ||
          !(r.value("timed", false) || r.value("status", "") == "timed") ||
          !r.contains("figures") || !r["figures"].contains("cycles_per_load") ||
          !r.contains("params") || !r["params"].contains("ws")) {
        continue;
      }
      const double ws = std::stod(r["params"]["ws"].get<std::string>());
      max_ws = std::max(max_ws, ws);
      if (best == nullptr || ws < best_ws) {
        best = &r;
        best_ws = ws;
      }
    }
    if (best == nullptr) continue;
    out.push_back({{"key", fmt::format("latency.{}", variant)},
                   {"label", label},
                   {"value", (*best)["figures"]["cycles_per_load"].get<double>()},
                   {"unit", "cycles"},
                   {"x_from", best_ws},
                   {"x_to", best_ws}});
  }
  return out;
}

nlohmann::json evaluate_json(const nlohmann::json& run) {
  const std::vector<Result> results = evaluate(run);
  nlohmann::json j = to_json(results, levels_of(run));
  for (std::size_t i = 0; i < results.size(); ++i) {
    j["claims"][i]["page"] = page_of(*results[i].claim);
  }
  j["counts"] = count_json(results);
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
                      {"condition", c.condition},
                      {"needs", needs}});
  }
  return {{"claims", claims}, {"plan", render_plan()}};
}

}  // namespace memlab::claims
