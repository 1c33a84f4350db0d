// transpose, issue 23 round six c: cuBLAS's shape. Scalar 4-byte global accesses, one 64 x 64
// tile per block, the tile through a small padded shared buffer.
//
// Why: at 16384^2 on the H200 tile64_f4 reaches 91.2% of cudaMemcpy, cuBLAS's transpose
// (cublasSgeam, the `cublas` vendor line) 93.7%. ncu of cuBLAS's kernel
// (transpose_readWrite_alignment_kernel<float,float,1,0,6,5,3>): grid 256 x 256 (one 64 x 64 tile
// per block), 256 threads, 32 registers, 8320 B static shared memory (32 x 65 floats), 8 blocks
// per SM (occupancy 98%), SCALAR global accesses (16 ld and 16 st per thread, 4 sectors = 128 B
// per warp request), 16 LDS + 16 STS per thread, 269k shared bank conflicts (tile64_f4: 964k, its
// float4 loads + 16 scalar STS), stalls long_scoreboard 23, barrier 5.5 (tile64_f4:
// long_scoreboard 33, mio_throttle 25, barrier 13). The limiter attacked: tile64_f4's
// mio_throttle (the shared-memory instruction queue: each float4 load becomes 4 scalar STS that a
// warp issues back to back, with bank conflicts on top) and its barrier wait; cuBLAS's shape is
// the reference.
//
// Mapping (both variants): 256 threads as 32 x 8, tx = lane, ty = warp; 2D grid like tile64_f4
// (blockIdx.x along cols, blockIdx.y along rows), tile rows r0 .. r0 + 64, cols c0 .. c0 + 64.
// Load: all 16 loads first, into registers: v[j][i] = in[r0 + ty + 8 i][c0 + 32 j + tx], i < 8,
// j < 2: each warp instruction reads one 128-byte line of one in row (c0 a multiple of 64, so the
// 32 floats at c0 + 32 j are one aligned line). Store: out row c0 + c (= in column c0 + c) gets in
// rows r0 + tx and r0 + 32 + tx: each warp instruction writes 128 contiguous bytes (one line) of
// one out row (r0 a multiple of 64).
//
// `tile64_s` (Full = false): the tile in TWO halves through one 64 x 33-float buffer (8448 B;
// cuBLAS: 8320 B): half h = in columns c0 + 32 h .. + 32; buf[r][c], r < 64 (in row r0 + r),
// c < 32 (in col c0 + 32 h + c), row stride 33.
//   store: thread (tx, ty) writes buf[ty + 8 i][tx] = v[h][i] (8 STS). A warp: one r, c = lane:
//     word 33 r + lane, bank (r + lane) mod 32: 32 distinct banks, conflict free.
//   __syncthreads; column read: out row c0 + 32 h + c, c = ty + 8 k (k < 4), reads buf[tx][c] and
//     buf[32 + tx][c] (8 LDS): a warp has one c, r = lane (+ 32): word 33 r + c, bank
//     (r + c) mod 32 = (lane + c) mod 32: 32 distinct banks, conflict free; 8 STG.
//   __syncthreads before half 1 overwrites the buffer. Barriers: 3 per tile.
// `tile64_s_full` (Full = true): one 64 x 65-float tile (16,640 B, tile64_f4's), one barrier:
//   store tile[ty + 8 i][32 j + tx] (16 STS): bank (r + 32 j + lane) mod 32 = (r + lane) mod 32,
//   distinct; read tile[tx + 32 m][c], c = ty + 8 k (k < 8), m < 2 (16 LDS): bank
//   (lane + 32 m + c) mod 32 = (lane + c) mod 32, distinct. Conflict free both ways.
//
// `tile64_s_rows` (round six d, cuBLAS's split read off its SASS through ncu's source page): the
// same loads, the tile in two halves of IN ROWS through one 32 x 65-float buffer (8320 B, cuBLAS's
// figure): half h = in rows r0 + 32 h .. + 32, i.e. v[j][4 h .. 4 h + 3].
//   store: buf[ty + 8 i][32 j + tx] = v[j][4 h + i], i < 4, j < 2 (8 STS): bank (r + lane) mod 32,
//     distinct. __syncthreads; read: out row c0 + c, c = ty + 8 k (k < 8: every out row of the
//     tile), out col r0 + 32 h + tx = buf[tx][c] (8 LDS: bank (lane + c) mod 32, distinct), 8 STG
//     of 128 B each. __syncthreads before half 1 overwrites. Barriers: 3 per tile, as tile64_s.
//   What differs from tile64_s: per half the block writes all 64 of its out rows, 128 B each, and
//   each out row gets its second 128 B one barrier later (tile64_s: 32 out rows x 256 B per half).
//
// Napkin math: 16 independent 4-byte loads per thread before the first barrier: bytes in flight
// per SM = 8 blocks x 256 threads x 16 x 4 B = 128 KiB (tile64_f4: the same 128 KiB as 4 float4;
// Little's law wants ~25 KB per SM at 4.3 TB/s). Shared memory 8.4 KB per block (tile64_s:
// 8 x 8448 = 67.6 KB per SM) or 16.6 KB (tile64_s_full: 133 KB per SM): 8 blocks per SM either
// way if registers <= 32 (256 threads x 8 = 2048, the thread limit). Shared instructions: 16 STS
// + 16 LDS per thread, as tile64_f4, but issued as 8 + 8 per half between barriers and with no
// conflicts (tile64_f4: 964k conflicts); global instructions 32 per thread instead of 8 (4x the
// LSU issue, each a full 128-B line per warp: the same sectors).
// Prediction (not yet measured): tile64_s ~ cuBLAS (~93-94% of memcpy), above tile64_f4's 91.2%
// if the mio queue and conflicts are its limiter; tile64_s_full between (one barrier, but twice the
// shared memory per block: still 8 blocks per SM).
//
// Edges: rows, cols not multiples of 64 (or of 4): every global load and store is guarded
// (r < rows, c < cols); no float4 path, so any size works. Unloaded registers hold 0 and go to
// shared memory unconditionally (all shared indices are inside the buffer); their out positions are
// outside the matrix, so the guarded stores drop them.
//
// Round seven (issue 23): three kernels sharing tile64_s_full's body (scalar_tile<true, K>, one
// flag K each: tile64_full_k<K>; K = kPlain is tile64_s_full, tile64_scalar<true>, whose PTX and
// SASS the flag leaves as they were), each changing ONE thing. Today at 16384^2 (H200):
// tile64_s_full 92.1-92.5% of memcpy, cublas 93.3-93.7%, tile_copy (the transpose's read stream,
// written back in place) 96.3-96.8%, tile_swap (float4, no shared memory, tiles swapped
// untransposed) 86.9%.
//
// `tile_mirror` (K = kMirror; a REFERENCE line like tile_swap, NOT a transpose, checked by
// check_tile_swap as a block transpose). The question: tile64_s_full's 4-5 points under tile_copy,
// are they its address stream (writes in transposed order) or its in-SM transposition (the column
// read of the shared tile)? tile_mirror is tile64_s_full exactly (grid, 256 threads, the 16 scalar
// loads, the 64 x 65 buffer and its 16 STS, one barrier, 16 LDS, the 16 guarded stores to the same
// out address per thread and instruction) but for the shared read: a whole tile reads buf[c][r]
// (row-wise) instead of buf[r][c], so out row c0 + c, col r0 + r gets in[r0 + c][c0 + r]: tile
// (I, J) lands untransposed at tile (J, I) of out (cols x rows), tile_swap's result. A clipped
// tile reads buf[r][c] as tile64_s_full does (transposed: check_tile_swap's rule for edge tiles).
//   Banks of the row-wise read: a warp has one c = ty + 8 k, r = lane + 32 m: word 65 c + lane +
//   32 m, bank (c + lane) mod 32: 32 distinct banks, conflict free (the STS are unchanged). Each
//   thread reads back exactly the 16 words it stored (k = i, m = j); the barrier stays.
//   Napkin math: the same 2 GiB of DRAM traffic in the same order as tile64_s_full, the same
//   instructions (16 LDG, 16 STS, 1 barrier, 16 LDS, 16 STG; plus one block-uniform whole-tile
//   test after the barrier; clipped tiles take a rolled loop), 32 registers, 0 spills, 16,640 B:
//   8 blocks per SM. At tile64_s_full's 542.7 us it is 92.5%; at tile_copy's ~520 us ~96%.
//   Prediction (not yet measured): ~tile64_s_full (92-93%), since tile_swap (the same stream in
//   float4, no shared memory) is even lower (86.9%) and tile_copy's in-place writes are the only
//   control above 93%.
//   Reading the result: tile_mirror ~ tile64_s_full (~92.5%) -> the address stream is the ceiling
//   of this structure, and the in-tile transposition is free; ~96% -> the shared column read (not
//   the write order) costs the points, and a transpose whose LDS read rows could gain them.
//
// `tile64_s_col` (K = kColOrder): tile64_s_full with the block order transposed: consecutive
// blocks walk tile ROWS (a 1D grid; block b takes tile row b mod tiles_r, tile col b / tiles_r:
// blockIdx.x as the tile row first, without gridDim.y's 65535 limit on the tile cols), so they go
// down one tile column. Question: are long WRITE runs worth more to DRAM than long READ runs?
// Today's order (tile64_s_full): the ~1056 resident blocks (8 per SM x 132) are ~4.1 tile rows:
// they read ~264 whole in rows (64 KiB runs) and write all 16384 out rows ~1 KiB each (4 tiles x
// 256 B, 64 KiB apart). tile64_s_col's ~1056 resident blocks are ~4.1 tile COLUMNS: they read
// every in row ~1 KiB (4 tiles x 256 B) and write ~264 whole out rows (64 KiB runs): the two
// streams' roles swapped. Per block nothing else changes (the same tile, threads, instructions
// but one 32-bit division, 32 registers, 8 blocks per SM).
//   Napkin math: 2 GiB either way; tile_copy (reads as tile64_s_full's, writes in 64 KiB runs too)
//   runs at 96.3-96.8%, so whole-row writes with short-run reads could reach ~96% if only the write
//   side's run length matters, or stay at ~92% if the short runs cost the same on either side.
//   Prediction (not yet measured): 92-94%: above tile64_s_full by at most ~1.5 points (DRAM writes
//   prefer long runs, but 1 KiB read runs in 16384 rows now scatter the reads as the writes were).
//   Reading the result: tile64_s_col > tile64_s_full by >= 2 points -> long write runs are worth
//   more than long read runs (the raster should favour the writes); ~tile64_s_full -> the run
//   length of either side is not the lever; lower -> the read side's runs matter more.
//
// `tile64_s_l2p` (K = kL2p): tile64_s_full with its 16 loads as ld.global.nc.L2::256B.f32 (inline
// PTX, ISA 7.4+, sm_80+; nvcc already emits ld.global.nc.f32 for them): the L2 prefetch-size
// qualifier makes a miss fetch the whole aligned 256-B block from DRAM. A block's in row r0 + ty +
// 8 i is read as two 128-B lines (j = 0, 1; c0 is a multiple of 64 floats, so the pair is one
// aligned 256-B block), 8 load instructions apart: with the hint the first miss fetches both. The
// question: is DRAM's 81% of peak (ncu, tile64_s_full; tile_copy 85%) a sector-granularity
// inefficiency of the miss stream (128-B requests for lines whose neighbour comes soon after)?
//   Napkin math: the same 2 GiB; the read stream's DRAM requests halve in count (262,144 tiles x 64
//   rows: 16.8M 256-B requests instead of 33.6M 128-B ones), nothing else changes (32 registers,
//   8 blocks per SM). If read efficiency rose from ~81% to tile_copy's ~85% the kernel would gain
//   ~2-3 points.
//   Prediction (not yet measured): within 1 point of tile64_s_full (~92-93%): the second line's
//   request follows within a few hundred cycles and the memory controller likely merges it already.
//   Reading the result: tile64_s_l2p >= 94% -> the miss granularity was a limiter (apply the hint
//   to the other kernels, and look at the writes' granularity); ~tile64_s_full -> it is not.
//   SASS: no cuobjdump where this was written, so the cubin was read raw: each of the 16 LDG
//   (sm_90 opcode 0x981) carries 3 in the 2-bit field at instruction bits 68-69 (tile64_s_full's
//   LDG: 0); a probe kernel with .L2::64B / 128B / 256B gives 1 / 2 / 3 there, so it is the
//   LTC prefetch size (cuobjdump -sass should print LDG.E.LTC256B.CONSTANT; not seen as text).
//
// `tile64_s_col_l2p` (K = kColL2p, session 10): tile64_s_col's order with tile64_s_l2p's loads,
// the two round-seven steps that each bought 0.5-0.6 points over tile64_s_full on an H100
// (session 9, `--repeat 3`: _col 95.0 / 95.0 / 95.0, _l2p 94.8-95.2, _full 94.3-94.6% of memcpy).
// They act on different streams: the column order lengthens the write runs and makes the reads
// 1 KiB runs (4 tiles x 256 B per in row), and in those short runs each tile row is exactly one
// 256-B block, whose second line the hint fetches with the first. Napkin math: the same 2 GiB, the
// same 16 LDG / 16 STS / 1 barrier / 16 LDS / 16 STG, 32 registers, 8 blocks per SM. Prediction
// (not yet measured): at least tile64_s_col, up to ~0.5 point above it if the gains add (H100:
// ~95.5%; the H200 figures of both steps are still to be taken).
// Measured on an H100 (session 10, docs/transpose.md): 97.1% at 16384^2 (tile64_s_col 96.4%, cuBLAS
// 97.0-97.1% in the same runs), 96.9% at 16384 x 8192 (cuBLAS 96.5%).
// `tile64_s_full8` (the brief's fourth, <= 32 registers for 8 blocks per SM) is not written:
// ptxas already gives tile64_s_full 32 registers, 0 spills (8 x 256 threads x 32 = the 64K
// register file; 8 x 16,640 B of shared memory): it runs 8 blocks per SM as it is.
#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/tile_io.cuh"

