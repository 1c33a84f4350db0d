#include "memlab/report/compare.hpp"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "memlab/bench/params.hpp"
#include "memlab/bench/record.hpp"
#include "memlab/common/error.hpp"

namespace memlab::report {
namespace {

struct Entry {
  bool verified = false;
  bool timed = false;
  double median = 0;
};

std::map<std::tuple<std::string, std::string, std::string>, Entry> load(const std::string& text,
                                                                        const std::string& name) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(fmt::format("{}: not a memlab JSON report ({})", name, e.what()));
  }
  if (!j.is_object() || !j.contains("schema_version") || !j.contains("records")) {
    throw UsageError(fmt::format("{}: not a memlab JSON report (no schema_version/records)", name));
  }
  if (j["schema_version"] != bench::kSchemaVersion) {
    throw UsageError(fmt::format("{}: schema_version {} is not supported; accepted: {}", name,
                                 j["schema_version"].dump(), bench::kSchemaVersion));
  }
  std::map<std::tuple<std::string, std::string, std::string>, Entry> out;
  for (const auto& r : j["records"]) {
    // A skipped variant (it does not apply at the point) was neither checked nor timed.
    if (r.value("status", "") == "skipped") continue;
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& [k, v] : r.at("params").items()) values.emplace_back(k, v.get<std::string>());
    const std::string point = bench::format_point(values);
    Entry e;
    // A variant broken on purpose (its record carries "expected_failure") fails by design.
    e.verified = r.value("verified", false) || r.contains("expected_failure");
    e.timed = r.value("timed", false);
    if (e.timed) e.median = r.at("stats").at("median_ms").get<double>();
    out[{r.at("experiment").get<std::string>(), r.at("variant").get<std::string>(), point}] = e;
  }
  return out;
}

}  // namespace

double parse_threshold(const std::string& text) {
  std::string t = text;
  const bool percent = !t.empty() && t.back() == '%';
  if (percent) t.pop_back();
  double v = 0;
  std::size_t used = 0;
  try {
    v = std::stod(t, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != t.size() || !(v > 0)) {
    throw UsageError(
        fmt::format("--threshold: '{}' is not accepted; accepted: a positive "
                    "percentage such as 5% (or a fraction such as 0.05)",
                    text));
  }
  if (percent || v >= 1.0) v /= 100.0;
  return v;
}

CompareResult compare_reports(const std::string& base_json, const std::string& new_json,
                              double threshold, const std::string& base_name,
                              const std::string& new_name) {
  const auto base = load(base_json, base_name);
  const auto next = load(new_json, new_name);
  CompareResult res;
  auto label = [](const auto& key) {
    return fmt::format("{} {} {}", std::get<0>(key), std::get<1>(key), std::get<2>(key));
  };
  for (const auto& [key, b] : base) {
    auto it = next.find(key);
    if (it == next.end()) {
      res.only_base.push_back(label(key));
      continue;
    }
    const Entry& n = it->second;
    if (!n.verified) {
      res.failed_new.push_back(label(key));
      continue;
    }
    if (!b.timed || !n.timed) continue;
    Comparison c{std::get<0>(key),
                 std::get<1>(key),
                 std::get<2>(key),
                 b.median,
                 n.median,
                 n.median / b.median - 1.0,
                 false};
    c.regression = c.change > threshold;
    if (c.regression) ++res.regressions;
    res.rows.push_back(c);
  }
  for (const auto& [key, n] : next) {
    if (base.count(key) == 0) {
      res.only_new.push_back(label(key));
      if (!n.verified) res.failed_new.push_back(label(key));
    }
  }
  return res;
}

}  // namespace memlab::report
