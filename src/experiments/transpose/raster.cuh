// transpose: the grouped block raster of kernels_tile.cu and kernels_tma_ws.cu (device only).
#pragma once

#include <cuda_runtime.h>

namespace memlab::lessons::transpose {

inline constexpr unsigned kGroup = 8;  // G: tiles per side of a raster square

// Block b -> tile (tr, tc) of a tiles_r x tiles_c grid: bands of G tile rows (the last may be
// shorter), each band cut into G-wide squares in column order (the last may be narrower), tiles
// row-major inside a square. A bijection onto the grid: squares before the last of a band are
// gh x G tiles, the last gh x gw with gw = tiles_c - sq0.
__device__ __forceinline__ void grouped_tile(unsigned b, unsigned tiles_r, unsigned tiles_c,
                                             unsigned& tr, unsigned& tc) {
  const unsigned band = b / (kGroup * tiles_c);
  const unsigned tr0 = band * kGroup;
  const unsigned gh = min(kGroup, tiles_r - tr0);
  const unsigned within = b - band * kGroup * tiles_c;  // in [0, gh tiles_c)
  const unsigned square = within / (gh * kGroup);
  const unsigned sq0 = square * kGroup;
  const unsigned gw = min(kGroup, tiles_c - sq0);
  const unsigned w2 = within - square * gh * kGroup;  // in [0, gh gw)
  tr = tr0 + w2 / gw;
  tc = sq0 + w2 % gw;
}

}  // namespace memlab::lessons::transpose
