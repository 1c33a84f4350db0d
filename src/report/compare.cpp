#include "memlab/report/compare.hpp"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "memlab/bench/params.hpp"
#include "memlab/bench/record.hpp"
#include "memlab/common/error.hpp"
#include "memlab/report/significance.hpp"

namespace memlab::report {
namespace {

using Json = nlohmann::json;
using Key = std::tuple<std::string, std::string, std::string>;

struct Entry {
  bool verified = false;
  bool timed = false;
  double median = 0;
  std::vector<double> samples;  // empty: not stored (older reports)
  std::size_t n = 0;
  std::optional<double> mean, stdev;
  std::string mode;  // "cold", "warm" or "" (older reports)
  std::size_t index = 0;
};

struct Report {
  std::map<Key, Entry> entries;
  std::vector<std::string> duplicates;
  std::string device;
};

// A short, non-recursive description of a JSON value for messages (hostile input may nest deep).
std::string describe(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::string: {
      const auto& s = v.get_ref<const std::string&>();
      return s.size() > 40 ? "a string" : "the string \"" + s + "\"";
    }
    case Json::value_t::boolean:
      return v.get<bool>() ? "true" : "false";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::discarded:
      return "invalid";
    default:
      return v.dump();
  }
}

class Loader {
 public:
  explicit Loader(std::string file) : file_(std::move(file)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    throw UsageError(fmt::format("{}: {}{}", file_, where, what));
  }

  Report load(const std::string& text) {
    Json j;
    try {
      j = Json::parse(text);
    } catch (const Json::exception& e) {
      fail("", fmt::format("not a memlab JSON report ({})", e.what()));
    }
    if (!j.is_object() || !j.contains("schema_version") || !j.contains("records")) {
      fail("", "not a memlab JSON report (no schema_version/records)");
    }
    const Json& version = j["schema_version"];
    if (!version.is_number_integer() || version.get<std::int64_t>() < bench::kOldestSchemaVersion ||
        version.get<std::int64_t>() > bench::kSchemaVersion) {
      fail("", fmt::format("schema_version {} is not supported; accepted: {}..{}",
                           describe(version), bench::kOldestSchemaVersion, bench::kSchemaVersion));
    }
    if (!j["records"].is_array()) fail("", "records is not an array");
    Report out;
    if (auto c = j.find("context"); c != j.end() && c->is_object()) {
      if (auto d = c->find("device"); d != c->end() && d->is_object()) {
        if (auto n = d->find("name"); n != d->end() && n->is_string()) out.device = *n;
      }
    }
    std::size_t i = 0;
    for (const Json& r : j["records"]) add(out, r, i++);
    return out;
  }

 private:
  std::string string_field(const Json& r, const char* key, const std::string& where) const {
    auto it = r.find(key);
    if (it == r.end() || !it->is_string()) {
      fail(where, fmt::format("{} is {}; accepted: a string", key,
                              it == r.end() ? "missing" : describe(*it)));
    }
    return it->get<std::string>();
  }

  bool bool_field(const Json& r, const char* key, const std::string& where) const {
    auto it = r.find(key);
    if (it == r.end()) return false;
    if (!it->is_boolean())
      fail(where, fmt::format("{} is {}; accepted: true or false", key, describe(*it)));
    return it->get<bool>();
  }

  // A time in milliseconds: a finite number > 0.
  double time_field(const Json& v, const std::string& name, const std::string& where) const {
    if (!v.is_number() || !(v.get<double>() > 0) || !std::isfinite(v.get<double>())) {
      fail(where,
           fmt::format("{} is {}; accepted: a positive number of milliseconds", name, describe(v)));
    }
    return v.get<double>();
  }