namespace memlab::lessons::transpose {
namespace {

constexpr int kS = 64;  // tile side
constexpr int kThreads = 256;

// tile64_s_rows's (and _rows32's) staging of half h: in rows r0 + 32 h .. + 32, i.e.
// v[j][4 h .. 4 h + 3], into the 32 x 65 buffer (bank (r + lane) mod 32: conflict free), between
// the barriers that free the buffer (h = 1) and publish it.
constexpr int kRowsP = kS + 1;  // 65: 1 mod 32
__device__ __forceinline__ void stage_rows_half(float* buf, const float (&v)[2][8], int h, int tx,
                                                int ty) {
  if (h == 1) __syncthreads();  // half 0's reads are done before half 1 overwrites
#pragma unroll
  for (int j = 0; j < 2; ++j) {
#pragma unroll
    for (int i = 0; i < 4; ++i) buf[(ty + 8 * i) * kRowsP + 32 * j + tx] = v[j][4 * h + i];
  }
  __syncthreads();
}

// tile64_s_rows: the tile in two halves of in rows through a 32 x 65 buffer (see the header).
// ptxas: 40 registers, 0 spills (6 blocks of 256 threads per SM; cuBLAS's kernel: 32, 8 blocks);
// bounded to 8 or 6 blocks per SM it spills (24 and 8 bytes), so it is left unbounded.
__global__ void __launch_bounds__(kThreads)
    tile64_rows(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  constexpr int kP = kRowsP;
  __shared__ float buf[(kS / 2) * kP];
  const int tx = static_cast<int>(threadIdx.x) % 32, ty = static_cast<int>(threadIdx.x) / 32;
  const int r0 = static_cast<int>(blockIdx.y) * kS, c0 = static_cast<int>(blockIdx.x) * kS;
  // One 64-bit base per thread and side; the rest are 32-bit offsets from it (the 16 loads'
  // and 16 stores' addresses otherwise take 44 registers, 5 blocks per SM).
  const float* src = in + at(r0 + ty, c0 + tx, cols);
  float* dst = out + at(c0 + ty, r0 + tx, rows);  // out row c0 + ty, col r0 + tx
  float v[2][8];
#pragma unroll
  for (int j = 0; j < 2; ++j) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int r = r0 + ty + 8 * i, c = c0 + 32 * j + tx;
      v[j][i] =
          (r < rows && c < cols) ? src[static_cast<std::size_t>(8 * i) * cols + 32 * j] : 0.0f;
    }
  }
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    stage_rows_half(buf, v, h, tx, ty);
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const int c = ty + 8 * k;        // out row c0 + c
      const int r = r0 + 32 * h + tx;  // out col
      if (c0 + c < cols && r < rows)
        dst[static_cast<std::size_t>(8 * k) * rows + 32 * h] = buf[tx * kP + c];
    }
  }
}

