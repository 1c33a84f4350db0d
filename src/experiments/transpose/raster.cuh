// transpose: the grouped block raster of kernels_tile.cu and kernels_tma_ws.cu (device only).
#pragma once

#include <cuda_runtime.h>

namespace memlab::lessons::transpose {

inline constexpr unsigned kGroup = 8;     // G: tiles per side of a raster square (the default)
inline constexpr unsigned kGroup32 = 32;  // G of tile64_f4_g32 and tile_swap_g32 (round six b)

// Block b -> tile (tr, tc) of a tiles_r x tiles_c grid: bands of G tile rows (the last may be
// shorter), each band cut into G-wide squares in column order (the last may be narrower), tiles
// row-major inside a square. A bijection onto the grid: squares before the last of a band are
// gh x G tiles, the last gh x gw with gw = tiles_c - sq0. G = kGroup (8) for tile64_f4_grouped,
// tile64_f4_deep and tma_ws; G = 32 for tile64_f4_g32 and tile_swap_g32 (round six b). Products
// stay in 32 bits: G tiles_c <= 32 x 2^24 / 64 = 2^23.
template <unsigned G = kGroup>
__device__ __forceinline__ void grouped_tile(unsigned b, unsigned tiles_r, unsigned tiles_c,
                                             unsigned& tr, unsigned& tc) {
  const unsigned band = b / (G * tiles_c);
  const unsigned tr0 = band * G;
  const unsigned gh = min(G, tiles_r - tr0);
  const unsigned within = b - band * G * tiles_c;  // in [0, gh tiles_c)
  const unsigned square = within / (gh * G);
  const unsigned sq0 = square * G;
  const unsigned gw = min(G, tiles_c - sq0);
  const unsigned w2 = within - square * gh * G;  // in [0, gh gw)
  tr = tr0 + w2 / gw;
  tc = sq0 + w2 % gw;
}

}  // namespace memlab::lessons::transpose
