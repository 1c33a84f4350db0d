// Writers for a run's results (host-only): a terminal table, JSON, CSV and markdown.
#pragma once

#include <string>

#include "memlab/bench/record.hpp"

namespace memlab::report {

// The device block printed by `memlab info` and at the top of a run.
std::string render_device(const DeviceInfo& device, const bench::Context* context = nullptr);

// One table per experiment; `colour` adds ANSI colours (only on a TTY).
std::string render_table(const bench::RunReport& report, bool colour);

// JSON with schema_version, context, the memcpy ceiling and one record per experiment, variant
// and axis point carrying every statistic and metric.
std::string render_json(const bench::RunReport& report);
std::string render_csv(const bench::RunReport& report);
std::string render_markdown(const bench::RunReport& report);

}  // namespace memlab::report