// tile64_s_rows32 (session 9): tile64_s_rows at cuBLAS's 32 registers, for matrices of whole 64 x
// 64 tiles (rows, cols multiples of 64; other sizes run tile64_rows above). ncu of round six d:
// cutting the tile by in rows halved tile64_s_full's mio_throttle (21.2 -> 10.7) but its 40
// registers left 6 blocks per SM, and the loads waited longer (long_scoreboard 21.6); cuBLAS's
// kernel does the same split at 32 registers (8 blocks per SM, long_scoreboard 23, no
// mio_throttle). Here no access is guarded (whole tiles), and the 16 load and 16 store addresses
// are one pointer per side stepped by 8 rows (in: 8 cols floats, out: 8 rows floats), the +32
// column of the second load an immediate offset, instead of tile64_rows's 64-bit products per
// access. The load order is i-major (v[0][i], v[1][i]: the 256 contiguous bytes of in row
// r0 + ty + 8 i), so half 0's rows (i < 4) are requested first.
// Measured on an H100 (docs/transpose.md, "Session 9"): 90.6-91.2% of memcpy at 16384^2, under
// tile64_s_full (94.3-94.7) and tile64_s_rows (93.2-93.5): 32 registers, 8 blocks per SM and half
// the instructions, but mio_throttle and barrier waits lead its stalls; cuBLAS's kernel, the same
// shape, spaces its shared stores between its loads.
__global__ void __launch_bounds__(kThreads, 8)
    tile64_rows_whole(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  constexpr int kP = kRowsP;
  __shared__ float buf[(kS / 2) * kP];
  const int tx = static_cast<int>(threadIdx.x) % 32, ty = static_cast<int>(threadIdx.x) / 32;
  const int r0 = static_cast<int>(blockIdx.y) * kS, c0 = static_cast<int>(blockIdx.x) * kS;
  const float* src = in + at(r0 + ty, c0 + tx, cols);
  const std::size_t in_step = 8 * static_cast<std::size_t>(cols);
  float v[2][8];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    v[0][i] = __ldg(src);
    v[1][i] = __ldg(src + 32);
    src += in_step;
  }
  float* dst = out + at(c0 + ty, r0 + tx, rows);  // out row c0 + ty, col r0 + tx
  const std::size_t out_step = 8 * static_cast<std::size_t>(rows);
