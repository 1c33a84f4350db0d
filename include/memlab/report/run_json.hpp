// The run's JSON as a value (host-only; render_json is its text). Front ends that add to it (the
// lessons block, report::with_lessons) start here instead of parsing render_json's text again.
#pragma once

#include <nlohmann/json.hpp>

#include "memlab/bench/record.hpp"

namespace memlab::report {

// schema_version, context, ceilings, records (docs/lessons-json.md "Record status"), cancelled.
// No "lessons": that block needs the registry (report::with_lessons, lessons.hpp).
nlohmann::json run_json(const bench::RunReport& report);

}  // namespace memlab::report
