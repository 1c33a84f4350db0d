// Tiling model: see include/memlab/model/tiling.hpp and docs/models.md.
#include "memlab/model/tiling.hpp"

#include <fmt/format.h>

#include "memlab/common/error.hpp"

namespace memlab::model {
namespace {

std::int64_t power(std::int64_t base, int exponent) {
  std::int64_t r = 1;
  for (int i = 0; i < exponent; ++i) r *= base;
  return r;
}

}  // namespace

TilingResult analyze_tiling(const TilingParams& p) {
  if (p.dims != 1 && p.dims != 2) {
    throw UsageError(fmt::format("dims: must be 1 or 2 (got {})", p.dims));
  }
  if (p.output_tile < 1 || p.output_tile > (1 << 20)) {
    throw UsageError(
        fmt::format("output_tile: must be in [1, {}] (got {})", 1 << 20, p.output_tile));
  }
  if (p.mask < 1 || p.mask % 2 == 0) {
    throw UsageError(fmt::format("mask: must be an odd width >= 1 (got {})", p.mask));
  }
  if (p.mask > p.output_tile) {
    throw UsageError(
        fmt::format("mask: must be <= the output tile width {} (got {})", p.output_tile, p.mask));
  }
  if (p.elem_size < 1) {
    throw UsageError(fmt::format("elem_size: must be >= 1 byte (got {})", p.elem_size));
  }
  if (p.shared_limit < 1) {
    throw UsageError(fmt::format("shared_limit: must be >= 1 byte (got {})", p.shared_limit));
  }
  TilingResult r;
  r.input_tile = p.output_tile + p.mask - 1;
  r.halo = p.mask / 2;
  r.block_threads = power(r.input_tile, p.dims);
  r.output_threads = power(p.output_tile, p.dims);
  r.idle_threads = r.block_threads - r.output_threads;
  r.idle_fraction = static_cast<double>(r.idle_threads) / static_cast<double>(r.block_threads);
  r.block_is_warp_multiple = r.block_threads % 32 == 0;
  r.block_fits = r.block_threads <= p.max_threads_per_block;
  r.shared_bytes = r.block_threads * p.elem_size;
  if (r.shared_bytes > p.shared_limit) {
    throw UsageError(
        fmt::format("output_tile: input tile {}^{} x {} B = {} B of shared memory must be <= {} B",
                    r.input_tile, p.dims, p.elem_size, r.shared_bytes, p.shared_limit));
  }
  r.inputs_per_output_untiled = power(p.mask, p.dims);
  r.inputs_per_output_tiled =
      static_cast<double>(r.block_threads) / static_cast<double>(r.output_threads);
  r.reuse = static_cast<double>(r.inputs_per_output_untiled) / r.inputs_per_output_tiled;
  r.reuse_limit = r.inputs_per_output_untiled;
  return r;
}

}  // namespace memlab::model
