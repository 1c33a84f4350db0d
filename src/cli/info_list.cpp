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

void add_list_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("list", "List the experiments, their variants and axes");
  cmd->callback([&exit_code] {
    for (const bench::Experiment& e : bench::experiments()) {
      std::cout << fmt::format("{:<15} {}{}\n", e.name, e.summary,
                               e.in_default_suite ? "" : " [not in the default suite]");
      std::string variants;
      for (const bench::Variant& v : e.variants) {
        variants += (variants.empty() ? "" : ", ") + v.name + (v.name == e.baseline ? "*" : "");
      }
      std::cout << fmt::format("{:<15}   variants: {}  (* = baseline)\n", "", variants);
      for (const bench::Variant& v : e.variants) {
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
    }
    exit_code = kExitOk;
  });
}

}  // namespace memlab::cli