  void add(Report& out, const Json& r, std::size_t i) {
    std::string where = fmt::format("record {}: ", i);
    if (!r.is_object()) fail(where, fmt::format("is {}; accepted: an object", describe(r)));
    // A skipped variant (it does not apply at the point) was neither checked nor timed.
    if (auto st = r.find("status"); st != r.end() && st->is_string() && *st == "skipped") return;
    const std::string experiment = string_field(r, "experiment", where);
    const std::string variant = string_field(r, "variant", where);
    auto params = r.find("params");
    if (params == r.end() || !params->is_object()) {
      fail(where, fmt::format("params is {}; accepted: an object",
                              params == r.end() ? "missing" : describe(*params)));
    }
    std::vector<std::pair<std::string, std::string>> values;
    for (const auto& [k, v] : params->items()) {
      if (v.is_string()) {
        values.emplace_back(k, v.get<std::string>());
      } else if (v.is_number_integer()) {
        values.emplace_back(k, v.dump());
      } else {
        fail(where, fmt::format("params.{} is {}; accepted: a string", k, describe(v)));
      }
    }
    const Key key{experiment, variant, bench::format_point(values)};
    where = fmt::format("record {} ({} {} {}): ", i, experiment, variant, std::get<2>(key));
    Entry e;
    e.index = i;
    // A variant broken on purpose (its record carries "expected_failure") fails by design.
    e.verified = bool_field(r, "verified", where) || r.contains("expected_failure");
    e.timed = bool_field(r, "timed", where);
    if (e.timed) {
      auto s = r.find("stats");
      if (s == r.end() || !s->is_object()) {
        fail(where, fmt::format("stats is {}; accepted: an object with median_ms",
                                s == r.end() ? "missing" : describe(*s)));
      }
      auto median = s->find("median_ms");
      if (median == s->end()) fail(where, "stats.median_ms is missing");
      e.median = time_field(*median, "stats.median_ms", where);
      if (auto v = s->find("samples_ms"); v != s->end()) {
        if (!v->is_array())
          fail(where, fmt::format("stats.samples_ms is {}; accepted: an array", describe(*v)));
        for (std::size_t k = 0; k < v->size(); ++k) {
          e.samples.push_back(time_field((*v)[k], fmt::format("stats.samples_ms[{}]", k), where));
        }
      }
      auto number = [&](const char* name) -> std::optional<double> {
        auto it = s->find(name);
        if (it == s->end()) return std::nullopt;
        if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0) {
          fail(where, fmt::format("stats.{} is {}; accepted: a number >= 0", name, describe(*it)));
        }
        return it->get<double>();
      };
      e.mean = number("mean_ms");
      e.stdev = number("stdev_ms");
      const auto n = number("samples");
      e.n = n && *n < 1e12 ? static_cast<std::size_t>(*n) : e.samples.size();
      if (auto m = s->find("mode"); m != s->end() && m->is_string()) e.mode = *m;
    }
    auto [it, inserted] = out.entries.emplace(key, std::move(e));
    if (!inserted) {
      out.duplicates.push_back(fmt::format("{}: {} {} {} (records {} and {}; the first is used)",
                                           file_, experiment, variant, std::get<2>(key),
                                           it->second.index, i));
    }
  }

  std::string file_;
};

std::string label(const Key& key) {
  return fmt::format("{} {} {}", std::get<0>(key), std::get<1>(key), std::get<2>(key));
}