#pragma unroll
  for (int h = 0; h < 2; ++h) {
    stage_rows_half(buf, v, h, tx, ty);
    float* d = dst + 32 * h;
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      *d = buf[tx * kP + ty + 8 * k];  // out row c0 + ty + 8 k, col r0 + 32 h + tx
      d += out_step;
    }
  }
}

// What scalar_tile<true, K> changes from tile64_s_full (K = kPlain): round seven's controls (see
// the header). Only Full = true takes a K other than kPlain.
enum Kind : int { kPlain, kMirror, kColOrder, kL2p, kColL2p };
constexpr bool col_order(Kind k) {
  return k == kColOrder || k == kColL2p;
}
constexpr bool l2_256(Kind k) {
  return k == kL2p || k == kColL2p;
}

// in[i] through ld.global.nc.L2::256B.f32: a miss fetches the whole 256-B block. volatile: the
// load stays under its guard (never speculated to an address outside the matrix).
__device__ __forceinline__ float load_l2_256(const float* p) {
  float v;
  asm volatile("ld.global.nc.L2::256B.f32 %0, [%1];" : "=f"(v) : "l"(p));
  return v;
}

// The body of tile64_s (Full = false), tile64_s_full (Full, kPlain) and round seven's controls.
template <bool Full, Kind K>
__device__ __forceinline__ void scalar_tile(const float* __restrict__ in, float* __restrict__ out,
                                            int rows, int cols) {
  static_assert(Full || K == kPlain, "round seven's controls are tile64_s_full instances");
  constexpr int kCols = Full ? kS : kS / 2;  // columns of the tile held in shared memory at once
  constexpr int kP = kCols + 1;              // padded row stride: 65 or 33 (both 1 mod 32)
  __shared__ float buf[kS * kP];
  const int tx = static_cast<int>(threadIdx.x) % 32, ty = static_cast<int>(threadIdx.x) / 32;
  // kColOrder, kColL2p: a 1D grid, block b takes tile row b mod tiles_r, tile col b / tiles_r.
  const unsigned tiles_r = (static_cast<unsigned>(rows) + kS - 1) / kS;
  const int r0 = static_cast<int>(col_order(K) ? blockIdx.x % tiles_r : blockIdx.y) * kS;
  const int c0 = static_cast<int>(col_order(K) ? blockIdx.x / tiles_r : blockIdx.x) * kS;
  float v[2][8];
#pragma unroll
  for (int j = 0; j < 2; ++j) {
#pragma unroll
    for (int i = 0; i < 8; ++i) {
      const int r = r0 + ty + 8 * i, c = c0 + 32 * j + tx;
      if constexpr (l2_256(K)) {
        v[j][i] = (r < rows && c < cols) ? load_l2_256(in + at(r, c, cols)) : 0.0f;
      } else {
        v[j][i] = (r < rows && c < cols) ? in[at(r, c, cols)] : 0.0f;
      }
    }
  }
  if constexpr (Full) {
#pragma unroll
    for (int j = 0; j < 2; ++j) {
#pragma unroll
      for (int i = 0; i < 8; ++i) buf[(ty + 8 * i) * kP + 32 * j + tx] = v[j][i];
    }
    __syncthreads();
    if constexpr (K == kMirror) {
      if (r0 + kS > rows || c0 + kS > cols) {
        // A clipped tile: transposed (check_tile_swap's rule), rolled (no registers beside the
        // whole tile's path), the same out elements as tile64_s_full's guarded stores.
#pragma unroll 1
        for (int e = static_cast<int>(threadIdx.x); e < kS * kS; e += kThreads) {
          const int c = e / kS, r = e % kS;
          if (c0 + c < cols && r0 + r < rows) out[at(c0 + c, r0 + r, rows)] = buf[r * kP + c];
        }
        return;
      }
    }
#pragma unroll
    for (int k = 0; k < 8; ++k) {
      const int c = ty + 8 * k;  // out row c0 + c
#pragma unroll
      for (int m = 0; m < 2; ++m) {
        const int r = tx + 32 * m;  // out col r0 + r
        // kMirror (a whole tile): buf[c][r], row-wise: tile (I, J) untransposed at (J, I).
        if (c0 + c < cols && r0 + r < rows)
          out[at(c0 + c, r0 + r, rows)] = K == kMirror ? buf[c * kP + r] : buf[r * kP + c];
      }
    }
  } else {
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      if (h == 1) __syncthreads();  // half 0's column reads are done before half 1 overwrites
#pragma unroll
      for (int i = 0; i < 8; ++i) buf[(ty + 8 * i) * kP + tx] = v[h][i];
      __syncthreads();
#pragma unroll
      for (int k = 0; k < 4; ++k) {
        const int c = ty + 8 * k;  // column of the half: out row c0 + 32 h + c
#pragma unroll
        for (int m = 0; m < 2; ++m) {
          const int r = tx + 32 * m;  // out col r0 + r
          if (c0 + 32 * h + c < cols && r0 + r < rows) {
            out[at(c0 + 32 * h + c, r0 + r, rows)] = buf[r * kP + c];
          }
        }
      }
    }
  }
}

