// Tiling model for convolution with a shared-memory input tile (seed 000, section 3).
//
// Host-only. Design "load everything": a block has one thread per input-tile element; every thread
// loads one element (halo included) into shared memory, then only the output-tile threads compute.
// All figures are for an interior tile (no ghost elements) and 4-byte (float) elements by default.
#pragma once

#include <cstdint>

namespace memlab::model {

struct TilingParams {
  int output_tile = 1020;  // O_TILE_WIDTH: outputs per tile side, >= 1
  int mask = 5;            // Mask_Width: odd, 1 <= mask <= output_tile
  int dims = 1;            // 1 (1D convolution) or 2 (square 2D tiles)
  int elem_size = 4;       // bytes per element in shared memory, >= 1
  // Shared memory a block may use (bytes); the input tile must fit. Default: the 48 KiB a block
  // gets without opting in to more (cudaFuncSetAttribute), the same on every GPU since Volta.
  std::int64_t shared_limit = 48 * 1024;
  int max_threads_per_block = 1024;  // only reported (block_fits), never an error
};

struct TilingResult {
  int input_tile = 0;                          // I_TILE_WIDTH = O + M - 1 (per side)
  int halo = 0;                                // M / 2 elements on each side
  std::int64_t block_threads = 0;              // I^dims: one thread per input element
  std::int64_t output_threads = 0;             // O^dims: threads that compute an output
  std::int64_t idle_threads = 0;               // block_threads - output_threads (load, then idle)
  double idle_fraction = 0.0;                  // idle_threads / block_threads
  bool block_is_warp_multiple = false;         // block_threads % 32 == 0 (seed: should be)
  bool block_fits = false;                     // block_threads <= max_threads_per_block
  std::int64_t shared_bytes = 0;               // I^dims * elem_size
  std::int64_t inputs_per_output_untiled = 0;  // M^dims global reads per output, no tiling
  double inputs_per_output_tiled = 0.0;        // I^dims / O^dims global reads per output
  double reuse = 0.0;                          // untiled / tiled: global-read reduction factor
  // Upper bound of the reduction for huge tiles: M^dims.
  std::int64_t reuse_limit = 0;
};

// Throws UsageError for: output_tile < 1, dims not 1/2, even or < 1 mask, mask > output_tile,
// elem_size < 1, shared bytes above shared_limit.
TilingResult analyze_tiling(const TilingParams& params);

}  // namespace memlab::model
