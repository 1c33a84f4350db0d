#include "memlab/bench/stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace memlab::bench {

double Stats::relative_error() const {
  if (samples < 2 || mean <= 0) return 0.0;
  return stdev / mean / std::sqrt(static_cast<double>(samples));
}

Stats summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples.begin(), samples.end());
  Stats s;
  s.samples = samples.size();
  const std::size_t mid = s.samples / 2;
  s.median = (s.samples % 2 == 1) ? samples[mid] : 0.5 * (samples[mid - 1] + samples[mid]);
  s.min = samples.front();
  s.max = samples.back();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.samples);
  if (s.samples > 1) {
    double ss = 0;
    for (double x : samples) ss += (x - s.mean) * (x - s.mean);
    s.stdev = std::sqrt(ss / static_cast<double>(s.samples - 1));
  }
  s.values = std::move(samples);
  return s;
}

}  // namespace memlab::bench
