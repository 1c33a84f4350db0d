// CPU reference for conv1d (double accumulation). The input is the counter-based random array
// N[x] = random_uniform(seed, x, -1, 1) that fill_uniform draws on the device, so the host
// recomputes any element without copying the input back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memlab::lessons::conv1d {

// P[i] in double, zero ghost cells outside [0, n).
double reference_at(std::uint64_t seed, std::size_t n, const std::vector<float>& mask,
                    std::size_t i);

// Segments [start, start + count) of outputs the CPU checks the GPU reference at: all of them when
// n K is small, otherwise both borders and 64 pseudo-random segments of 4096 outputs.
struct Segment {
  std::size_t start = 0, count = 0;
};
std::vector<Segment> spot_segments(std::size_t n, int k, std::uint64_t seed);

}  // namespace memlab::lessons::conv1d
