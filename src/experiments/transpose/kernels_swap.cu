// transpose, issue 23 round five: reference lines for the transpose's ADDRESS STREAM. Not
// transposes: `tile_swap` and `tile_swap128` write the block-transposed matrix (tile (I, J) of
// `in`, untransposed inside, lands at tile (J, I) of `out`; out is cols x rows), so the lesson
// declares them reference lines (b.vendor) beside `copy` and checks them against their own CPU
// reference (reference.cpp, check_tile_swap).
//
// The question (docs/transpose.md): `tile64_f4` runs at 90.7% of cudaMemcpy at 16384^2 (3871
// GB/s), the `copy` kernel at 98.6% (4197 GB/s). Is the gap the DRAM/L2 cost of the order in
// which a transpose touches memory (each block reads 64 rows x 256 B and writes 64 rows x 256 B,
// the writes 64 KiB apart), or its in-SM work (shared stores, barrier, column reads)?
//
// `tile_swap` keeps tile64_f4's launch (2D grid of 64 x 64 tiles, blockIdx.x along cols, 256
// threads), its warp mapping (j = l % 8 + 8 (w % 2), q = l / 8 + 4 (w / 2), 4 steps of 16 rows)
// and so its exact global address stream: thread t loads the same 4 float4 of `in` and stores 4
// float4 to the same 4 addresses of `out` as in tile64_f4. It works because the float4 a thread
// loads, in[r0 + q + 16 k][c0 + 4 j ..], is exactly what the block swap puts at out[c0 + q + 16 k]
// [r0 + 4 j ..], the address tile64_f4's thread stores to. What is gone: the 16.6 KiB tile, the
// 16 scalar shared stores, the 16 scalar column reads and the __syncthreads per thread. Each
// thread issues its 4 loads, then its 4 stores (as tile64_f4, minus the barrier between them).
//
// Napkin math (16384^2, 2 GiB of useful traffic): at the copy kernel's 4197 GB/s 0.512 ms, at
// tile64_f4's 3871 GB/s 0.555 ms. Resident: no shared memory, <= 32 registers (the bounds), so 8
// blocks of 256 threads per SM (the 2048-thread limit, as tile64_f4), 1056 blocks = ~4.1 tile rows
// of the 256-tile-wide grid; 128 KiB of loads in flight per SM while all load (Little's law wants
// ~25 KB). The resident set reads ~264 whole in rows (64 KiB runs) and writes each of the 16384 out
// rows ~4 tiles x 256 B = 1 KiB, 64 KiB apart: tile64_f4's write pattern exactly.
//   Reading the result: tile_swap ~ tile64_f4 (~90%) -> the address stream is the ceiling and the
//   gap to copy is physical for this tile order; tile_swap ~ copy (~98%) -> the stream is free and
//   the gap is in-SM work (shared memory pipe, barrier), which a better kernel can recover.
//
// `tile_swap128`: the same with 128 x 128 tiles: each block reads 128 rows x 512 B and writes 128
// out rows x 512 B (runs twice as long per block). 1024 threads, each again 4 float4 in and 4 out
// (warp = 4 rows x 8 float4, warps w % 4 side by side along a 512-B row, 4 steps of 32 rows), so
// per thread the work and per SM the threads (2 blocks x 1024 = 2048) and bytes in flight (128
// KiB) are tile_swap's: only the run length per block and the tile order change. Note that the
// resident band is the same (~264 in rows, ~1 KiB per out row at a time), set by the bytes in
// flight, not by the tile: what doubles is the contiguous run of one block in each row it touches
// (a block moves 64 KiB each way over 128 rows x 512 B instead of 16 KiB over 64 rows x 256 B).
//   Reading the result: tile_swap128 > tile_swap -> longer per-block runs raise the ceiling (a
//   real 128-tile transpose, tile128_f4, could gain it); tile_swap128 ~ tile_swap -> run length
//   per block is not the lever.
//
// `tile_swap_pipe` (round six): is tile_swap slow because of the address stream or because of its
// own structure? ncu of tile_swap (86.9% of memcpy): long_scoreboard 117 cycles per instruction,
// i.e. each thread's 4 stores wait for its 4 loads, and the block's one tile is then done (the
// next block's loads start only when a slot frees up). tile_swap_pipe keeps the same global
// address stream per tile (64 x 64 tiles, 256 threads, the same j, q, 4 steps of 16 rows: the
// same 4 float4 loads and 4 float4 store addresses per thread and tile) on a persistent grid
// (the occupancy API's blocks per SM x SMs, clamped to the tiles) walking the tiles grid-stride
// in row-major tile order (tile i = blockIdx.x + m gridDim.x: row i / tiles_c, col i % tiles_c,
// tile_swap's blockIdx order). Software pipeline in registers: the 4 float4 loads of the block's
// next tile are issued before the 4 stores of its current tile (two register sets of 16 floats),
// so a thread always has a tile's loads in flight and its stores never wait on loads issued just
// before them.
// Napkin math: 56 registers (no spills; the two sets plus pointers: the 40 of 6 blocks spill), so
// 4 blocks of 256 threads per SM (__launch_bounds__(256, 4); occupancy 50%), 528 blocks on 132
// SMs: at 16384^2 65,536 tiles = ~124 per block (tail < 1%). Loads in flight per SM: 1024 threads
// x 64 B = 64 KiB at all times (Little's law wants ~25 KB; tile_swap has up to 128 KiB, but only
// while its threads wait). The resident set covers ~528 consecutive tiles = ~2 tile rows of the
// 256-tile-wide grid: each out row receives ~2 tiles x 256 B at a time (tile_swap ~4), the same
// 256-B runs 64 KiB apart. The element paths (whole non-vec tiles, clipped tiles) are tile_swap's,
// with their loops kept rolled (unrolled, they take 88 registers beside the next tile's set).
//   Reading the result: tile_swap_pipe ~97-100% of memcpy -> the 256-B-run write order is not a
//   DRAM ceiling; tile_swap was latency-bound by its load-wait-store structure, and a transpose
//   pipelined the same way (tile64_f4_pipe) can gain. tile_swap_pipe ~87-91% -> the order is the
//   ceiling: DRAM cannot take this stream faster, however it is issued.
//
// Round six b: `tile_swap_pipe` (82.8%) did not rise, so the load-wait-store structure is not the
// limiter; every kernel with the transpose's address stream stays <= 91% while the copy kernel
// reaches 98%. Hypothesis: the write order of the RESIDENT SET. tile_swap's ~1056 resident
// blocks (8 per SM x 132) are ~4.1 tile rows of `in`, so they write ALL 16384 out rows, ~1 KiB
// each, 64 KiB apart (tile64_f4_grouped's G = 8 squares, 64 blocks, only cut that to ~8448 rows
// x 2 KiB: the resident set is ~16 squares). Two more reference lines split the question:
// `tile_swap_g32`: tile_swap's body (swap_tile: the same tiles, threads, mapping, 4 float4 loads
// then 4 float4 stores per thread, the same bounds: 8 blocks per SM) on a 1D grid in the G = 32
// grouped raster (raster.cuh, as tile64_f4_g32): 1024 consecutive blocks cover a 2048 x 2048
// square, so the resident set (~33 tile rows of one square, 32 tiles wide) reads ~2112 in rows x
// 8 KiB and writes 2048-4096 out rows with 4-8 KiB each (instead of 16384 x 1 KiB). Napkin math:
// the same 2 GiB, the same per-block work; at the copy kernel's 4197 GB/s 0.512 ms, at
// tile_swap's ~86.9% of memcpy ~0.58 ms.
//   Reading the result: tile_swap_g32 >= 95% of memcpy -> the resident set's write order is the
//   lever (tile64_f4_g32 can gain it); tile_swap_g32 ~87% -> it is not.
// `tile_copy` (a copy, checked as one): tile64_f4's launch (2D grid of 64 x 64 tiles in row-major
// order, 256 threads, j = l % 8 + 8 (w % 2), q = l / 8 + 4 (w / 2), 4 steps of 16 rows: the same
// 4 float4 loads per thread) with tile_swap's register-only body, but each thread stores its 4
// float4 back to the SAME addresses in `out` (out = in). Its read stream is the transpose's; its
// write stream is the read stream's order (the resident set writes ~264 whole out rows, 64 KiB
// runs), i.e. tile_swap with only the write order changed. Same bounds (<= 32 registers, 8 blocks
// of 256 per SM), 16 KiB in flight per block; napkin math: 2 GiB, ~0.51 ms at the copy kernel's
// rate if the read order costs nothing.
//   Reading the result: tile_copy ~98% and tile_swap ~87% -> the write order alone costs the 11
//   points; tile_copy ~87-91% -> the 64-row x 256-B read pattern (or the block shape) costs them,
//   not the writes.
//
// Edges: a whole tile (T x T inside the matrix) whose rows and cols are multiples of 4 takes the
// float4 path; a whole tile otherwise (rows or cols not multiples of 4) is swapped element by
// element (the same mapping, 4-byte accesses, still coalesced both ways); a clipped edge tile (h x
// w, h or w < T) cannot be placed untransposed into its w x h slot of `out`, so it is transposed
// element by element (out[c][r] = in[r][c]): the mapping stays a bijection and check_tile_swap
// uses the same rule.
#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/persistent.cuh"
#include "transpose/raster.cuh"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {
namespace {

// The tiles the float4 path does not take, thread t of Threads: a whole tile (rows or cols not
// multiples of 4) swapped element by element, a clipped one transposed (see the header).
// Rolled (tile_swap_pipe): the loops stay rolled, so they do not hold registers beside the next
// tile's float4; otherwise the compiler's choice (tile_swap, tile_swap128).
template <int T, int Threads, bool Rolled = false>
__device__ __forceinline__ void swap_elements(const float* __restrict__ in, float* __restrict__ out,
                                              int rows, int cols, int r0, int c0, int t) {
  if (Rolled) {
    if (r0 + T <= rows && c0 + T <= cols) {
#pragma unroll 1
      for (int e = t; e < T * T; e += Threads) {
        const int a = e / T, b = e % T;
        out[at(c0 + a, r0 + b, rows)] = in[at(r0 + a, c0 + b, cols)];
      }
    } else {
#pragma unroll 1
      for (int e = t; e < T * T; e += Threads) {
        const int r = e / T, c = e % T;
        if (r0 + r < rows && c0 + c < cols)
          out[at(c0 + c, r0 + r, rows)] = in[at(r0 + r, c0 + c, cols)];
      }
    }
  } else if (r0 + T <= rows && c0 + T <= cols) {
    for (int e = t; e < T * T; e += Threads) {
      const int a = e / T, b = e % T;
      out[at(c0 + a, r0 + b, rows)] = in[at(r0 + a, c0 + b, cols)];
    }
  } else {
    for (int e = t; e < T * T; e += Threads) {
      const int r = e / T, c = e % T;
      if (r0 + r < rows && c0 + c < cols)
        out[at(c0 + c, r0 + r, rows)] = in[at(r0 + r, c0 + c, cols)];
    }
  }
}

// tile_swap's per-tile body (tile_swap, tile_swap_g32); origin() gives the tile's (r0, c0) (called
// after threadIdx.x is read, as tile_swap always did: its PTX stays as it was).
template <int T, int Threads, class Origin>
__device__ __forceinline__ void swap_tile(const float* __restrict__ in, float* __restrict__ out,
                                          int rows, int cols, Origin origin, bool vec) {
  constexpr int kF = T / 4;                                  // float4 per tile row: 16, 32
  constexpr int kWarpsPerRow = kF / 8;                       // 8 float4 per warp row: 2, 4
  constexpr int kWarps = Threads / 32;                       // 8, 32
  constexpr int kRowsPerStep = 4 * (kWarps / kWarpsPerRow);  // 16, 32
  constexpr int kSteps = T / kRowsPerStep;                   // 4, 4
  static_assert(kWarps % kWarpsPerRow == 0 && T % kRowsPerStep == 0, "mapping");
  const int t = static_cast<int>(threadIdx.x);
  const int2 o = origin();
  const int r0 = o.x, c0 = o.y;
  const bool whole = r0 + T <= rows && c0 + T <= cols;
  if (vec && whole) {
    const int lane = t % 32, warp = t / 32;
    const int j = lane % 8 + 8 * (warp % kWarpsPerRow), q = lane / 8 + 4 * (warp / kWarpsPerRow);
    float4 v[kSteps];
    load_rows_f4<kSteps, kRowsPerStep>(v, in, r0, c0, q, j, cols);
    // Out row c0 + a holds in row r0 + a of the tile, at out cols r0 .. r0 + T.
    store_rows_f4<kSteps, kRowsPerStep>(v, out, c0, r0, q, j, rows);
  } else {
    swap_elements<T, Threads>(in, out, rows, cols, r0, c0, t);
  }
}

// One T x T tile per block, Threads threads; see the header for the mapping. The bounds ask for
// 2048 threads per SM (<= 32 registers): left alone, ptxas takes 37 for T = 64, i.e. 6 blocks
// per SM instead of tile64_f4's 8, and the control would differ in occupancy.
template <int T, int Threads>
__global__ void __launch_bounds__(Threads, 2048 / Threads)
    tile_swap(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, bool vec) {
  swap_tile<T, Threads>(
      in, out, rows, cols,
      [] { return make_int2(static_cast<int>(blockIdx.y) * T, static_cast<int>(blockIdx.x) * T); },
      vec);
}

// tile_swap_g32 (see the header): tile_swap's body, block b of a 1D grid taking tile (tr, tc) of
// the G = 32 grouped raster (raster.cuh); the same bounds (8 blocks of 256 threads per SM).
__global__ void __launch_bounds__(256, 8)
    tile_swap_g32(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                  unsigned tiles_r, unsigned tiles_c, bool vec) {
  swap_tile<kSwapTile, 256>(
      in, out, rows, cols,
      [=] {
        unsigned tr = 0, tc = 0;
        grouped_tile<kGroup32>(blockIdx.x, tiles_r, tiles_c, tr, tc);
        return make_int2(static_cast<int>(tr) * kSwapTile, static_cast<int>(tc) * kSwapTile);
      },
      vec);
}

// tile_copy (see the header): tile64_f4's 2D grid, threads and load mapping; each thread's 4
// float4 go back to the addresses they came from, in `out` (rows x cols, like `in`). Edge tiles
// and sizes whose rows or cols are not multiples of 4: element by element, coalesced both ways.
__global__ void __launch_bounds__(256, 8)
    tile_copy(const float* __restrict__ in, float* __restrict__ out, int rows, int cols, bool vec) {
  constexpr int T = kSwapTile;
  const int t = static_cast<int>(threadIdx.x);
  const int r0 = static_cast<int>(blockIdx.y) * T, c0 = static_cast<int>(blockIdx.x) * T;
  if (vec && r0 + T <= rows && c0 + T <= cols) {
    const int lane = t % 32, warp = t / 32;
    const int j = lane % 8 + 8 * (warp % 2), q = lane / 8 + 4 * (warp / 2);
    float4 v[4];
    load_rows_f4<4, 16>(v, in, r0, c0, q, j, cols);
    store_rows_f4<4, 16>(v, out, r0, c0, q, j, cols);
  } else {
    for (int e = t; e < T * T; e += 256) {
      const int r = e / T, c = e % T;
      if (r0 + r < rows && c0 + c < cols)
        out[at(r0 + r, c0 + c, cols)] = in[at(r0 + r, c0 + c, cols)];
    }
  }
}

// tile_swap_pipe (see the header): tile_swap's 64-tile, 256 threads and mapping on a persistent
// grid, tile i = blockIdx.x + m gridDim.x in row-major tile order; `a` holds the current tile's 4
// float4, `b` the next tile's, loaded before `a` is stored. Every branch is uniform per block.
constexpr int kPipeTile = kSwapTile, kPipeThreads = 256, kPipeSteps = 4, kPipeStep = 16;
constexpr int kPipeMinBlocks = 4;  // 4 x 256 threads per SM: <= 64 registers (56 used)

__global__ void __launch_bounds__(kPipeThreads, kPipeMinBlocks)
    tile_swap_pipe(const float* __restrict__ in, float* __restrict__ out, int rows, int cols,
                   int tiles_c, int tiles, bool vec) {
  const int t = static_cast<int>(threadIdx.x), lane = t % 32, warp = t / 32;
  const int j = lane % 8 + 8 * (warp % 2), q = lane / 8 + 4 * (warp / 2);
  TileWalk<kPipeTile> walk(tiles_c, tiles, rows, cols, vec);
  if (walk.idle()) return;
  float4 a[kPipeSteps];
  TileAt cur = walk.first<kPipeSteps, kPipeStep>(a, in, q, j);
  for (;;) {
    const bool more = walk.more();
    const TileAt next = more ? walk.next() : TileAt{0, 0, false};
    float4 b[kPipeSteps];
    if (next.fast) load_rows_f4<kPipeSteps, kPipeStep>(b, in, next.r0, next.c0, q, j, cols);
    if (cur.fast) {
      // Out row c0 + x holds in row r0 + x of the tile, at out cols r0 .. r0 + 64.
      store_rows_f4<kPipeSteps, kPipeStep>(a, out, cur.c0, cur.r0, q, j, rows);
    } else {
      swap_elements<kPipeTile, kPipeThreads, true>(in, out, rows, cols, cur.r0, cur.c0, t);
    }
    if (!more) break;
    walk.advance();
    cur = next;
    if (cur.fast) {
#pragma unroll
      for (int k = 0; k < kPipeSteps; ++k) a[k] = b[k];
    }
  }
}

template <int T, int Threads>
void launch_swap(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  tile_swap<T, Threads>
      <<<grid_for(rows, cols, T), Threads, 0, s>>>(in, out, rows, cols, float4_rows(rows, cols));
}

}  // namespace

