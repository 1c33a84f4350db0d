// Text output of `memlab model X` (tables and ASCII pictures), one function per model. Each takes
// the parameters as the model API does (JSON keyed by CLI flag), validates and computes through
// include/memlab/model/inputs.hpp, and prints to stdout. Private to src/cli.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::cli::model_text {

void print_coalescing(const nlohmann::json& params);
void print_banks(const nlohmann::json& params);
void print_tiling(const nlohmann::json& params);
void print_timeline(const nlohmann::json& params);
void print_roofline(const nlohmann::json& params);
void print_occupancy(const nlohmann::json& params);

// "12.5 %".
std::string percent(double fraction);
// "0-7,9,12-13": a sorted list of lanes, compressed into ranges.
std::string lane_ranges(const std::vector<int>& lanes);

}  // namespace memlab::cli::model_text