Comparison classify(const Key& key, const Entry& b, const Entry& n, double threshold) {
  Comparison c;
  c.experiment = std::get<0>(key);
  c.variant = std::get<1>(key);
  c.point = std::get<2>(key);
  c.base_ms = b.median;
  c.new_ms = n.median;
  c.change = n.median / b.median - 1.0;
  if (b.samples.size() >= 2 && n.samples.size() >= 2) {
    c.test = "mann-whitney";
    c.p_value = mann_whitney_p(b.samples, n.samples);
  } else if (b.n >= 2 && n.n >= 2 && b.mean && n.mean && b.stdev && n.stdev) {
    c.test = "welch";
    c.p_value = welch_p(b.n, *b.mean, *b.stdev, n.n, *n.mean, *n.stdev);
  } else {
    c.test = "none";
    c.p_value = 1.0;
  }
  const bool significant = c.p_value < kCompareAlpha;
  if (std::fabs(c.change) <= threshold) {
    c.verdict = Verdict::Same;
  } else if (!significant) {
    c.verdict = Verdict::Unsure;
  } else {
    c.verdict = c.change > 0 ? Verdict::Slow : Verdict::Fast;
  }
  c.regression = c.verdict == Verdict::Slow;
  return c;
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::Same:
      return "SAME";
    case Verdict::Slow:
      return "SLOW";
    case Verdict::Fast:
      return "FAST";
    case Verdict::Unsure:
      return "UNSURE";
  }
  return "?";
}

double parse_threshold(const std::string& text) {
  std::string t = text;
  if (!t.empty() && t.back() == '%') t.pop_back();
  double v = 0;
  std::size_t used = 0;
  const bool plain = !t.empty() && t.find_first_not_of("0123456789.") == std::string::npos;
  if (plain) {
    try {
      v = std::stod(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
  }
  if (!plain || used != t.size() || !(v > 0) || v > 1000) {
    throw UsageError(
        fmt::format("--threshold: '{}' is not accepted; accepted: a percentage in (0, 1000], "
                    "e.g. 5% or 5 (both 5%), 0.5 (0.5%)",
                    text));
  }
  return v / 100.0;
}

CompareResult compare_reports(const std::string& base_json, const std::string& new_json,
                              double threshold, const std::string& base_name,
                              const std::string& new_name) {
  const Report base = Loader(base_name).load(base_json);
  const Report next = Loader(new_name).load(new_json);
  CompareResult res;
  res.duplicates = base.duplicates;
  res.duplicates.insert(res.duplicates.end(), next.duplicates.begin(), next.duplicates.end());
  if (!base.device.empty() && !next.device.empty() && base.device != next.device) {
    res.warnings.push_back(fmt::format("different devices: {} has {}, {} has {}", base_name,
                                       base.device, new_name, next.device));
  }
  std::size_t common = 0;
  int mode_differs = 0;
  for (const auto& [key, b] : base.entries) {
    auto it = next.entries.find(key);
    if (it == next.entries.end()) {
      res.only_base.push_back(label(key));
      continue;
    }
    ++common;
    const Entry& n = it->second;
    if (!n.verified) {
      res.failed_new.push_back(label(key));
      continue;
    }
    if (!b.timed || !n.timed) continue;
    if (!b.mode.empty() && !n.mode.empty() && b.mode != n.mode) ++mode_differs;
    Comparison c = classify(key, b, n, threshold);
    switch (c.verdict) {
      case Verdict::Slow:
        ++res.regressions;
        break;
      case Verdict::Fast:
        ++res.fast;
        break;
      case Verdict::Same:
        ++res.same;
        break;
      case Verdict::Unsure:
        ++res.unsure;
        break;
    }
    res.rows.push_back(std::move(c));
  }
  for (const auto& [key, n] : next.entries) {
    if (base.entries.count(key) == 0) {
      res.only_new.push_back(label(key));
      if (!n.verified) res.failed_new.push_back(label(key));
    }
  }
  if (mode_differs > 0) {
    res.warnings.push_back(fmt::format(
        "{} records were timed cold in one report and warm in the other", mode_differs));
  }
  if (common == 0) {
    throw UsageError(
        fmt::format("{} and {} have no record in common (experiment, variant and "
                    "point); accepted: two reports of the same plan",
                    base_name, new_name));
  }
  if (res.rows.empty() && res.failed_new.empty()) {
    throw UsageError(
        fmt::format("{} and {}: no record is timed in both (verify-only runs?); "
                    "accepted: two timed reports",
                    base_name, new_name));
  }
  return res;
}

}  // namespace memlab::report
