#include "runs.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "api_error.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/lessons.hpp"
#include "memlab/report/report.hpp"
#include "memlab/report/run_json.hpp"

namespace memlab::server {
namespace {

constexpr std::size_t kMaxListItems = 64;
constexpr std::size_t kMaxPointsPerExperiment = 4096;

std::vector<std::string> string_list(const nlohmann::json& v, const std::string& key) {
  if (!v.is_array()) throw ApiError(400, key, fmt::format("{}: expected a list", key));
  if (v.size() > kMaxListItems) {
    throw ApiError(400, key,
                   fmt::format("{}: {} items; accepted: at most {}", key, v.size(), kMaxListItems));
  }
  std::vector<std::string> out;
  for (const auto& x : v) {
    if (x.is_string()) {
      const auto& s = x.get_ref<const std::string&>();
      if (s.empty() || s.size() > 64) {
        throw ApiError(400, key, fmt::format("{}: items must be 1..64 characters", key));
      }
      out.push_back(s);
    } else if (x.is_number_integer()) {
      out.push_back(x.dump());
    } else {
      throw ApiError(400, key,
                     fmt::format("{}: a {} is not accepted; accepted: strings or integers", key,
                                 x.type_name()));
    }
  }
  return out;
}

}  // namespace

std::string parameter_of(const std::string& message) {
  const std::size_t colon = message.find(": ");
  if (colon == std::string::npos || colon > 60) return "";
  return message.substr(0, colon);
}

bench::RunRequest parse_run_request(const nlohmann::json& body) {
  if (!body.is_object()) throw ApiError(400, "body", "body: expected a JSON object");
  bench::RunRequest r;
  for (const auto& [key, value] : body.items()) {
    if (key == "experiments") {
      r.experiments = string_list(value, key);
    } else if (key == "variants") {
      r.variants = string_list(value, key);
    } else if (key == "quick") {
      if (!value.is_boolean()) throw ApiError(400, key, "quick: expected true or false");
      r.quick = value.get<bool>();
    } else if (key == "axes") {
      if (!value.is_object()) throw ApiError(400, key, "axes: expected {name: [values]}");
      if (value.size() > 16) throw ApiError(400, key, "axes: at most 16 axes");
      for (const auto& [name, values] : value.items()) {
        r.axes.emplace_back(name, string_list(values, "axes." + name.substr(0, 64)));
        if (r.axes.back().second.empty()) {
          throw ApiError(400, "axes." + name.substr(0, 64),
                         fmt::format("axes.{}: empty list", name.substr(0, 64)));
        }
      }
    } else {
      throw ApiError(400, key.substr(0, 64),
                     fmt::format("{}: unknown key; accepted: experiments, variants, axes, quick",
                                 key.substr(0, 64)));
    }
  }
  return r;
}

// The API's name of the parameter a make_plan/execute message names.
std::string api_parameter(const std::string& message) {
  const std::string p = parameter_of(message);
  if (p == "experiment") return "experiments";
  if (p == "-v/--variants") return "variants";
  if (p.rfind("axis ", 0) == 0) {
    const std::string rest = p.substr(5);
    const std::size_t space = rest.find(' ');  // "axis n=1 of bandwidth" (memory check)
    return space == std::string::npos ? "axes." + rest : "axes";
  }
  if (p == "-a/--axis") {
    const std::size_t q1 = message.find('\'');
    const std::size_t q2 = q1 == std::string::npos ? q1 : message.find('\'', q1 + 1);
    if (q2 != std::string::npos) return "axes." + message.substr(q1 + 1, q2 - q1 - 1);
    const std::size_t eq = message.find('=');
    const std::size_t colon = message.find(": ");
    if (eq != std::string::npos && colon != std::string::npos && eq > colon + 2) {
      return "axes." + message.substr(colon + 2, eq - colon - 2);
    }
    return "axes";
  }
  return p;
}

bench::Plan plan_run(const bench::RunRequest& request) {
  // Bound the cartesian product before make_plan builds it.
  for (const auto& e : bench::experiments()) {
    const bool selected = request.experiments.empty()
                              ? e.in_default_suite
                              : std::find(request.experiments.begin(), request.experiments.end(),
                                          e.name) != request.experiments.end();
    if (!selected) continue;
    std::size_t points = 1;
    for (const auto& axis : e.axes) {
      const auto it = std::find_if(request.axes.begin(), request.axes.end(),
                                   [&](const auto& a) { return a.first == axis.name; });
      const auto& base = request.quick && !axis.quick.empty() ? axis.quick : axis.defaults;
      points *= it != request.axes.end() ? it->second.size() : base.size();
      if (points > kMaxPointsPerExperiment) {
        throw ApiError(400, "axes",
                       fmt::format("axes: {} has more than {} points; accepted: fewer values",
                                   e.name, kMaxPointsPerExperiment));
      }
    }
  }
  try {
    return bench::make_plan(request);
  } catch (const UsageError& err) {
    throw ApiError(400, api_parameter(err.what()), err.what());
  }
}

std::optional<std::string> no_device_reason() {
  std::string why;
  if (device_count_or_zero(&why) == 0) return fmt::format("no CUDA device ({})", why);
  return std::nullopt;
}

nlohmann::json execute_run(const bench::Plan& plan,
                           const std::function<void(const std::string&)>& progress,
                           const std::atomic<bool>* cancel) {
  if (auto why = no_device_reason()) throw ApiError(503, "", *why);
  bench::ExecuteOptions options;
  options.command_line = "memlab serve: POST /api/runs";
  bench::RunReport report;
  try {
    report = bench::execute(
        plan, options,
        [&](const bench::ProgressEvent& e) {
          if (progress) progress(bench::format_progress(e));
        },
        cancel);
  } catch (const UsageError& err) {
    throw ApiError(400, api_parameter(err.what()), err.what());
  }
  nlohmann::json out = report::run_json(report);
  report::with_lessons(out);
  if (report.cancelled) out["cancelled"] = true;
  return out;
}

}  // namespace memlab::server
