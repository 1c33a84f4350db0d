// Integer expressions of an exercise's launch rule: "cdiv(n, 1024)", "min(cdiv(n, 256), 4096)",
// "(k + 15) / 16 * 4". Variables are the point's integer axes; functions cdiv, min, max.
// Host-only.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace memlab::exercise {

// Throws UsageError naming `what` (e.g. "launch.grid[0]") on a syntax error, an unknown variable,
// a division by zero or a result outside [0, 2^31).
std::int64_t eval_expr(const std::string& text, const std::map<std::string, std::int64_t>& vars,
                       const std::string& what);

}  // namespace memlab::exercise
