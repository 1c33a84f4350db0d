#include "transpose/reference.hpp"

#include "memlab/bench/verify_parallel.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::transpose {

float input_value(std::uint64_t seed, std::size_t i) {
  return random_uniform(seed, i, -1.0f, 1.0f);
}

bench::Check check_output(const float* got, std::size_t rows, std::size_t cols, std::uint64_t seed,
                          bool transposed) {
  // transposed: o = c * rows + r holds in[r * cols + c]
  return bench::check_exact_generated(got, rows * cols, [&](std::size_t o) {
    return input_value(seed, transposed ? (o % rows) * cols + o / rows : o);
  });
}

bench::Check check_tile_swap(const float* got, std::size_t rows, std::size_t cols,
                             std::uint64_t seed, std::size_t tile) {
  // o = c * rows + r: got row c (an in column), got column r (an in row); tile (I, J) of in is
  // rows I tile .. and cols J tile .., its slot in got rows J tile .. and cols I tile ..
  return bench::check_exact_generated(got, rows * cols, [&](std::size_t o) {
    const std::size_t c = o / rows, r = o % rows;
    const std::size_t i0 = r / tile * tile, j0 = c / tile * tile;
    const bool whole = i0 + tile <= rows && j0 + tile <= cols;
    return input_value(seed, whole ? (i0 + (c - j0)) * cols + j0 + (r - i0) : r * cols + c);
  });
}

}  // namespace memlab::lessons::transpose
