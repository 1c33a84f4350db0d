#include <fmt/format.h>

#include <algorithm>

#include "memlab/claims/claims.hpp"

namespace memlab::claims {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::Holds:
      return "holds";
    case Verdict::HoldsDifferent:
      return "holds with a different number";
    case Verdict::DoesNotHold:
      return "does not hold";
    case Verdict::NoRecord:
      return "no record";
  }
  return "?";
}

Records::Records(const nlohmann::json& run) {
  if (run.contains("context")) context_ = run.at("context");
  if (run.contains("records")) {
    for (const auto& r : run.at("records")) records_.push_back(r);
  }
}

const nlohmann::json* Records::find(const std::string& experiment, const std::string& variant,
                                    const std::map<std::string, std::string>& point) const {
  for (const auto& r : records_) {
    if (r.value("experiment", "") != experiment || r.value("variant", "") != variant) continue;
    if (!r.value("timed", false) && !r.contains("expected_failure")) continue;
    bool match = true;
    for (const auto& [k, v] : point) {
      if (!r.contains("params") || !r["params"].contains(k) || r["params"][k] != v) match = false;
    }
    if (match) return &r;
  }
  return nullptr;
}

const nlohmann::json* Records::find_like(
    const nlohmann::json& like, const std::string& variant,
    const std::map<std::string, std::string>& overrides) const {
  std::map<std::string, std::string> point = overrides;
  if (like.contains("params") && like["params"].is_object()) {
    for (const auto& [k, v] : like["params"].items()) {
      if (!point.count(k) && v.is_string()) point[k] = v.get<std::string>();
    }
  }
  return find(like.value("experiment", ""), variant, point);
}

std::vector<const nlohmann::json*> Records::all(const std::string& experiment,
                                                const std::string& variant) const {
  std::vector<const nlohmann::json*> out;
  for (const auto& r : records_) {
    if (r.value("experiment", "") == experiment && r.value("variant", "") == variant &&
        r.value("timed", false)) {
      out.push_back(&r);
    }
  }
  return out;
}

std::vector<Level> detect_levels(std::vector<std::pair<double, double>> points, double jump) {
  std::sort(points.begin(), points.end());
  std::vector<Level> levels;
  std::vector<double> plateau;
  auto close = [&](double to) {
    std::vector<double> v = plateau;
    std::sort(v.begin(), v.end());
    levels.back().to_bytes = to;
    levels.back().cycles = v[v.size() / 2];
  };
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto [ws, cycles] = points[i];
    if (i == 0 || cycles > jump * points[i - 1].second) {
      if (i > 0) close(points[i - 1].first);
      levels.push_back(Level{ws, ws, cycles});
      plateau.clear();
    }
    plateau.push_back(cycles);
  }
  if (!levels.empty()) close(points.back().first);
  return levels;
}

nlohmann::json to_json(const std::vector<Result>& results, const std::vector<Level>& levels) {
  nlohmann::json j;
  j["claims"] = nlohmann::json::array();
  for (const auto& r : results) {
    j["claims"].push_back({{"id", r.claim->id},
                           {"source", r.claim->source},
                           {"quote", r.claim->quote},
                           {"test", r.claim->test},
                           {"rule", r.claim->rule},
                           {"verdict", to_string(r.evaluation.verdict)},
                           {"number", r.evaluation.number},
                           {"measured", r.evaluation.measured},
                           {"evidence", r.evaluation.evidence}});
  }
  j["levels"] = nlohmann::json::array();
  for (const auto& l : levels) {
    j["levels"].push_back(
        {{"from_bytes", l.from_bytes}, {"to_bytes", l.to_bytes}, {"cycles", l.cycles}});
  }
  return j;
}

std::string render_table(const std::vector<Result>& results, const std::vector<Level>& levels,
                         const nlohmann::json& context) {
  std::string out;
  int counts[4] = {0, 0, 0, 0};
  for (const auto& r : results) {
    ++counts[static_cast<int>(r.evaluation.verdict)];
    out += fmt::format("{:<22} {:<30} {}\n", r.claim->id, to_string(r.evaluation.verdict),
                       r.evaluation.measured);
    out += fmt::format("    {} ({})\n", r.claim->quote, r.claim->source);
    if (!r.evaluation.evidence.empty())
      out += fmt::format("    evidence: {}\n", r.evaluation.evidence);
  }
  out += fmt::format(
      "{} claims: {} hold, {} hold with a different number, {} do not hold, {} "
      "without a record\n",
      results.size(), counts[0], counts[1], counts[2], counts[3]);
  if (!levels.empty()) {
    out += "latency levels (hierarchy chase_ca, detected from the curve):\n";
    for (const auto& l : levels) {
      out += fmt::format("  {:>12} .. {:>12} bytes: {:.0f} cycles\n", l.from_bytes, l.to_bytes,
                         l.cycles);
    }
    if (context.contains("device")) {
      const auto& d = context["device"];
      out += fmt::format("  device: L2 {} bytes, shared memory + L1 per SM >= {} bytes\n",
                         d.value("l2_bytes", 0.0), d.value("smem_per_sm_bytes", 0.0));
    }
  }
  return out;
}

std::string render_plan() {
  std::string out = "claims (verdicts need a run: memlab claims on a GPU, or --from RUN.json):\n";
  for (const auto& c : all()) {
    out += fmt::format("  {:<22} {}\n    {} ({})\n    rule: {}\n", c.id, c.test, c.quote, c.source,
                       c.rule);
  }
  out += "plan:\n";
  for (const auto& c : all()) {
    for (const auto& n : c.needs) {
      std::string axes;
      for (const auto& [k, v] : n.axes) {
        std::string vals;
        for (const auto& x : v) vals += (vals.empty() ? "" : ",") + x;
        axes += fmt::format(" -a {}={}", k, vals);
      }
      std::string vars;
      for (const auto& v : n.variants) vars += (vars.empty() ? "" : ",") + v;
      out += fmt::format("  {}: memlab run {} -v {}{}\n", c.id, n.experiment, vars, axes);
    }
  }
  return out;
}

}  // namespace memlab::claims
