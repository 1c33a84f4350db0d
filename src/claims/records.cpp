#include <fmt/format.h>

#include <algorithm>
#include <cmath>

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
    case Verdict::NotTestable:
      return "not testable here";
  }
  return "?";
}

namespace {
// Schema 1 records say "timed": true; schema 2 adds "status": "timed".
bool timed(const nlohmann::json& r) {
  return r.value("timed", false) || r.value("status", "") == "timed";
}
}  // namespace

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
    if (!timed(r) && !r.contains("expected_failure")) continue;
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
    if (r.value("experiment", "") == experiment && r.value("variant", "") == variant && timed(r)) {
      out.push_back(&r);
    }
  }
  return out;
}

std::vector<const nlohmann::json*> Records::all() const {
  std::vector<const nlohmann::json*> out;
  for (const auto& r : records_) {
    if (timed(r)) out.push_back(&r);
  }
  return out;
}

namespace {

// |x / median - 1| <= flat for every point of [lo, hi); the median and the largest deviation.
bool flat_run(const std::vector<std::pair<double, double>>& p, std::size_t lo, std::size_t hi,
              double flat, double* median, double* spread) {
  std::vector<double> v;
  for (std::size_t i = lo; i < hi; ++i) v.push_back(p[i].second);
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  const double m = n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  double worst = 0;
  for (const double x : v) worst = std::max(worst, std::abs(x / m - 1));
  *median = m;
  *spread = worst;
  return worst <= flat;
}

void plateaus(const std::vector<std::pair<double, double>>& p, std::size_t lo, std::size_t hi,
              double flat, std::vector<Level>& out) {
  if (hi - lo < 2) return;
  std::size_t best_lo = 0, best_len = 0;
  double best_m = 0, best_s = 0;
  for (std::size_t i = lo; i + 1 < hi; ++i) {
    for (std::size_t j = hi; j >= i + 2 && j - i >= best_len; --j) {
      double m = 0, s = 0;
      if (!flat_run(p, i, j, flat, &m, &s)) continue;
      // The longest; of two as long, the flatter (640, 650 rather than 610, 640 of 610, 640, 650).
      if (j - i > best_len || s < best_s) {
        best_lo = i;
        best_len = j - i;
        best_m = m;
        best_s = s;
      }
      break;
    }
  }
  if (best_len < 2) return;
  plateaus(p, lo, best_lo, flat, out);
  Level l;
  l.from_bytes = p[best_lo].first;
  l.to_bytes = p[best_lo + best_len - 1].first;
  l.cycles = best_m;
  l.spread = best_s;
  l.points = static_cast<int>(best_len);
  out.push_back(l);
  plateaus(p, best_lo + best_len, hi, flat, out);
}

}  // namespace

std::vector<Level> detect_levels(std::vector<std::pair<double, double>> points, double flat) {
  std::sort(points.begin(), points.end());
  std::vector<Level> levels;
  plateaus(points, 0, points.size(), flat, levels);
  return levels;
}

void name_levels(std::vector<Level>& levels, double l1_bytes, double l2_bytes) {
  if (l1_bytes <= 0 || l2_bytes <= 0) {
    for (std::size_t i = 0; i < levels.size(); ++i) {
      levels[i].name = fmt::format("level {}", i + 1);
      levels[i].key = fmt::format("level{}", i + 1);
    }
    return;
  }
  bool l2 = false;
  double hbm = 0;
  for (Level& l : levels) {
    if (l.to_bytes <= l1_bytes && !l2 && hbm == 0) {
      l.name = l.key = "L1";
    } else if (l.from_bytes < l2_bytes && hbm == 0) {
      l.name = l2 ? "L2 far" : "L2";
      l.key = l2 ? "L2_far" : "L2";
      l2 = true;
    } else if (hbm == 0) {
      l.name = l.key = "HBM";
      hbm = l.cycles;
    } else {
      l.name = l.key = l.cycles >= 1.1 * hbm ? "TLB" : "HBM";
    }
  }
}

std::vector<Level> levels_of(const nlohmann::json& run) {
  std::vector<Level> levels = detect_levels(chase_points(run));
  double l1 = 0, l2 = 0;
  if (run.contains("context") && run["context"].contains("device")) {
    const auto& d = run["context"]["device"];
    l1 = d.value("smem_per_sm_bytes", 0.0);
    l2 = d.value("l2_bytes", 0.0);
  }
  name_levels(levels, l1, l2);
  return levels;
}

nlohmann::json count_json(const std::vector<Result>& results) {
  int counts[kVerdicts] = {};
  for (const auto& r : results) ++counts[static_cast<int>(r.evaluation.verdict)];
  return {{"holds", counts[0]},
          {"holds_different", counts[1]},
          {"does_not_hold", counts[2]},
          {"no_record", counts[3]},
          {"not_testable", counts[4]}};
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
                           {"condition", r.claim->condition},
                           {"verdict", to_string(r.evaluation.verdict)},
                           {"number", r.evaluation.number},
                           {"measured", r.evaluation.measured},
                           {"evidence", r.evaluation.evidence},
                           {"reason", r.evaluation.reason}});
  }
  j["levels"] = nlohmann::json::array();
  for (const auto& l : levels) {
    j["levels"].push_back({{"from_bytes", l.from_bytes},
                           {"to_bytes", l.to_bytes},
                           {"cycles", l.cycles},
                           {"spread", l.spread},
                           {"points", l.points},
                           {"name", l.name}});
  }
  return j;
}

std::string render_table(const std::vector<Result>& results, const std::vector<Level>& levels,
                         const nlohmann::json& context) {
  std::string out;
  int counts[kVerdicts] = {};
  for (const auto& r : results) {
    ++counts[static_cast<int>(r.evaluation.verdict)];
    const std::string verdict = r.evaluation.verdict == Verdict::NotTestable
                                    ? fmt::format("not testable here: {}", r.evaluation.reason)
                                    : std::string(to_string(r.evaluation.verdict));
    out += fmt::format("{:<22} {:<30} {}\n", r.claim->id, verdict, r.evaluation.measured);
    out += fmt::format("    {} ({})\n", r.claim->quote, r.claim->source);
    if (!r.claim->condition.empty())
      out += fmt::format("    precondition: {}\n", r.claim->condition);
    if (!r.evaluation.evidence.empty())
      out += fmt::format("    evidence: {}\n", r.evaluation.evidence);
  }
  out += fmt::format(
      "{} claims: {} hold, {} hold with a different number, {} do not hold, {} "
      "without a record, {} not testable here\n",
      results.size(), counts[0], counts[1], counts[2], counts[3], counts[4]);
  if (!levels.empty()) {
    out += "latency levels (hierarchy chase_ca: plateaus flat within 3%):\n";
    for (const auto& l : levels) {
      out += fmt::format(
          "  {:<7} {:>12} .. {:>12} bytes: {:.0f} cycles ({} working sets, within "
          "{:.1f}%)\n",
          l.name, l.from_bytes, l.to_bytes, l.cycles, l.points, 100 * l.spread);
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
    if (!c.condition.empty()) out += fmt::format("    precondition: {}\n", c.condition);
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
