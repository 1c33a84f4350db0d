// Internal: the JSON readers shared by headline.cpp and summary.cpp (tolerant of missing keys:
// stored runs of older schemas lack some).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::report::detail {

double number(const nlohmann::json& j, const char* key);     // 0 when missing or not a number
std::string text(const nlohmann::json& j, const char* key);  // "" when missing or not a string
std::string point_of(const nlohmann::json& record);          // "k=v k=v" (params, sorted keys)
std::vector<const nlohmann::json*> records_of(const nlohmann::json& run,
                                              const std::string& experiment);
std::vector<std::string> experiments_of(const nlohmann::json& run);  // in run order

}  // namespace memlab::report::detail
