// Writers for a run's results (host-only): a terminal table, JSON, CSV and markdown.
#pragma once

#include <string>
#include <vector>

#include "memlab/bench/record.hpp"

namespace memlab::report {

// The device block printed by `memlab info` and at the top of a run.
std::string render_device(const DeviceInfo& device, const bench::Context* context = nullptr);

// `memlab info --json`: {"device": the selected GPU (as in a run's context), "driver_version",
// "runtime_version", "devices": [every GPU], "topology": topology_json's value}.
std::string render_info_json(const std::vector<DeviceInfo>& devices, int selected,
                             const std::string& topology_json);

// One table per experiment; `colour` adds ANSI colours (only on a TTY).
std::string render_table(const bench::RunReport& report, bool colour);

// JSON with schema_version, context, the memcpy ceiling and one record per experiment, variant
// and axis point carrying every statistic and metric.
std::string render_json(const bench::RunReport& report);
std::string render_csv(const bench::RunReport& report);
std::string render_markdown(const bench::RunReport& report);

}  // namespace memlab::report
