// The claims' shared verdict rules (src/claims/table*.cpp): record look-ups, ratios and the judge.
// Internal to src/claims/.
#pragma once

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

#include "memlab/claims/claims.hpp"

namespace memlab::claims::rules {

using Json = nlohmann::json;
using Point = std::map<std::string, std::string>;

inline const std::string k000 = "000_8337f15f37bac5ed.txt:";
inline const std::string k001 = "001_ac69ca6544deb750.txt:";
inline const std::string k002 = "002_e800db24ba7d1405.txt:";
inline const std::string k003 = "003_5dda8de8f2f4989a.txt:";
inline const std::string k004 = "004_0b408c8cb173ece1.txt:";

inline double median(const Json& r) {
  return r.at("stats").at("median_ms").get<double>();
}

inline double figure(const Json& r, const std::string& name) {
  if (!r.contains("figures") || !r["figures"].contains(name)) return NAN;
  return r["figures"][name].get<double>();
}

inline std::string label(const Json& r) {
  std::string s = r.value("experiment", "") + " " + r.value("variant", "");
  if (r.contains("params")) {
    for (const auto& [k, v] : r["params"].items()) s += " " + k + "=" + v.get<std::string>();
  }
  return s;
}

// In [lo, hi]: holds; on the claimed side of 1 (same direction) but outside: a different number;
// otherwise it does not hold.
inline Evaluation judge(double x, double lo, double hi, double direction, const std::string& unit,
                        std::string evidence) {
  Evaluation e;
  e.number = x;
  e.measured = fmt::format("{:.3g}{}", x, unit);
  e.evidence = std::move(evidence);
  if (!std::isfinite(x)) {
    e.verdict = Verdict::NoRecord;
  } else if (x >= lo && x <= hi) {
    e.verdict = Verdict::Holds;
  } else if (x > direction) {
    e.verdict = Verdict::HoldsDifferent;
  } else {
    e.verdict = Verdict::DoesNotHold;
  }
  return e;
}

inline Evaluation missing(const std::string& what) {
  Evaluation e;
  e.evidence = "no record of " + what;
  return e;
}

// Time ratio slow / fast of two records (fast, slow given as experiment/variant/point).
inline Evaluation time_ratio(const Records& rs, const std::string& exp, const std::string& slow,
                             const Point& ps, const std::string& fast, const Point& pf, double lo,
                             double hi) {
  const Json* a = rs.find(exp, slow, ps);
  // The fast record at the slow one's point (all its parameters, not only those the claim names).
  Point differ;
  for (const auto& [k, v] : pf) {
    if (!ps.count(k) || ps.at(k) != v) differ[k] = v;
  }
  const Json* b = a == nullptr ? nullptr : rs.find_like(*a, fast, differ);
  if (a == nullptr || b == nullptr) return missing(exp + " " + slow + "/" + fast);
  return judge(
      median(*a) / median(*b), lo, hi, 1.0, "x",
      fmt::format("{}: {:.4g} ms; {}: {:.4g} ms", label(*a), median(*a), label(*b), median(*b)));
}

// Cycles per load of a hierarchy chase at the largest (or smallest) working set recorded.
inline const Json* chase_at(const Records& rs, const std::string& variant, bool largest) {
  const Json* best = nullptr;
  double best_ws = 0;
  for (const Json* r : rs.all("hierarchy", variant)) {
    const double ws = std::stod(r->at("params").at("ws").get<std::string>());
    if (best == nullptr || (largest ? ws > best_ws : ws < best_ws)) {
      best = r;
      best_ws = ws;
    }
  }
  return best;
}

inline Evaluation cycles_claim(const Records& rs, const std::string& exp,
                               const std::string& variant, const Point& p, double lo, double hi,
                               double same_side) {
  const Json* r = exp == "hierarchy" ? chase_at(rs, variant, false) : rs.find(exp, variant, p);
  if (r == nullptr) return missing(exp + " " + variant);
  const double c = figure(*r, "cycles_per_load");
  return judge(c, lo, hi, same_side, " cycles",
               fmt::format("{}: {:.3g} cycles/load", label(*r), c));
}

inline Evaluation device_claim(const Records& rs, const std::string& key, double lo, double hi,
                               const std::string& unit, double scale) {
  const Json& ctx = rs.context();
  if (!ctx.contains("device") || !ctx["device"].contains(key)) return missing("device " + key);
  const double x = ctx["device"][key].get<double>() / scale;
  return judge(x, lo, hi, 0.0, unit, fmt::format("device {} = {}", key, ctx["device"][key].dump()));
}

inline Need need(std::string exp, std::vector<std::string> variants,
                 std::map<std::string, std::vector<std::string>> axes = {}) {
  return Need{std::move(exp), std::move(variants), std::move(axes)};
}

inline const Point kBank4 = {{"word", "4"}, {"op", "read"}};
inline Point bank(const std::string& stride) {
  Point p = kBank4;
  p["stride"] = stride;
  return p;
}

// The claims of each part of the table, in the order `all()` lists them.
void add_memory_claims(std::vector<Claim>& c);
void add_stream_claims(std::vector<Claim>& c);
void add_device_claims(std::vector<Claim>& c);

}  // namespace memlab::claims::rules
