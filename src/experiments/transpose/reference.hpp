#pragma once

#include <cstddef>
#include <cstdint>

#include "memlab/bench/verify.hpp"

namespace memlab::lessons::transpose {

// in[i] (row-major index) as fill_uniform(seed, -1, 1) drew it.
float input_value(std::uint64_t seed, std::size_t i);

// transposed: got is cols x rows and got[c][r] must equal in[r][c]; otherwise got is a plain copy
// (rows x cols). Exact, in parallel; lists the first mismatches.
bench::Check check_output(const float* got, std::size_t rows, std::size_t cols, std::uint64_t seed,
                          bool transposed);

// The tile_swap reference lines (not transposes): got is cols x rows, built from tile x tile tiles.
// A whole tile (I, J) of in (inside the matrix) lands untransposed at tile (J, I) of got:
// got[J tile + a][I tile + b] = in[I tile + a][J tile + b]; a clipped edge tile is transposed,
// got[c][r] = in[r][c] (its h x w elements do not fit untransposed into the w x h slot).
bench::Check check_tile_swap(const float* got, std::size_t rows, std::size_t cols,
                             std::uint64_t seed, std::size_t tile);

}  // namespace memlab::lessons::transpose