void launch_tile_swap(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_swap<kSwapTile, 256>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile_swap);
}

void launch_tile_swap_pipe(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  static const unsigned resident = resident_blocks(tile_swap_pipe, kPipeThreads);
  const PersistentGrid g = persistent_grid<kPipeTile>(resident, rows, cols);
  tile_swap_pipe<<<g.blocks, kPipeThreads, 0, s>>>(in, out, rows, cols, g.tiles_c, g.tiles, g.vec);
  MEMLAB_CHECK_LAUNCH(tile_swap_pipe);
}

void launch_tile_swap_g32(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  const dim3 tiles = grid_for(rows, cols, kSwapTile);  // x: tile cols, y: tile rows
  tile_swap_g32<<<tiles.x * tiles.y, 256, 0, s>>>(in, out, rows, cols, tiles.y, tiles.x,
                                                  float4_rows(rows, cols));
  MEMLAB_CHECK_LAUNCH(tile_swap_g32);
}

void launch_tile_copy(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  tile_copy<<<grid_for(rows, cols, kSwapTile), 256, 0, s>>>(in, out, rows, cols,
                                                            float4_rows(rows, cols));
  MEMLAB_CHECK_LAUNCH(tile_copy);
}

void launch_tile_swap128(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_swap<kSwapTile128, 1024>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile_swap128);
}

}  // namespace memlab::lessons::transpose