template <bool Full>
__global__ void __launch_bounds__(kThreads)
    tile64_scalar(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  scalar_tile<Full, kPlain>(in, out, rows, cols);
}

// Round seven's controls: tile64_s_full's body with one change each (K, see the header).
template <Kind K>
__global__ void __launch_bounds__(kThreads)
    tile64_full_k(const float* __restrict__ in, float* __restrict__ out, int rows, int cols) {
  scalar_tile<true, K>(in, out, rows, cols);
}

// The column-order kernels' 1D grid: one block per tile, tile rows fastest.
template <Kind K>
void launch_col_order(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  static_assert(col_order(K), "a 1D grid only for the column-order kernels");
  const dim3 t = grid_for(rows, cols, kS);  // x: tile cols, y: tile rows
  tile64_full_k<K><<<t.x * t.y, kThreads, 0, s>>>(in, out, rows, cols);
}

template <bool Full>
void launch_scalar(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  tile64_scalar<Full><<<grid_for(rows, cols, kS), kThreads, 0, s>>>(in, out, rows, cols);
}

}  // namespace

void launch_tile64_s(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_scalar<false>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_s);
}

void launch_tile64_s_full(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_scalar<true>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_s_full);
}

void launch_tile64_s_rows(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  tile64_rows<<<grid_for(rows, cols, kS), kThreads, 0, s>>>(in, out, rows, cols);
  MEMLAB_CHECK_LAUNCH(tile64_s_rows);
}

void launch_tile64_s_rows32(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  if (rows % kS != 0 || cols % kS != 0) {  // clipped tiles: the guarded kernel
    launch_tile64_s_rows(in, out, rows, cols, s);
    return;
  }
  tile64_rows_whole<<<grid_for(rows, cols, kS), kThreads, 0, s>>>(in, out, rows, cols);
  MEMLAB_CHECK_LAUNCH(tile64_s_rows32);
}

void launch_tile_mirror(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  tile64_full_k<kMirror><<<grid_for(rows, cols, kS), kThreads, 0, s>>>(in, out, rows, cols);
  MEMLAB_CHECK_LAUNCH(tile_mirror);
}

void launch_tile64_s_col(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_col_order<kColOrder>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_s_col);
}

void launch_tile64_s_l2p(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  tile64_full_k<kL2p><<<grid_for(rows, cols, kS), kThreads, 0, s>>>(in, out, rows, cols);
  MEMLAB_CHECK_LAUNCH(tile64_s_l2p);
}

void launch_tile64_s_col_l2p(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  launch_col_order<kColL2p>(in, out, rows, cols, s);
  MEMLAB_CHECK_LAUNCH(tile64_s_col_l2p);
}

}  // namespace memlab::lessons::transpose
