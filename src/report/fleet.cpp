#include "memlab/report/fleet.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <tuple>

#include "memlab/bench/params.hpp"
#include "memlab/bench/record.hpp"
#include "memlab/common/error.hpp"

namespace memlab::report {

using nlohmann::json;

std::vector<int> parse_devices(const std::string& text, int count) {
  const std::string accepted =
      count > 0 ? fmt::format("accepted: all, or GPU ordinals 0..{} separated by commas", count - 1)
                : std::string("accepted: all, or GPU ordinals separated by commas");
  if (text.empty()) throw UsageError("--devices: '' names no GPU; " + accepted);
  std::vector<int> out;
  if (text == "all") {
    for (int i = 0; i < count; ++i) out.push_back(i);
    return out;
  }
  std::set<int> seen;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = text.find(',', pos);
    const std::string item =
        text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    char* end = nullptr;
    errno = 0;
    const long v = item.empty() || item[0] == '-' || item[0] == '+' || item[0] == ' '
                       ? -1
                       : std::strtol(item.c_str(), &end, 10);
    if (v < 0 || errno != 0 || end == nullptr || *end != '\0' || v > 1023) {
      throw UsageError(fmt::format("--devices: '{}' is not a GPU ordinal; {}", item, accepted));
    }
    if (!seen.insert(static_cast<int>(v)).second) {
      throw UsageError(fmt::format("--devices: GPU {} is listed twice; {}", v, accepted));
    }
    out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  for (int d : out) {
    if (count >= 0 && d >= count) {
      throw UsageError(
          fmt::format("--devices: GPU {} does not exist (this machine has {} GPU{}); {}", d, count,
                      count == 1 ? "" : "s", accepted));
    }
  }
  return out;
}

namespace {

std::string point_of(const json& rec) {
  std::vector<std::pair<std::string, std::string>> params;
  if (rec.contains("params")) {
    for (const auto& [k, v] : rec["params"].items()) params.emplace_back(k, v.get<std::string>());
  }
  return bench::format_point(params);
}

json worker_label(const json& device, int rank, const std::string& host) {
  return {{"rank", rank},
          {"host", host},
          {"device", device.value("ordinal", -1)},
          {"name", device.value("name", "")},
          {"uuid", device.value("uuid", "")}};
}

std::string label_text(const json& w) {
  std::string s = fmt::format("GPU{} {}", w.value("device", -1), w.value("name", ""));
  const std::string host = w.value("host", "");
  if (!host.empty()) s += fmt::format(" on {} rank {}", host, w.value("rank", 0));
  return s;
}

}  // namespace

std::string merge_runs(const std::vector<WorkerRun>& runs, const std::string& mode,
                       const std::string& command_line) {
  json out;
  out["schema_version"] = bench::kSchemaVersion;
  json workers = json::array(), records = json::array();
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, json> groups;  // key -> {"first": record, "entries": [...]}
  std::vector<Key> order;
  for (const WorkerRun& w : runs) {
    json worker = {
        {"rank", w.rank}, {"host", w.host}, {"exit_code", w.exit_code}, {"error", w.error}};
    if (w.json.empty()) {
      worker["device"] = nullptr;
      workers.push_back(std::move(worker));
      continue;
    }
    json doc;
    try {
      doc = json::parse(w.json);
    } catch (const json::parse_error& e) {
      throw std::runtime_error(fmt::format("worker {}: malformed run JSON: {}", w.rank, e.what()));
    }
    if (!doc.contains("context") || !doc.contains("records")) {
      throw std::runtime_error(fmt::format("worker {}: run JSON without context/records", w.rank));
    }
    const json device = doc["context"].value("device", json::object());
    const json tag = {{"index", device.value("ordinal", -1)},
                      {"name", device.value("name", "")},
                      {"uuid", device.value("uuid", "")}};
    if (!out.contains("context")) {
      out["context"] = doc["context"];
      out["context"]["command_line"] = command_line;
      out["ceilings"] = doc.value("ceilings", json::object());
    }
    worker["device"] = tag;
    worker["context"] = doc["context"];
    worker["ceilings"] = doc.value("ceilings", json::object());
    workers.push_back(std::move(worker));
    for (json rec : doc["records"]) {
      rec["device"] = tag;
      rec["host"] = w.host;
      rec["rank"] = w.rank;
      if (rec.value("status", "") == "timed" && rec.contains("stats")) {
        const Key key{rec.value("experiment", ""), rec.value("variant", ""), point_of(rec)};
        if (groups.find(key) == groups.end()) {
          order.push_back(key);
          groups[key] = {{"params", rec.value("params", json::object())},
                         {"entries", json::array()}};
        }
        json entry = worker_label(device, w.rank, w.host);
        entry["median_ms"] = rec["stats"].value("median_ms", 0.0);
        entry["gbps"] = rec.value("gbps", 0.0);
        groups[key]["entries"].push_back(std::move(entry));
      }
      records.push_back(std::move(rec));
    }
  }
  json summary = json::array();
  for (const Key& key : order) {
    json& g = groups[key];
    json& entries = g["entries"];
    if (entries.size() < 2) continue;
    std::vector<double> m;
    for (const json& e : entries) m.push_back(e["median_ms"].get<double>());
    std::vector<double> sorted = m;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double mid = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    const auto slow = static_cast<std::size_t>(std::max_element(m.begin(), m.end()) - m.begin());
    const auto fast = static_cast<std::size_t>(std::min_element(m.begin(), m.end()) - m.begin());
    summary.push_back({{"experiment", std::get<0>(key)},
                       {"variant", std::get<1>(key)},
                       {"point", std::get<2>(key)},
                       {"params", g["params"]},
                       {"medians_ms", entries},
                       {"spread", mid > 0 ? (sorted.back() - sorted.front()) / mid : 0.0},
                       {"slowest", entries[slow]},
                       {"fastest", entries[fast]}});
  }
  if (!out.contains("context")) out["context"] = json::object();
  out["records"] = std::move(records);
  out["fleet"] = {{"mode", mode}, {"workers", std::move(workers)}, {"summary", std::move(summary)}};
  return out.dump(2) + "\n";
}

std::string render_fleet_table(const std::string& merged_json, double flag_spread) {
  const json doc = json::parse(merged_json);
  const json& fleet = doc.at("fleet");
  std::string out =
      fmt::format("fleet: {} workers ({})\n", fleet.at("workers").size(), fleet.value("mode", ""));
  for (const json& w : fleet.at("workers")) {
    if (w["device"].is_null()) {
      out += fmt::format("  worker {}: no result (exit {}): {}\n", w.value("rank", 0),
                         w.value("exit_code", 0), w.value("error", ""));
    }
  }
  const json& summary = fleet.at("summary");
  if (summary.empty()) return out + "  no record was timed on two or more workers\n";
  std::vector<std::vector<std::string>> rows{
      {"experiment", "variant", "point", "fastest", "slowest", "spread", "slowest worker"}};
  for (const json& s : summary) {
    const double spread = s.value("spread", 0.0);
    rows.push_back({s.value("experiment", ""), s.value("variant", ""), s.value("point", ""),
                    fmt::format("{:.4g} ms", s["fastest"].value("median_ms", 0.0)),
                    fmt::format("{:.4g} ms", s["slowest"].value("median_ms", 0.0)),
                    fmt::format("{:.1f}%{}", 100.0 * spread, spread > flag_spread ? " <-" : ""),
                    label_text(s["slowest"])});
  }
  std::vector<std::size_t> width(rows[0].size(), 0);
  for (const auto& r : rows)
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  for (const auto& r : rows) {
    out += " ";
    for (std::size_t i = 0; i < r.size(); ++i) out += fmt::format(" {:<{}}", r[i], width[i]);
    out += "\n";
  }
  out += fmt::format(
      "  spread = (slowest - fastest) / median of the workers' medians; <- above {:.0f}%\n",
      100.0 * flag_spread);
  return out;
}

}  // namespace memlab::report
