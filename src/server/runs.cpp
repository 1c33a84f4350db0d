#include "runs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <random>

#include "api_error.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/report.hpp"
#include "memlab/version.hpp"

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

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

std::string parameter_of(const std::string& message) {
  const std::size_t colon = message.find(": ");
  if (colon == std::string::npos || colon > 60) return "";
  return message.substr(0, colon);
}

RunRequest parse_run_request(const nlohmann::json& body) {
  if (!body.is_object()) throw ApiError(400, "body", "body: expected a JSON object");
  RunRequest r;
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
        r.axes[name] = string_list(values, "axes." + name.substr(0, 64));
        if (r.axes[name].empty()) {
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

std::vector<bench::Plan> plan_run(const RunRequest& request) {
  std::vector<const bench::Experiment*> selected;
  std::string all;
  for (const auto& e : bench::experiments()) all += (all.empty() ? "" : ", ") + e.name;
  if (request.experiments.empty()) {
    for (const auto& e : bench::experiments()) {
      if (e.in_default_suite) selected.push_back(&e);
    }
  }
  for (const std::string& name : request.experiments) {
    const bench::Experiment* e = bench::find_experiment(name);
    if (e == nullptr) {
      throw ApiError(400, "experiments",
                     fmt::format("experiments: '{}' is unknown; accepted: {}", name, all));
    }
    if (std::find(selected.begin(), selected.end(), e) == selected.end()) selected.push_back(e);
  }
  auto keep = [&](const bench::Experiment& e, const bench::Variant& v) {
    return request.variants.empty() ||
           std::any_of(request.variants.begin(), request.variants.end(), [&](const std::string& f) {
             return f == v.name || f == e.name + ":" + v.name;
           });
  };
  for (const std::string& f : request.variants) {
    bool found = false;
    std::string accepted;
    for (const auto* e : selected) {
      for (const auto& v : e->variants) {
        accepted += (accepted.empty() ? "" : ", ") + v.name;
        found = found || f == v.name || f == e->name + ":" + v.name;
      }
    }
    if (!found) {
      throw ApiError(400, "variants",
                     fmt::format("variants: '{}' is not a variant of the selected experiments; "
                                 "accepted: {}",
                                 f, accepted));
    }
  }
  for (const auto& [name, values] : request.axes) {
    const std::string key = "axes." + name;
    bool known = false;
    std::string accepted;
    for (const auto* e : selected) {
      for (const auto& axis : e->axes) {
        accepted += (accepted.empty() ? "" : ", ") + axis.name;
        if (axis.name == name) {
          known = true;
          for (const std::string& v : values) {
            try {
              axis.validate(v);
            } catch (const UsageError& err) {
              throw ApiError(400, key, err.what());
            }
          }
        }
      }
    }
    if (!known) {
      throw ApiError(400, key,
                     fmt::format("{}: not an axis of the selected experiments; accepted: {}", key,
                                 accepted.empty() ? "(none)" : accepted));
    }
  }
  std::vector<bench::Plan> plans;
  for (const auto* e : selected) {
    bench::Plan p;
    p.experiment = e;
    for (const auto& v : e->variants) {
      if (keep(*e, v)) p.variants.push_back(&v);
    }
    if (p.variants.empty()) continue;
    std::size_t points = 1;
    for (const auto& axis : e->axes) {
      const auto it = request.axes.find(axis.name);
      const auto& base = request.quick && !axis.quick.empty() ? axis.quick : axis.defaults;
      points *= it != request.axes.end() ? it->second.size() : base.size();
      if (points > kMaxPointsPerExperiment) {
        throw ApiError(400, "axes",
                       fmt::format("axes: {} has more than {} points; accepted: fewer values",
                                   e->name, kMaxPointsPerExperiment));
      }
    }
    try {
      p.points = bench::expand_axes(e->axes, request.axes, request.quick);
      if (e->validate) {
        for (const auto& point : p.points) e->validate(point);
      }
    } catch (const UsageError& err) {
      const std::string param = parameter_of(err.what());
      throw ApiError(400, param.rfind("axis ", 0) == 0 ? "axes." + param.substr(5) : param,
                     err.what());
    }
    plans.push_back(std::move(p));
  }
  if (plans.empty()) {
    throw ApiError(400, "variants", "variants: no variant of the selected experiments left");
  }
  return plans;
}

std::optional<std::string> no_device_reason() {
  std::string why;
  if (device_count_or_zero(&why) == 0) return fmt::format("no CUDA device ({})", why);
  return std::nullopt;
}

nlohmann::json execute_run(const std::vector<bench::Plan>& plans, const RunRequest& request,
                           const std::function<void(const std::string&)>& progress) {
  if (auto why = no_device_reason()) throw ApiError(503, "", *why);
  MEMLAB_CUDA_CHECK(cudaSetDevice(0));
  const DeviceInfo device = query_device(0);
  std::size_t free_bytes = 0, total_bytes = 0;
  MEMLAB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double flush = 2.0 * static_cast<double>(device.l2_bytes);
  for (const auto& p : plans) {
    for (const auto& point : p.points) {
      const double need = (p.experiment->footprint ? p.experiment->footprint(point) : 0.0) + flush;
      if (need > 0.95 * static_cast<double>(free_bytes)) {
        throw ApiError(400, "axes",
                       fmt::format("axes: {} of {} needs {} of device memory, {} is free",
                                   point.label(), p.experiment->name, bench::format_bytes(need),
                                   bench::format_bytes(static_cast<double>(free_bytes))));
      }
    }
  }
  std::size_t ceiling_bytes = std::size_t{1} << 30;
  while (ceiling_bytes > (std::size_t{64} << 20) &&
         2.0 * static_cast<double>(ceiling_bytes) + flush > 0.5 * static_cast<double>(free_bytes)) {
    ceiling_bytes /= 2;
  }
  bench::RunOptions options;
  options.seed =
      (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  options.measure.budget_s = request.quick ? 0.05 : 0.3;
  options.measure.flush_l2 = true;
  options.progress = progress;

  bench::RunReport report;
  bench::Context& c = report.context;
  c.device = device;
  c.tool_version = kVersion;
  c.git_commit = kGitCommit;
  c.date = utc_now();
  c.seed = options.seed;
  c.cold = true;
  c.quick = request.quick;
  c.command_line = "memlab serve: POST /api/runs";
  if (auto clocks = read_live_clocks(device)) {
    c.sm_clock_mhz_start = clocks->sm_mhz;
    c.mem_clock_mhz_start = clocks->mem_mhz;
    c.pcie_gen = clocks->pcie_gen;
    c.pcie_width = clocks->pcie_width;
  }
  bench::Runner runner(device, options);
  if (progress) progress("memcpy ceiling");
  report.memcpy_d2d = runner.measure_memcpy_ceiling(ceiling_bytes);
  for (const auto& p : plans) {
    for (auto& r : runner.run(p)) report.records.push_back(std::move(r));
  }
  if (auto clocks = read_live_clocks(device)) {
    c.sm_clock_mhz_end = clocks->sm_mhz;
    c.mem_clock_mhz_end = clocks->mem_mhz;
  }
  return nlohmann::json::parse(report::render_json(report));
}

}  // namespace memlab::server
