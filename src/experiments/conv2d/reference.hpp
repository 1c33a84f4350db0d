// CPU reference for conv2d (double accumulation). The image is the counter-based random array
// in[y][x] = random_uniform(seed, y W + x, -1, 1) that fill_uniform draws on the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memlab::lessons::conv2d {

// Output row y (width values, each rounded to float from the double sum) into `row`.
void reference_row(std::uint64_t seed, int height, int width, const std::vector<float>& mask, int k,
                   int y, float* row);

// Rows the CPU checks the GPU reference at: all when H W K^2 is small, otherwise the K rows at
// each border and 24 pseudo-random rows.
std::vector<int> spot_rows(int height, int width, int k, std::uint64_t seed);

}  // namespace memlab::lessons::conv2d
