// One path to a lesson's content for `memlab serve` and `memlab report`: its doc (docs/<name>.md)
// and kernels (kernels.cuh, kernels.cu) from the embedded files (cmake/embed_web.cmake), its
// summary and declaration from the registry. GET /api/lessons/<name> answers lesson_content; the
// report inlines report_catalogue for the lessons of its runs, so a mailed report teaches.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace memlab::server {

// {"name", "doc" (null without one), "sources": [{"file", "text"}]}; nullopt when the lesson has
// neither a doc nor kernels.
std::optional<nlohmann::json> lesson_content(const std::string& name);

// {"<name>": {"summary"?, ..., "doc", "sources"}} for each name (the lessons of the report's runs).
nlohmann::json report_catalogue(const std::vector<std::string>& names);

// The run as the report inlines it: without what no page draws and most of the bytes are, the
// per-sample times (stats.samples_ms, batch.samples_ms; the statistics beside them stay) and
// each record's clocks (context.clocks_mhz stays), seed (context.seed stays) and variant
// description (lessons.<name>.variants has it). `memlab compare` reads the JSON file itself.
nlohmann::json slim_run(nlohmann::json run);

}  // namespace memlab::server
