// libFuzzer harness: the run-JSON loader of `memlab compare` (src/report/compare.cpp) and
// --threshold. The input is BASE, a NUL byte, NEW (no NUL: the input is both). Every input either
// compares or throws memlab::UsageError.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>

#include "memlab/common/error.hpp"
#include "memlab/report/compare.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t nul = text.find('\0');
  const std::string base = nul == std::string::npos ? text : text.substr(0, nul);
  const std::string next = nul == std::string::npos ? text : text.substr(nul + 1);
  try {
    const auto r = memlab::report::compare_reports(base, next, 0.05, "base.json", "new.json");
    for (const auto& c : r.rows) {
      // Loaded times are positive and finite, so every change and p-value is a number.
      if (!std::isfinite(c.change) || !(c.p_value >= 0 && c.p_value <= 1)) __builtin_trap();
    }
  } catch (const memlab::UsageError&) {
  }
  try {
    const double t = memlab::report::parse_threshold(base.substr(0, 64));
    if (!(t > 0 && t <= 10)) __builtin_trap();
  } catch (const memlab::UsageError&) {
  }
  return 0;
}
