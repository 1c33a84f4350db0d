// Comparing two JSON reports of `memlab run` (host-only): the regression check behind
// `memlab compare BASE.json NEW.json --threshold 5%`.
#pragma once

#include <string>
#include <vector>

namespace memlab::report {

struct Comparison {
  std::string experiment, variant, point;
  double base_ms = 0, new_ms = 0;
  double change = 0;  // new / base - 1 (positive: slower)
  bool regression = false;
};

struct CompareResult {
  std::vector<Comparison> rows;        // records timed in both runs
  std::vector<std::string> only_base;  // "experiment variant point"
  std::vector<std::string> only_new;
  std::vector<std::string> failed_new;  // verification failures in the new run
  int regressions = 0;
};

// Throws UsageError (naming the file) when a report cannot be parsed or has another schema.
CompareResult compare_reports(const std::string& base_json, const std::string& new_json,
                              double threshold, const std::string& base_name = "BASE",
                              const std::string& new_name = "NEW");

// "5%", "5" or "0.05" -> 0.05. Throws UsageError naming --threshold.
double parse_threshold(const std::string& text);

}  // namespace memlab::report
