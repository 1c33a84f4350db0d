#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <iostream>
#include <nlohmann/json.hpp>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/bench/record.hpp"
#include "memlab/cli/commands.hpp"
#include "memlab/cli/non_empty.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/topology.hpp"
#include "memlab/report/lessons.hpp"
#include "memlab/report/report.hpp"

namespace memlab::cli {

void add_info_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("info",
                                 "Show the device: SMs, clocks, L2, shared memory, copy "
                                 "engines, theoretical peaks");
  auto device = std::make_shared<int>(0);
  auto json = std::make_shared<bool>(false);
  cmd->add_flag("--json", *json, "Print the devices and their topology as JSON");
  cmd->add_option("-d,--device", *device, "CUDA device ordinal")
      ->check(non_empty())
      ->check(CLI::NonNegativeNumber);
  cmd->callback([&exit_code, device, json] {
    std::string why;
    const int count = device_count_or_zero(&why);
    if (count == 0) {
      if (*json) {
        nlohmann::json j = {{"device", nullptr}, {"reason", "no CUDA device (" + why + ")"}};
        std::cout << j.dump(2) << "\n";
      }
      std::cerr << "memlab: no CUDA device (" << why << ")\n";
      exit_code = kExitCuda;
      return;
    }
    if (*device >= count) {
      throw UsageError(
          fmt::format("--device: {} does not exist; accepted: 0..{}", *device, count - 1));
    }
    const Topology topology = query_topology();
    if (*json) {
      std::vector<DeviceInfo> all;
      for (int i = 0; i < count; ++i) all.push_back(query_device(i));
      std::cout << report::render_info_json(all, *device, topology_json(topology));
      exit_code = kExitOk;
      return;
    }
    const DeviceInfo d = query_device(*device);
    bench::Context c;
    c.device = d;
    bench::read_clocks_start(c);
    std::cout << report::render_device(d, &c) << "\n" << render_topology(topology);
    exit_code = kExitOk;
  });
}

namespace {

// "stride=1 access=read", "ws 64..32768" (ranges in the axis's own integers).
std::string axes_text(const bench::Variant& v) {
  std::string out;
  for (const bench::VariantAxis& a : v.axes) {
    if (!out.empty()) out += " ";
    if (!a.values.empty()) {
      out += fmt::format("{}={}", a.axis, fmt::join(a.values, ","));
    } else if (a.min && a.max) {
      out += fmt::format("{} {}..{}", a.axis, *a.min, *a.max);
    } else if (a.min) {
      out += fmt::format("{} >= {}", a.axis, *a.min);
    } else if (a.max) {
      out += fmt::format("{} <= {}", a.axis, *a.max);
    }
  }
  return out;
}

}  // namespace

void add_list_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("list", "List the experiments, their variants and axes");
  auto json = std::make_shared<bool>(false);
  cmd->add_flag(
      "--json", *json,
      "Print the catalogue as JSON: each experiment's declaration (docs/lessons-json.md)");
  cmd->callback([&exit_code, json] {
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const bench::Experiment& e : bench::experiments()) {
        nlohmann::json j = report::lesson_declaration(e);
        j["name"] = e.name;
        j["in_default_suite"] = e.in_default_suite;
        nlohmann::json axes = nlohmann::json::array();
        for (const bench::AxisSpec& a : e.axes) {
          axes.push_back({{"name", a.name},
                          {"defaults", a.defaults},
                          {"quick", a.quick.empty() ? a.defaults : a.quick},
                          {"accepted", a.accepted()},
                          {"help", a.help}});
        }
        j["axes"] = std::move(axes);
        out.push_back(std::move(j));
      }
      std::cout << nlohmann::json({{"experiments", out}}).dump(2) << "\n";
      exit_code = kExitOk;
      return;
    }
    for (const bench::Experiment& e : bench::experiments()) {
      std::cout << fmt::format("{:<15} {}{}\n", e.name, e.summary,
                               e.in_default_suite ? "" : " [not in the default suite]");
      std::string variants;
      for (const bench::Variant& v : e.variants) {
        variants += (variants.empty() ? "" : ", ") + v.name + (v.name == e.baseline ? "*" : "");
      }
      std::cout << fmt::format("{:<15}   variants: {}  (* = baseline)\n", "", variants);
      for (const bench::Variant& v : e.variants) {
        // Where a variant applies (its axes, its condition) and what it needs of the device.
        const std::string axes = axes_text(v);
        if (!axes.empty()) {
          std::cout << fmt::format("{:<15}   {} only at {}{}\n", "", v.name, axes,
                                   v.only.empty() ? "" : " (" + v.only + ")");
        } else if (!v.only.empty()) {
          std::cout << fmt::format("{:<15}   {} only where {}\n", "", v.name, v.only);
        }
        if (v.needs) {
          std::cout << fmt::format("{:<15}   {} is skipped where the device lacks it: {}\n", "",
                                   v.name, v.needs_reason);
        }
        if (v.opt_in.empty()) continue;
        std::cout << fmt::format("{:<15}   opt-in (runs only with -v {}): {}\n", "", v.name,
                                 v.opt_in);
      }
      for (const bench::AxisSpec& a : e.axes) {
        std::cout << fmt::format("{:<15}   axis {}: default {}; quick {}; accepted: {}\n", "",
                                 a.name, fmt::join(a.defaults, ","),
                                 fmt::join(a.quick.empty() ? a.defaults : a.quick, ","),
                                 a.accepted());
      }
      std::string plots;
      for (const bench::Plot& p : e.plots) plots += (plots.empty() ? "" : ", ") + p.id;
      if (!plots.empty()) std::cout << fmt::format("{:<15}   plots: {}\n", "", plots);
    }
    exit_code = kExitOk;
  });
}

}  // namespace memlab::cli
