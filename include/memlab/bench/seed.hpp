// Parsing a seed (host-only).
#pragma once

#include <cstdint>
#include <string>

namespace memlab::bench {

// A seed as memlab prints it: decimal digits only, 0 .. 2^64 - 1 (no suffixes, no powers).
// Throws UsageError mentioning `what`.
std::uint64_t parse_seed(const std::string& text, const std::string& what);

}  // namespace memlab::bench
