// transpose: the persistent grid of tile_swap_pipe (kernels_swap.cu) and tile64_f4_pipe
// (kernels_pipe.cu), its two halves shared: the host's launch shape (the occupancy API's resident
// blocks, clamped to the tiles) and each block's grid-stride walk over a T x T tiling in
// row-major tile order (tile i = blockIdx.x + m gridDim.x: row i / tiles_c, col i % tiles_c,
// the one-tile kernels' blockIdx order), with the next tile known before the current one is
// done (its loads go out early: the software pipelines of both kernels).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>

#include "common/launch.hpp"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {

// Tile i's origin and whether the float4 path takes it (`vec`: rows and cols multiples of 4, and
// the tile whole inside the matrix).
struct TileAt {
  int r0, c0;
  bool fast;
};
template <int T>
__device__ __forceinline__ TileAt tile_at(int i, int tiles_c, int rows, int cols, bool vec) {
  const int r0 = i / tiles_c * T, c0 = i % tiles_c * T;
  return {r0, c0, vec && r0 + T <= rows && c0 + T <= cols};
}

// One block's walk (its tiles blockIdx.x, + gridDim.x, ...): idle() (no tile: the launch clamps
// the grid to the tiles; kept for any grid), else first() its first tile, with this thread's
// float4 loads of it issued; per step, more() whether a tile follows the current one, next() that
// tile (only where more()), advance() the step onto it. The kernels keep the test and the
// `more ? walk.next() : TileAt{0, 0, false}` in their own loops: folded into one call here, the
// PTX is no longer theirs (the same code, reordered, with an extra mask of `fast`).
template <int T>
class TileWalk {
 public:
  __device__ __forceinline__ TileWalk(int tiles_c, int tiles, int rows, int cols, bool vec)
      : i_(static_cast<int>(blockIdx.x)),
        stride_(static_cast<int>(gridDim.x)),
        tiles_c_(tiles_c),
        tiles_(tiles),
        rows_(rows),
        cols_(cols),
        vec_(vec) {}

  __device__ __forceinline__ bool idle() const { return i_ >= tiles_; }

  // The first tile; where it is fast, v = this thread's Steps float4 of it (load_rows_f4).
  template <int Steps, int Step>
  __device__ __forceinline__ TileAt first(float4 (&v)[Steps], const float* __restrict__ in, int q,
                                          int j) const {
    const TileAt cur = tile_at<T>(i_, tiles_c_, rows_, cols_, vec_);
    if (cur.fast) load_rows_f4<Steps, Step>(v, in, cur.r0, cur.c0, q, j, cols_);
    return cur;
  }

  // i + stride < 2 tiles: tiles < 2^20 for rows * cols <= 2^31, no overflow.
  __device__ __forceinline__ bool more() const { return i_ + stride_ < tiles_; }
  __device__ __forceinline__ TileAt next() const {
    return tile_at<T>(i_ + stride_, tiles_c_, rows_, cols_, vec_);
  }
  __device__ __forceinline__ void advance() { i_ += stride_; }

 private:
  int i_, stride_, tiles_c_, tiles_, rows_, cols_;
  bool vec_;
};

// The launch: min(resident, tiles) blocks (resident: resident_blocks of the kernel), and the
// kernel's tiles_c, tiles and vec arguments.
struct PersistentGrid {
  unsigned blocks;
  int tiles_c, tiles;
  bool vec;
};
template <int T>
inline PersistentGrid persistent_grid(unsigned resident, int rows, int cols) {
  const unsigned tiles_c = blocks_for(static_cast<std::size_t>(cols), T);
  const unsigned tiles = tiles_c * blocks_for(static_cast<std::size_t>(rows), T);
  return {std::min(resident, tiles), static_cast<int>(tiles_c), static_cast<int>(tiles),
          float4_rows(rows, cols)};
}

}  // namespace memlab::lessons::transpose
