// Summary statistics of timing samples (host-only).
#pragma once

#include <cstddef>
#include <vector>

namespace memlab::bench {

struct Stats {
  double median = 0;
  double min = 0;
  double max = 0;
  double mean = 0;
  double stdev = 0;  // sample standard deviation (n - 1); 0 for one sample
  std::size_t samples = 0;
  std::vector<double> values;  // every sample, ascending (what `memlab compare` tests on)

  // Relative standard error of the mean: stdev / mean / sqrt(n). The noise the loop stops on.
  double relative_error() const;
  double relative_stdev() const { return mean > 0 ? stdev / mean : 0.0; }
};

// Throws std::invalid_argument on an empty vector.
Stats summarize(std::vector<double> samples);

}  // namespace memlab::bench
