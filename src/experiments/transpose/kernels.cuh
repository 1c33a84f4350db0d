// transpose: out = in^T for a rows x cols float matrix (row-major; out is cols x rows).
// Variants: the enumerators of `Variant` below (32x32 tiles unless named).
// Napkin math (H200): useful bytes 2 * rows * cols * 4; 16384^2 moves 2 GiB, ~0.5 ms at
// ~4.3 TB/s. naive, by the column model, moves 4 + 32 bytes per float (9x: ~2.2 ms cold) unless
// L2 merges the partial sectors of neighbouring warps before they are written back. smem: 32
// wavefronts per 128-byte warp read, i.e. 4 bytes/clk/SM of shared bandwidth, below the ~16
// bytes/clk/SM share of DRAM bandwidth (4.3 TB/s / 132 SMs / 1.98 GHz): conflict bound, ~4x slower.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::transpose {

enum class Variant {
  // 32x32 threads, one element each: reads in[r][c] along a row (coalesced), writes out[c][r] down
  // a column: a warp's 32 stores land rows*4 bytes apart, 32 sectors of which 4 bytes each are
  // useful (the coalescing model's column pattern).
  Naive,
  // tile[32][32] in shared memory, 32x32 threads: coalesced global reads and writes, but the write
  // phase reads a tile column, tile[tx][ty]: 32 lanes, stride 32 words, all in one bank -> 32-way
  // conflict (32 shared wavefronts per warp read).
  Smem,
  // tile[32][33]: the column read has stride 33 words, 32 different banks.
  SmemPadded,
  // tile[32][33], 32x8 threads, each moves 4 rows: 4 independent loads in flight per thread, a
  // quarter of the threads (the classic CUDA-samples shape).
  PaddedCoarse,
  // 64x64 tile, padded to 65, 256 threads, 16-byte global loads and stores (float4; 4 per thread in
  // flight, 64 bytes); each warp covers 4 rows x 8 float4 so that both the scalar shared stores
  // (bank r + 4j + k) and the column reads (bank 4i + k + c) hit 32 different banks. Edge tiles and
  // sizes whose rows or cols are not multiples of 4 take a scalar path.
  Tile64F4,
  // Issue 23 (kernels_tile.cu): tile64_f4's kernel on a 1D grid with a grouped raster: consecutive
  // block ids cover 8 x 8 squares of tiles (bands of 8 tile rows, squares in column order), so
  // the resident blocks write 2 KiB contiguous per out row instead of ~1 KiB, and read 2 KiB+ per
  // in row.
  Tile64F4Grouped,
  // Issue 23 (kernels_tile.cu): 128 in rows x 64 in cols per block (65-float padded rows, 33 KiB),
  // 256 threads with 8 independent float4 loads each before the barrier (32 KiB in flight per
  // block) and 8 float4 stores of 512 contiguous bytes per out row; the grouped raster.
  Tile64F4Deep,
  // Round six b (kernels_tile.cu, issue 23): tile64_f4_grouped's kernel with squares of G = 32
  // tiles (1024 consecutive blocks cover 2048 x 2048): the ~1056 resident blocks write ~2048-4096
  // out rows with 4-8 KiB each instead of all 16384 with ~1 KiB (tile64_f4) or ~8448 with 2 KiB
  // (G = 8): whether the resident set's write order is the limiter.
  Tile64F4G32,
  // Round six c (kernels_scalar.cu, issue 23): cuBLAS's shape: 64 x 64 tile, 256 threads as
  // 32 x 8, 16 scalar loads per thread first (each warp one 128-byte line of an in row), the tile
  // through one 64 x 33-float buffer (8448 B) in two 32-column halves, conflict-free STS and LDS,
  // 3 barriers, scalar 128-byte-line stores; every access guarded (any size).
  Tile64S,
  // Round six c (kernels_scalar.cu): tile64_s with the whole 64 x 65-float tile (16.6 KiB) and
  // one barrier.
  Tile64SFull,
  // Round six d (kernels_scalar.cu): tile64_s split by in rows, cuBLAS's way (32 x 65 buffer).
  Tile64SRows,
  // Session 9 (kernels_scalar.cu, issue 23): tile64_s_rows at cuBLAS's 32 registers (8 blocks per
  // SM instead of 6) where the matrix is whole 64 x 64 tiles: no guards, one pointer per side
  // stepped by 8 rows; other sizes run tile64_s_rows's guarded kernel.
  Tile64SRows32,
  // Round seven (kernels_scalar.cu, issue 23): tile64_s_full with the block order transposed
  // (a 1D grid, consecutive blocks walk the tile rows of one tile col): the resident set reads
  // every in row ~1 KiB and writes ~264 whole out rows (64 KiB runs): long write runs instead of
  // long read runs.
  Tile64SCol,
  // Round seven (kernels_scalar.cu): tile64_s_full with its 16 loads as
  // ld.global.nc.L2::256B.f32: an L2 miss fetches the whole 256-B block (a block's two 128-B
  // lines of an in row): whether DRAM's 81% is the miss stream's request granularity.
  Tile64SL2p,
  // Session 10 (kernels_scalar.cu): tile64_s_col's block order with tile64_s_l2p's 256-B loads,
  // the two round-seven steps together (they act on the write and the read stream).
  Tile64SColL2p,
  // Round five (kernels_tile128.cu, issue 23): 128 x 128 tiles (128 x 129 floats, 64.5 KiB of
  // dynamic shared memory, 3 blocks per SM), 512 threads with 8 float4 loads in flight each and
  // 8 float4 stores: 512-byte runs per block and row each way (tile64_f4: 256 B); tile64_f4's
  // conflict-free warp mapping (4 rows x 8 float4), its 2D grid order; edges: the scalar path.
  Tile128F4,
  // Round six (kernels_pipe.cu, issue 23): tile64_f4's tile, padding, mapping and banks on a
  // persistent grid walking the tiles grid-stride in row-major tile order, two shared tiles and
  // one barrier per tile; each thread issues its next tile's 4 float4 loads right after its
  // shared stores of the current one, so they are in flight through the barrier, the column
  // reads and the global stores; 6 blocks per SM.
  Tile64F4Pipe,
  // Hopper (sm_90), kernels_tma.cu: 32x32 boxes loaded and stored by the Tensor Memory
  // Accelerator (2D tensor maps, mbarrier, 128-byte swizzle), transposed in shared memory as 4x4
  // register blocks with 16-byte conflict-free accesses; rows, cols multiples of 4.
  Tma,
  // Hopper (sm_90), kernels_tma_pipelined.cu (issue 23): the tma tiles with a persistent grid
  // (8 blocks of 64 threads per SM, grid-stride over tiles), each block with 4 tile loads in flight
  // in an mbarrier ring and 2 store buffers, so the TMA store of one tile overlaps the next
  // tiles' loads and transposes; rows, cols multiples of 4.
  TmaPipelined,
  // Round two (kernels_tma_pipelined.cu, issue 23): the same ring code with 2 tile loads in
  // flight and 2 store buffers per block (17 KiB), so 12 blocks of 64 threads per SM instead of
  // 8: more independent wait -> transpose -> store chains per SM; rows, cols multiples of 4.
  TmaPipelinedMany,
  // Round three (kernels_tma_ws.cu, issue 23): warp-specialised TMA: a persistent grid of blocks
  // with one producer warp (one lane issuing the 32x32 box loads into an 8-stage ring with full /
  // empty mbarriers) and 4 consumer warps, each its own chain (transpose in registers, TMA store
  // from its 2 output buffers); __syncwarp only, no __syncthreads in the steady state; tiles in
  // the grouped raster; rows, cols multiples of 4.
  TmaWs,
  // Round five (kernels_swap.cu, issue 23), NOT a transpose: tile64_f4's launch, grid and global
  // address stream (the same float4 loads and store addresses per thread) with no shared memory
  // and no barrier; out is the block-transposed matrix (tile (I, J) of in, untransposed inside,
  // at tile (J, I) of out; clipped edge tiles transposed). The ceiling of the transpose's address
  // stream: a reference line beside copy.
  TileSwap,
  // Round five, NOT a transpose: tile_swap with 128 x 128 tiles (512-byte runs per block and row
  // each way), 1024 threads x 4 float4: whether longer per-block runs raise that ceiling.
  TileSwap128,
  // Round six (kernels_swap.cu), NOT a transpose: tile_swap's per-tile address stream (same
  // tiles, threads, mapping, float4 addresses) on a persistent grid walking the tiles grid-stride
  // in row-major tile order, the next tile's 4 float4 loads issued before the current tile's 4
  // stores (two register sets): whether tile_swap's gap is its load-wait-store structure.
  TileSwapPipe,
  // Round six b (kernels_swap.cu), NOT a transpose: tile_swap's per-tile body (same tiles,
  // threads, mapping, float4 addresses, 4 loads then 4 stores) on a 1D grid in tile64_f4_g32's
  // G = 32 raster: tile_swap's stream with the resident set's writes in 2048-4096 out rows.
  TileSwapG32,
  // Round six b (kernels_swap.cu), NOT a transpose: out = in through tile64_f4's launch (2D grid
  // of 64 x 64 tiles, 256 threads, its load mapping) with tile_swap's register-only body, each
  // tile stored untransposed at its own place: the transpose's read stream, and writes in the
  // read stream's order (each block 64 rows x 256 B of `out`, the resident set ~264 whole rows).
  TileCopy,
  // Round seven (kernels_scalar.cu), NOT a transpose: tile64_s_full's kernel exactly (grid,
  // threads, loads, 64 x 65 buffer, barrier, out addresses) but for the shared read of a whole
  // tile, row-wise (buf[c][r], conflict free): tile (I, J) lands untransposed at tile (J, I)
  // (clipped tiles transposed), checked by check_tile_swap: tile64_s_full's address stream with no
  // in-tile transposition.
  TileMirror,
  // The library's transpose (vendor.cpp): cublasSgeam(T, N) with alpha 1 and beta 0, row-major in
  // -> row-major out; skipped where cuBLAS is not installed.
  Cublas,
  // out = in (not a transpose): the 32x8-thread, 4-rows-per-thread shape without the tile, the
  // ceiling a tiled transpose is measured against.
  Copy,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Naive, "naive", "one element per thread, coalesced reads, column (strided) writes"},
    {Variant::Smem, "smem", "32x32 shared tile, column read is a 32-way bank conflict"},
    {Variant::SmemPadded, "smem_padded", "32x33 shared tile: conflict-free column read"},
    {Variant::PaddedCoarse, "padded_coarse", "32x33 tile, 32x8 threads moving 4 rows each"},
    {Variant::Tile64F4, "tile64_f4",
     "64x65 tile, float4 global accesses, conflict-free warp mapping"},
    {Variant::Tile64F4Grouped, "tile64_f4_grouped",
     "tile64_f4 with a grouped raster: 8 x 8 squares of tiles per 64 consecutive blocks"},
    {Variant::Tile64F4Deep, "tile64_f4_deep",
     "128 x 64 tiles, 8 float4 loads in flight per thread, grouped raster"},
    {Variant::Tile64F4G32, "tile64_f4_g32",
     "tile64_f4 with a G = 32 grouped raster: 32 x 32 squares of tiles per 1024 blocks"},
    {Variant::Tile64S, "tile64_s",
     "cuBLAS's shape: 64x64 tile, scalar 128-B-line accesses, two 32-column halves in 64x33"},
    {Variant::Tile64SFull, "tile64_s_full", "tile64_s with the whole 64x65 tile and one barrier"},
    {Variant::Tile64SRows, "tile64_s_rows",
     "tile64_s split by in rows, cuBLAS's way: a 32x65 buffer, 64 out rows x 128 B per half"},
    {Variant::Tile64SRows32, "tile64_s_rows32",
     "tile64_s_rows at 32 registers (8 blocks per SM): whole tiles unguarded, stepped pointers"},
    {Variant::Tile64SCol, "tile64_s_col",
     "tile64_s_full with the block order transposed: consecutive blocks walk tile rows"},
    {Variant::Tile64SL2p, "tile64_s_l2p",
     "tile64_s_full with its loads as ld.global.nc.L2::256B (a miss fetches 256 B)"},
    {Variant::Tile64SColL2p, "tile64_s_col_l2p",
     "tile64_s_col's block order with tile64_s_l2p's 256-B loads: both round-seven steps"},
    {Variant::Tile128F4, "tile128_f4",
     "128 x 129 tile (64.5 KiB, 3 blocks per SM), 512 threads x 8 float4: 512-byte runs"},
    {Variant::Tile64F4Pipe, "tile64_f4_pipe",
     "tile64_f4 persistent: 2 shared tiles, next tile's loads in flight across the barrier"},
    {Variant::Tma, "tma",
     "Hopper TMA: 32x32 boxes in and out by the copy engine, swizzled tile, 4x4 blocks"},
    {Variant::TmaPipelined, "tma_pipelined",
     "Hopper TMA, persistent: 4 tile loads in flight per block, 2 store buffers, overlapped"},
    {Variant::TmaPipelinedMany, "tma_pipelined_many",
     "tma_pipelined with 2 load stages + 2 store buffers: 12 blocks per SM instead of 8"},
    {Variant::TmaWs, "tma_ws",
     "Hopper TMA, warp-specialised: producer warp + 4 consumer warps, mbarrier ring"},
    {Variant::TileSwap, "tile_swap",
     "reference (not a transpose): tile64_f4's address stream, no shared memory, tiles swapped"},
    {Variant::TileSwap128, "tile_swap128",
     "reference (not a transpose): tile_swap with 128 x 128 tiles, 512-byte runs"},
    {Variant::TileSwapPipe, "tile_swap_pipe",
     "reference (not a transpose): tile_swap persistent, next tile's loads before the stores"},
    {Variant::TileSwapG32, "tile_swap_g32",
     "reference (not a transpose): tile_swap on the G = 32 grouped raster (1D grid)"},
    {Variant::TileCopy, "tile_copy",
     "reference (a copy): tile64_f4's launch and loads, each tile stored at its own place"},
    {Variant::TileMirror, "tile_mirror",
     "reference (not a transpose): tile64_s_full with a row-wise shared read, tiles swapped"},
    {Variant::Cublas, "cublas", "vendor: cuBLAS's transpose, cublasSgeam(T, N), alpha 1, beta 0"},
    {Variant::Copy, "copy",
     "ceiling: out = in with the 32x8-thread, 4-rows shape (not a transpose)"},
};

