// CPU references of the histogram lessons, computed from the counter-based inputs (inputs.hpp)
// without copying the device data back.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

#include "histogram/inputs.hpp"

namespace memlab::lessons::histogram {

// Count of every byte value in the input make_bytes(dist, seed) writes for n bytes.
std::array<std::uint64_t, 256> byte_counts(Dist dist, std::uint64_t seed, std::size_t n,
                                           std::string_view corpus);
// The 7 letter bins from the byte counts.
std::array<std::uint64_t, kLetterBins> letter_counts(const std::array<std::uint64_t, 256>& bytes);
// Float histogram of make_floats(seed) over `bins` bins (float_bin with `scale`).
std::vector<std::uint64_t> float_counts(std::uint64_t seed, std::size_t n, unsigned bins,
                                        float scale);
// Min and max of int_value(seed, 0..n-1) (INT_MAX, INT_MIN for n = 0).
std::pair<std::int32_t, std::int32_t> min_max_ref(std::uint64_t seed, std::size_t n);
// Max of max_float_value(seed, 0..n-1) (-inf for n = 0).
float float_max_ref(std::uint64_t seed, std::size_t n);

}  // namespace memlab::lessons::histogram
