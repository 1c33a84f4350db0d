// Comparing a GPU result with its CPU reference (host-only). Integers compare exactly; floats by
// relative L2 error ||got - ref|| / ||ref||. A failed check lists the first mismatches.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace memlab::bench {

struct Check {
  bool ok = false;
  double error = 0;    // relative L2 error (floats) or number of mismatches (exact)
  std::string detail;  // empty when ok
};

std::string describe_mismatch(std::size_t index, double got, double want);

// Exact element-wise equality (integers, or floats that must be bit-identical in value).
template <class T>
Check check_exact(const T* got, const T* want, std::size_t n, std::size_t show = 5) {
  Check c;
  std::size_t bad = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const bool same = (got[i] == want[i]);
    if (!same) {
      if (bad < show) {
        c.detail += describe_mismatch(i, static_cast<double>(got[i]), static_cast<double>(want[i]));
      }
      ++bad;
    }
  }
  c.error = static_cast<double>(bad);
  c.ok = (bad == 0);
  if (!c.ok) c.detail = std::to_string(bad) + " of " + std::to_string(n) + " differ;" + c.detail;
  return c;
}

// Relative L2 error; any NaN/Inf in `got` (e.g. a poisoned element never written) fails.
template <class T, class R>
Check check_rel_l2(const T* got, const R* want, std::size_t n, double tolerance,
                   std::size_t show = 5) {
  Check c;
  double num = 0, den = 0;
  std::size_t nonfinite = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double g = static_cast<double>(got[i]);
    const double w = static_cast<double>(want[i]);
    if (!std::isfinite(g)) {
      if (nonfinite < show) c.detail += describe_mismatch(i, g, w);
      ++nonfinite;
      continue;
    }
    num += (g - w) * (g - w);
    den += w * w;
  }
  c.error = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  c.ok = nonfinite == 0 && c.error <= tolerance;
  if (nonfinite > 0) {
    c.detail = std::to_string(nonfinite) + " elements not finite (never written?);" + c.detail;
  } else if (!c.ok) {
    // Show the largest deviations' first few positions.
    std::size_t shown = 0;
    for (std::size_t i = 0; i < n && shown < show; ++i) {
      const double g = static_cast<double>(got[i]);
      const double w = static_cast<double>(want[i]);
      if (std::abs(g - w) > tolerance * (std::abs(w) + 1e-30)) {
        c.detail += describe_mismatch(i, g, w);
        ++shown;
      }
    }
    c.detail = "relative L2 error " + std::to_string(c.error) + " > " + std::to_string(tolerance) +
               ";" + c.detail;
  }
  return c;
}

}  // namespace memlab::bench