// The Tile64F4Grouped, Tile64F4Deep and Tile64F4G32 variants (kernels_tile.cu); any rows, cols.
void launch_tile64_grouped(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_deep(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_g32(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The Tile64S, Tile64SFull and Tile64SRows variants (kernels_scalar.cu); any rows, cols.
void launch_tile64_s(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_s_full(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_s_rows(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_s_rows32(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// Round seven (kernels_scalar.cu): Tile64SCol, Tile64SL2p and the TileMirror reference line (a
// block transpose: check_tile_swap with kSwapTile); any rows, cols.
void launch_tile64_s_col(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_s_l2p(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile64_s_col_l2p(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile_mirror(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The Tile64F4Pipe variant (kernels_pipe.cu); any rows, cols.
void launch_tile64_pipe(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The Tile128F4 variant (kernels_tile128.cu); any rows, cols.
void launch_tile128_f4(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The Tma variant (kernels_tma.cu); needs sm_90 and rows, cols multiples of 4.
void launch_tma(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The TmaPipelined variant (kernels_tma_pipelined.cu); same needs.
void launch_tma_pipelined(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The TmaPipelinedMany variant (kernels_tma_pipelined.cu); same needs.
void launch_tma_pipelined_many(const float* in, float* out, int rows, int cols,
                               cudaStream_t stream);
// The TmaWs variant (kernels_tma_ws.cu); same needs.
void launch_tma_ws(const float* in, float* out, int rows, int cols, cudaStream_t stream);

// The TileSwap and TileSwap128 reference lines (kernels_swap.cu); any rows, cols. Tile edges:
// the reference (check_tile_swap) takes the same.
inline constexpr int kSwapTile = 64, kSwapTile128 = 128;
void launch_tile_swap(const float* in, float* out, int rows, int cols, cudaStream_t stream);
void launch_tile_swap128(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The TileSwapPipe reference line (kernels_swap.cu); any rows, cols; check_tile_swap with 64.
void launch_tile_swap_pipe(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The TileSwapG32 reference line (kernels_swap.cu); any rows, cols; check_tile_swap with 64.
void launch_tile_swap_g32(const float* in, float* out, int rows, int cols, cudaStream_t stream);
// The TileCopy reference line (kernels_swap.cu): out = in (rows x cols); any rows, cols.
void launch_tile_copy(const float* in, float* out, int rows, int cols, cudaStream_t stream);

// Every variant but Cublas (which needs the lesson's handle: vendor.hpp; launch throws for it).
void launch(Variant variant, const float* in, float* out, int rows, int cols, cudaStream_t stream);

}  // namespace memlab::lessons::transpose
