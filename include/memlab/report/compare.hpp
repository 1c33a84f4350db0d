// Comparing two JSON reports of `memlab run` (host-only): the regression check behind
// `memlab compare BASE.json NEW.json --threshold 5%`.
//
// Each record timed in both reports is classified from its samples, not from two medians alone:
//   SLOW    the difference is significant (p < alpha) and NEW's median is more than the threshold
//           above BASE's: a regression (exit 1);
//   FAST    significant, and more than the threshold below;
//   SAME    the medians differ by at most the threshold (significant or not);
//   UNSURE  the medians differ by more than the threshold but the samples cannot tell it from
//           noise (too few or too noisy samples): measure again.
// The test: Mann-Whitney U on the samples (`stats.samples_ms`); for older reports without samples,
// Welch's t-test on n/mean/stdev; with neither, UNSURE. alpha = 0.01 (99% confidence).
#pragma once

#include <string>
#include <vector>

namespace memlab::report {

enum class Verdict { Same, Slow, Fast, Unsure };
const char* verdict_name(Verdict v);  // "SAME", "SLOW", "FAST", "UNSURE"

struct Comparison {
  std::string experiment, variant, point;
  double base_ms = 0, new_ms = 0;  // medians
  double change = 0;               // new / base - 1 (positive: slower)
  double p_value = 1;              // two-sided; 1 when no test was possible
  std::string test;                // "mann-whitney", "welch" or "none"
  Verdict verdict = Verdict::Same;
  bool regression = false;  // verdict == Slow
};

struct CompareResult {
  std::vector<Comparison> rows;        // records timed in both runs
  std::vector<std::string> only_base;  // "experiment variant point"
  std::vector<std::string> only_new;
  std::vector<std::string> failed_new;  // verification failures in the new run
  std::vector<std::string> duplicates;  // "FILE: experiment variant point (records i and j)"
  std::vector<std::string> warnings;    // different devices, timing modes, ...
  int regressions = 0;
  int fast = 0, same = 0, unsure = 0;
};

inline constexpr double kCompareAlpha = 0.01;  // significance level: 99% confidence

// Throws UsageError (naming the file and the record) when a report cannot be parsed, has another
// schema, or holds a time that is not a positive number; and when the two reports have no record
// in common, or none timed in both (nothing to compare is not a pass).
CompareResult compare_reports(const std::string& base_json, const std::string& new_json,
                              double threshold, const std::string& base_name = "BASE",
                              const std::string& new_name = "NEW");

// --threshold, always a percentage: "5%" and "5" are 5%, "0.5" is 0.5%. Accepted: (0, 1000].
// Returns the fraction (0.05). Throws UsageError naming --threshold.
double parse_threshold(const std::string& text);

}  // namespace memlab::report
