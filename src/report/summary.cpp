// report::run_summary: the run's one-screen summary as JSON (rendered by summary_text.cpp).
#include <algorithm>
#include <map>
#include <set>

#include "headline_detail.hpp"
#include "memlab/claims/claims.hpp"
#include "memlab/report/headline.hpp"

namespace memlab::report {

using detail::number;
using detail::text;
using nlohmann::json;

namespace {

// The axes whose value differs between the lesson's records, as "k=v" of the headline point.
std::string varying_at(const std::vector<const json*>& records, const json& point) {
  std::map<std::string, std::set<std::string>> values;
  for (const json* r : records) {
    if (!r->contains("params") || !(*r)["params"].is_object()) continue;
    for (const auto& [k, v] : (*r)["params"].items()) values[k].insert(v.dump());
  }
  std::string out;
  if (!point.is_object()) return out;
  for (const auto& [k, v] : point.items()) {
    if (values[k].size() < 2) continue;
    out += (out.empty() ? "" : " ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  }
  return out;
}

json lesson_block(const json& run, const std::string& name) {
  if (!run.contains("lessons") || !run["lessons"].is_object()) return nullptr;
  const auto it = run["lessons"].find(name);
  return it != run["lessons"].end() && it->is_object() ? *it : json(nullptr);
}

}  // namespace

json run_summary(const json& run, const std::vector<std::string>& vendors) {
  const json ctx = run.value("context", json::object());
  const json device = ctx.value("device", json::object());
  const json tool = ctx.value("tool", json::object());
  const json clocks = ctx.value("clocks_mhz", json::object());
  json s;
  s["device"] = text(device, "name");
  s["ordinal"] = static_cast<int>(number(device, "ordinal"));
  s["date"] = text(ctx, "date");
  s["commit"] = text(tool, "git_commit");
  s["version"] = text(tool, "version");
  s["seed"] = ctx.contains("seed") ? ctx["seed"] : json(nullptr);
  s["quick"] = ctx.value("quick", false);
  s["command_line"] = text(ctx, "command_line");
  s["clocks"] = {{"sm_start", number(clocks, "sm_start")},
                 {"sm_end", number(clocks, "sm_end")},
                 {"mem_start", number(clocks, "mem_start")},
                 {"mem_end", number(clocks, "mem_end")}};
  const json ceilings = run.value("ceilings", json::object());
  s["memcpy_gbps"] = number(ceilings.value("memcpy_d2d", json::object()), "gbps");
  s["peak_bandwidth_gbps"] = number(device, "peak_bandwidth_gbps");

  json counts = {{"total", 0},  {"timed", 0},   {"verified", 0},
                 {"failed", 0}, {"skipped", 0}, {"expected_failure", 0}};
  std::vector<json> skips;  // {experiment, reason, count} in first-seen order
  json failures = json::array();
  if (run.contains("records") && run["records"].is_array()) {
    for (const json& r : run["records"]) {
      if (!r.is_object()) continue;
      const std::string st = record_status(r);
      counts["total"] = counts["total"].get<int>() + 1;
      counts[st] = counts.value(st, 0) + 1;
      if (st == "skipped") {
        const std::string e = text(r, "experiment");
        const std::string reason =
            r.contains("reason") ? text(r, "reason") : text(r, "skip_reason");
        auto it = std::find_if(skips.begin(), skips.end(), [&](const json& k) {
          return k["experiment"] == e && k["reason"] == reason;
        });
        if (it == skips.end()) {
          skips.push_back({{"experiment", e}, {"reason", reason}, {"count", 0}});
          it = skips.end() - 1;
        }
        (*it)["count"] = (*it)["count"].get<int>() + 1;
      } else if (st == "failed") {
        std::string why = text(r, "check_detail");
        if (why.empty()) why = text(r, "error");
        failures.push_back({{"experiment", text(r, "experiment")},
                            {"variant", text(r, "variant")},
                            {"at", detail::point_of(r)},
                            {"detail", why}});
      }
    }
  }
  std::stable_sort(skips.begin(), skips.end(), [](const json& a, const json& b) {
    return a["count"].get<int>() > b["count"].get<int>();
  });
  s["records"] = counts;
  s["skips"] = skips;
  s["failures"] = failures;

  json lessons = json::array();
  for (const std::string& name : detail::experiments_of(run)) {
    const json block = lesson_block(run, name);
    json headline;
    if (block.is_object() && block.contains("headline") && block["headline"].is_object()) {
      headline = block["headline"];  // a schema-2 run keeps its own
    } else {
      std::vector<std::string> own = vendors;
      if (block.is_object() && block.contains("vendor") && block["vendor"].is_array()) {
        own.clear();
        for (const json& v : block["vendor"]) {
          if (v.is_string()) own.push_back(v.get<std::string>());
        }
        if (own.empty()) own.emplace_back();  // declared: no vendor line (matches nothing)
      }
      headline = lesson_headline(run, name, block.is_object() ? text(block, "baseline") : "", own);
    }
    const json point = headline.value("point", json(nullptr));
    lessons.push_back({{"experiment", name},
                       {"varying", varying_at(detail::records_of(run, name), point)},
                       {"headline", headline}});
  }
  s["lessons"] = lessons;
  try {
    s["claims"] = claims::evaluate_json(run).at("counts");
  } catch (const std::exception&) {
    s["claims"] = nullptr;  // records of a shape the claims cannot read
  }
  s["outputs"] = json::array();
  return s;
}

}  // namespace memlab::report
