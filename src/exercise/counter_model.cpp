#include "exercise/counter_model.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <map>
#include <optional>

#include "exercise/quiz.hpp"
#include "memlab/common/error.hpp"

namespace memlab::exercise {
namespace {

using bench::Counter;
using nlohmann::json;

bool usable(double v) {
  return std::isfinite(v) && v >= 0;
}

const CounterFigure* find_figure(const std::string& key) {
  for (const CounterFigure& f : kCounterFigures) {
    if (key == f.key) return &f;
  }
  return nullptr;
}

std::string figure_keys() {
  std::string out;
  for (const CounterFigure& f : kCounterFigures)
    out += (out.empty() ? "" : ", ") + std::string(f.key);
  return out;
}

// The measuring point's integer axes, for "arithmetic" models.
std::map<std::string, std::int64_t> point_vars(const Exercise& e) {
  std::map<std::string, std::int64_t> vars;
  for (auto it = e.spec.at("measure_point").begin(); it != e.spec.at("measure_point").end(); ++it) {
    if (!it.value().is_string()) continue;
    const std::string v = it.value().get<std::string>();
    if (!v.empty() && v.size() < 19 && v.find_first_not_of("0123456789") == std::string::npos) {
      vars[it.key()] = std::stoll(v);
    }
  }
  return vars;
}

bool has_languages(const json& j) {
  if (!j.is_object()) return false;
  for (const char* lang : kLanguages) {
    if (!j.contains(lang) || !j[lang].is_string() || j[lang].get<std::string>().empty()) {
      return false;
    }
  }
  return true;
}

std::string en(const json& j) {
  return j.is_object() && j.contains("en") && j["en"].is_string() ? j["en"].get<std::string>()
                                                                  : std::string();
}

std::string number(double v) {
  if (v >= 1e6) return fmt::format("{:.3g}", v);
  if (std::fabs(v - std::round(v)) < 0.05) return fmt::format("{:.0f}", v);
  return fmt::format("{:.2f}", v);
}

// How far `a` is from `b`, as a factor >= 1 (infinite when one of them is 0 and not the other).
double factor(double a, double b) {
  if (a == b) return 1.0;
  if (!(a > 0) || !(b > 0)) return INFINITY;
  return a > b ? a / b : b / a;
}

}  // namespace

std::vector<Counter> exercise_counters() {
  return {
      Counter::DramBytesRead,         Counter::DramBytesWrite,     Counter::GlobalLoadSectors,
      Counter::GlobalLoadRequests,    Counter::GlobalStoreSectors, Counter::GlobalStoreRequests,
      Counter::SharedLoads,           Counter::SharedStores,       Counter::SharedLoadWavefronts,
      Counter::SharedStoreWavefronts, Counter::AchievedOccupancy};
}

json derive_figures(const std::vector<Counter>& counters, const std::vector<double>& values,
                    double useful_bytes) {
  if (counters.size() != values.size()) {
    throw std::logic_error(
        fmt::format("derive_figures: {} counters, {} values", counters.size(), values.size()));
  }
  std::optional<double> v[std::size(bench::kCounters)];
  json out = {{"metrics", json::object()}};
  for (std::size_t i = 0; i < counters.size(); ++i) {
    const char* metric = bench::counter_info(counters[i]).metric;
    // NaN is not JSON: a value CUPTI could not give is null.
    out["metrics"][metric] = std::isfinite(values[i]) ? json(values[i]) : json();
    if (usable(values[i])) v[static_cast<std::size_t>(counters[i])] = values[i];
  }
  auto get = [&](Counter c) { return v[static_cast<std::size_t>(c)]; };
  auto per = [&](const char* key, Counter num, Counter den) {
    if (get(num) && get(den) && *get(den) > 0) out[key] = *get(num) / *get(den);
  };
  per("sectors_per_load_request", Counter::GlobalLoadSectors, Counter::GlobalLoadRequests);
  per("sectors_per_store_request", Counter::GlobalStoreSectors, Counter::GlobalStoreRequests);
  per("wavefronts_per_shared_load", Counter::SharedLoadWavefronts, Counter::SharedLoads);
  per("wavefronts_per_shared_store", Counter::SharedStoreWavefronts, Counter::SharedStores);
  if (get(Counter::DramBytesRead) && get(Counter::DramBytesWrite)) {
    const double dram = *get(Counter::DramBytesRead) + *get(Counter::DramBytesWrite);
    out["dram_bytes"] = dram;
    if (useful_bytes > 0) out["dram_over_useful"] = dram / useful_bytes;
  }
  if (useful_bytes > 0) out["useful_bytes"] = useful_bytes;
  if (get(Counter::GlobalLoadRequests))
    out["global_load_requests"] = *get(Counter::GlobalLoadRequests);
  if (get(Counter::AchievedOccupancy))
    out["achieved_occupancy_pct"] = *get(Counter::AchievedOccupancy);
  return out;
}

json counter_models(const Exercise& e) {
  json out = json::array();
  if (!e.spec.contains("counters")) return out;
  const auto vars = point_vars(e);
  for (const json& f : e.spec.at("counters").at("figures")) {
    const std::string key = f.at("figure").get<std::string>();
    const CounterFigure* fig = find_figure(key);
    if (fig == nullptr) {
      throw UsageError(
          fmt::format("counters: figure {} unknown; accepted: {}", key, figure_keys()));
    }
    json item = {{"figure", key}, {"unit", fig->unit}, {"what", f.at("what")}};
    for (const char* side : {"intended", "starter"}) {
      const json& s = f.at(side);
      item[side] = {
          {"label", s.at("label")}, {"model", s.at("model")}, {"value", model_answer(s, vars)}};
    }
    out.push_back(item);
  }
  return out;
}

std::vector<std::string> counter_variants(const Exercise& e) {
  std::vector<std::string> out;
  auto add = [&](const json& v) {
    if (!v.is_string()) return;
    const std::string name = v.get<std::string>();
    for (const std::string& o : out) {
      if (o == name) return;
    }
    out.push_back(name);
  };
  const json c = e.spec.value("counters", json::object());
  if (c.contains("compare")) {
    for (const json& v : c["compare"]) add(v);
    return out;
  }
  add(e.spec.value("naive", json()));
  add(e.spec.value("check_as", json()));
  if (e.spec.contains("target")) add(e.spec["target"].value("variant", json()));
  return out;
}

std::vector<std::string> validate_counters(const Exercise& e) {
  std::vector<std::string> bad;
  if (!e.spec.contains("counters")) return bad;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) bad.push_back(e.name + ": counters: " + what);
  };
  const json& c = e.spec["counters"];
  need(c.is_object(), "an object {figures, compare}");
  if (!c.is_object()) return bad;
  for (auto it = c.begin(); it != c.end(); ++it) {
    need(it.key() == "figures" || it.key() == "compare",
         fmt::format("key \"{}\" unknown (figures, compare)", it.key()));
  }
  need(c.contains("figures") && c["figures"].is_array() && !c["figures"].empty(),
       "\"figures\": a non-empty array");
  if (c.contains("compare")) {
    need(c["compare"].is_array() && !c["compare"].empty(), "\"compare\": a non-empty array");
    for (const json& v : c.value("compare", json::array())) {
      need(v.is_string(), "compare: variant names");
    }
  }
  if (!bad.empty()) return bad;
  for (std::size_t i = 0; i < c["figures"].size(); ++i) {
    const json& f = c["figures"][i];
    const std::string at = fmt::format("figures[{}]", i);
    need(f.is_object() && f.contains("figure") && f["figure"].is_string() &&
             find_figure(f["figure"].get<std::string>()) != nullptr,
         at + ".figure: one of " + figure_keys());
    need(f.is_object() && f.contains("what") && has_languages(f["what"]),
         at + ".what: text in de, en and zh");
    for (const char* side : {"intended", "starter"}) {
      const bool ok = f.is_object() && f.contains(side) && f[side].is_object();
      need(ok, fmt::format("{}.{} missing", at, side));
      if (!ok) continue;
      need(f[side].contains("label") && has_languages(f[side]["label"]),
           fmt::format("{}.{}.label: text in de, en and zh", at, side));
      need(f[side].contains("model") && f[side]["model"].is_object(),
           fmt::format("{}.{}.model: a model {{name, params, field}}", at, side));
    }
  }
  if (!bad.empty()) return bad;
  try {
    for (const json& m : counter_models(e)) {
      for (const char* side : {"intended", "starter"}) {
        const double v = m[side]["value"].get<double>();
        need(std::isfinite(v) && v >= 0,
             fmt::format("{}: the {} model gives {}", m["figure"].get<std::string>(), side, v));
      }
    }
  } catch (const std::exception& ex) {
    bad.push_back(e.name + ": counters: " + ex.what());
  }
  return bad;
}

