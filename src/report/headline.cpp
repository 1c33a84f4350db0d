// report::lesson_headline: one experiment's headline from a run's JSON (docs/lessons-json.md).
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "headline_detail.hpp"
#include "memlab/report/headline.hpp"

namespace memlab::report {

using nlohmann::json;

const std::vector<std::string>& default_vendor_variants() {
  static const std::vector<std::string> v{"cublas", "cub",   "cudaMemcpy",
                                          "memcpy", "cufft", "thrust"};
  return v;
}

std::string record_status(const json& r) {
  if (r.contains("status") && r["status"].is_string()) return r["status"].get<std::string>();
  if (r.value("skipped", false)) return "skipped";
  if (r.contains("expected_failure") && r["expected_failure"].is_string() &&
      !r["expected_failure"].get<std::string>().empty()) {
    return "expected_failure";
  }
  if (!r.value("verified", true)) return "failed";
  return r.value("timed", false) ? "timed" : "verified";
}

namespace detail {

double number(const json& j, const char* key) {
  if (!j.is_object()) return 0;
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : 0;
}

std::string text(const json& j, const char* key) {
  if (!j.is_object()) return "";
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string point_of(const json& record) {
  std::string out;
  if (!record.contains("params") || !record["params"].is_object()) return out;
  for (const auto& [k, v] : record["params"].items()) {
    out += (out.empty() ? "" : " ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

std::vector<const json*> records_of(const json& run, const std::string& experiment) {
  std::vector<const json*> out;
  if (!run.contains("records") || !run["records"].is_array()) return out;
  for (const json& r : run["records"]) {
    if (r.is_object() && text(r, "experiment") == experiment) out.push_back(&r);
  }
  return out;
}

std::vector<std::string> experiments_of(const json& run) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  if (!run.contains("records") || !run["records"].is_array()) return out;
  for (const json& r : run["records"]) {
    const std::string e = text(r, "experiment");
    if (!e.empty() && seen.insert(e).second) out.push_back(e);
  }
  return out;
}

}  // namespace detail

namespace {

using detail::number;
using detail::text;

bool same_name(const std::string& a, const std::string& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

struct Figure {
  std::string field;  // "gbps", "gflops", "median_ms", "figure:NAME"
  std::string unit;
  bool higher = true;
};

std::optional<double> value_of(const json& r, const Figure& f) {
  double v = 0;
  if (f.field == "median_ms") {
    v = r.contains("stats") ? number(r["stats"], "median_ms") : 0;
  } else if (f.field.rfind("figure:", 0) == 0) {
    if (!r.contains("figures") || !r["figures"].is_object()) return std::nullopt;
    const auto it = r["figures"].find(f.field.substr(7));
    if (it == r["figures"].end() || !it->is_number()) return std::nullopt;
    v = it->get<double>();
  } else {
    v = number(r, f.field.c_str());
  }
  if (!std::isfinite(v) || v <= 0) return std::nullopt;
  return v;
}

// The figure the point is ranked by (see the header).
Figure choose_figure(const std::vector<const json*>& timed) {
  std::map<std::string, std::size_t> cycles;
  for (const json* r : timed) {
    if (!r->contains("figures") || !(*r)["figures"].is_object()) continue;
    for (const auto& [k, v] : (*r)["figures"].items()) {
      if (v.is_number() && k.find("cycles_per_") != std::string::npos) ++cycles[k];
    }
  }
  const auto most =
      std::max_element(cycles.begin(), cycles.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most != cycles.end() && 2 * most->second >= timed.size()) {
    const std::string per = most->first.substr(most->first.find("cycles_per_") + 11);
    return {"figure:" + most->first, "cycles/" + per, false};
  }
  auto all = [&](const char* key) {
    return std::all_of(timed.begin(), timed.end(), [key](const json* r) {
      return number(*r, key) > 0 && (std::string(key) != "gflops" || number(*r, "flops") > 0);
    });
  };
  if (all("gflops")) return {"gflops", "GFLOP/s", true};
  if (all("gbps")) return {"gbps", "GB/s", true};
  return {"median_ms", "ms", false};
}

json entry(const std::string& variant, double value) {
  return {{"variant", variant}, {"value", value}};
}

json model_agreement(const std::vector<const json*>& records) {
  std::size_t within = 0, of = 0;
  double worst = 0;
  for (const json* r : records) {
    if (!r->contains("prediction") || !(*r)["prediction"].is_object()) continue;
    const double ratio = number((*r)["prediction"], "measured_over_predicted");
    if (!(ratio > 0) || !std::isfinite(ratio)) continue;
    ++of;
    if (ratio >= 0.85 && ratio <= 1.15) ++within;
    if (worst == 0 || std::fabs(std::log(ratio)) > std::fabs(std::log(worst))) worst = ratio;
  }
  json m = {{"within_15pct", within}, {"of", of}};
  if (of > 0) m["worst_ratio"] = worst;
  return m;
}

json status_counts(const std::vector<const json*>& records) {
  json c = {{"timed", 0}, {"verified", 0}, {"failed", 0}, {"skipped", 0}, {"expected_failure", 0}};
  for (const json* r : records) {
    const std::string s = record_status(*r);
    c[s] = c.value(s, 0) + 1;
  }
  return c;
}

}  // namespace

json lesson_headline(const json& run, const std::string& experiment, const std::string& baseline,
                     const std::vector<std::string>& vendor_list) {
  const std::vector<std::string>& vendors =
      vendor_list.empty() ? default_vendor_variants() : vendor_list;
  const std::vector<const json*> records = detail::records_of(run, experiment);
  json h = {{"figure", nullptr},    {"unit", nullptr},    {"better", nullptr},
            {"at", nullptr},        {"point", nullptr},   {"best", nullptr},
            {"baseline", nullptr},  {"speedup", nullptr}, {"vendor", nullptr},
            {"pct_vendor", nullptr}};
  h["model"] = model_agreement(records);
  h["counts"] = status_counts(records);

  // The headline point: the most variants timed, then the largest working set and bytes.
  struct Point {
    std::vector<const json*> timed;
    std::set<std::string> variants;
    double working_set = 0, bytes = 0;
  };
  std::vector<std::pair<std::string, Point>> points;
  for (const json* r : records) {
    if (record_status(*r) != "timed") continue;
    const std::string at = detail::point_of(*r);
    auto it =
        std::find_if(points.begin(), points.end(), [&](const auto& p) { return p.first == at; });
    if (it == points.end()) {
      points.emplace_back(at, Point{});
      it = points.end() - 1;
    }
    it->second.timed.push_back(r);
    it->second.variants.insert(text(*r, "variant"));
    it->second.working_set = std::max(it->second.working_set, number(*r, "working_set_bytes"));
    it->second.bytes = std::max(it->second.bytes, number(*r, "bytes"));
  }
  if (points.empty()) return h;
  const auto* chosen = &points.front();
  for (const auto& p : points) {
    const auto key = [](const Point& q) {
      return std::make_tuple(q.variants.size(), q.working_set, q.bytes);
    };
    if (key(p.second) > key(chosen->second)) chosen = &p;
  }
  const std::vector<const json*>& timed = chosen->second.timed;
  const Figure fig = choose_figure(timed);
  h["figure"] = fig.field;
  h["unit"] = fig.unit;
  h["better"] = fig.higher ? "higher" : "lower";
  h["at"] = chosen->first;
  h["point"] = timed.front()->value("params", json::object());

  auto better = [&](double a, double b) { return fig.higher ? a > b : a < b; };
  auto is_vendor = [&](const std::string& v) {
    return std::any_of(vendors.begin(), vendors.end(),
                       [&](const std::string& name) { return same_name(name, v); });
  };
  const std::string base = baseline.empty() ? text(*timed.front(), "baseline") : baseline;
  std::optional<std::pair<std::string, double>> best, best_any, base_v, vendor;
  for (const json* r : timed) {
    const auto v = value_of(*r, fig);
    if (!v) continue;
    const std::string name = text(*r, "variant");
    auto keep = [&](std::optional<std::pair<std::string, double>>& slot) {
      if (!slot || better(*v, slot->second)) slot = std::make_pair(name, *v);
    };
    keep(best_any);
    if (is_vendor(name)) {
      keep(vendor);
    } else {
      keep(best);
    }
    if (!base.empty() && name == base) base_v = std::make_pair(name, *v);
  }
  if (!best) best = best_any;
  if (!best) return h;
  h["best"] = entry(best->first, best->second);
  auto ratio = [&](double ours, double theirs) {
    return fig.higher ? ours / theirs : theirs / ours;
  };
  if (base_v) {
    h["baseline"] = entry(base_v->first, base_v->second);
    h["speedup"] = ratio(best->second, base_v->second);
  }
  if (vendor) {
    h["vendor"] = entry(vendor->first, vendor->second);
    h["pct_vendor"] = 100.0 * ratio(best->second, vendor->second);
  }
  return h;
}

}  // namespace memlab::report
