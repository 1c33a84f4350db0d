// Two-sample tests for `memlab compare` (host-only): is NEW's timing distribution different from
// BASE's, beyond what the noise of the samples explains?
#pragma once

#include <cstddef>
#include <vector>

namespace memlab::report {

// Mann-Whitney U (Wilcoxon rank-sum), two-sided p-value from the normal approximation with tie
// and continuity corrections (memlab's records hold 10..1000 samples, where it is accurate).
// 1.0 when the samples cannot be told apart (e.g. identical); throws std::invalid_argument on an
// empty sample.
double mann_whitney_p(const std::vector<double>& a, const std::vector<double>& b);

// Welch's t-test from summaries (n, mean, sample stdev), two-sided p-value (Student's t with the
// Welch-Satterthwaite degrees of freedom). For reports that carry no samples. Needs n >= 2.
double welch_p(std::size_t n1, double mean1, double sd1, std::size_t n2, double mean2, double sd2);

// P(T <= t) for Student's t with `df` degrees of freedom (df > 0).
double student_t_cdf(double t, double df);

}  // namespace memlab::report