json explain_counters(const json& counters, bool target_met) {
  const json& yours = counters.value("yours", json::object());
  const json& models = counters.value("model", json::array());
  if (!yours.is_object() || !models.is_array() || models.empty()) return json::object();
  const json* worst = nullptr;
  double worst_factor = 0;
  const json* first = nullptr;
  for (const json& m : models) {
    const std::string key = m.value("figure", "");
    if (!yours.contains(key) || !yours[key].is_number()) continue;
    if (first == nullptr) first = &m;
    const double f = factor(yours[key].get<double>(), m["intended"].value("value", 0.0));
    if (f > worst_factor) {
      worst_factor = f;
      worst = &m;
    }
  }
  if (first == nullptr) return json::object();  // no declared figure was measured
  const bool off = worst_factor > 1.25;
  const json& m = off ? *worst : *first;
  const std::string key = m["figure"].get<std::string>();
  const double y = yours[key].get<double>();
  const double intended = m["intended"].value("value", 0.0);
  const double starter = m["starter"].value("value", 0.0);
  const std::string unit = m.value("unit", "");
  std::string note;
  if (off && key.rfind("wavefronts", 0) == 0 && y >= 1.5) {
    note = fmt::format(" ({}-way conflict)", number(std::round(y)));
  } else if (off && intended > 0) {
    note = fmt::format(" ({:.1f}x the model's {})", y / intended, number(intended));
  }
  json parts = {{"figure", key},
                {"yours", y},
                {"intended", intended},
                {"starter", starter},
                {"off", off},
                {"closer_to", factor(y, starter) < factor(y, intended) ? "starter" : "intended"}};
  std::string text;
  const std::string what = en(m["what"]);
  const std::string label = en(m["intended"]["label"]);
  if (off) {
    text = fmt::format("your {}: {} {}{}; {}: {}", what, number(y), unit, note, label,
                       number(intended));
  } else if (!target_met) {
    text = fmt::format(
        "your {}: {} {}, as the model predicts for {} ({}): this counter does not explain the "
        "missed target; compare the time with the lesson's variants",
        what, number(y), unit, label, number(intended));
  } else {
    text = fmt::format("your {}: {} {}, as the model predicts for {} ({})", what, number(y), unit,
                       label, number(intended));
  }
  parts["text"] = text;
  return parts;
}

}  // namespace memlab::exercise
