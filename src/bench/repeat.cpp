#include "memlab/bench/repeat.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "memlab/bench/params.hpp"

namespace memlab::bench {

void attach_repeats(std::vector<Record>& first, const std::vector<std::vector<Record>>& others) {
  using Key = std::tuple<std::string, std::string, std::string>;
  auto key = [](const Record& r) { return Key{r.experiment, r.variant, format_point(r.params)}; };
  std::map<Key, std::vector<double>> medians;
  for (const auto& run : others) {
    for (const Record& r : run) {
      if (r.timed) medians[key(r)].push_back(r.stats.median);
    }
  }
  for (Record& r : first) {
    if (!r.timed) continue;
    RepeatSpread s;
    s.medians_ms.push_back(r.stats.median);
    if (auto it = medians.find(key(r)); it != medians.end()) {
      s.medians_ms.insert(s.medians_ms.end(), it->second.begin(), it->second.end());
    }
    std::vector<double> sorted = s.medians_ms;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t n = sorted.size();
    const double mid = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
    s.spread = mid > 0 ? (sorted.back() - sorted.front()) / mid : 0.0;
    r.repeat = std::move(s);
  }
}

}  // namespace memlab::bench
