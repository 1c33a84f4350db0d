// transpose, Hopper: tiles moved by the Tensor Memory Accelerator in both directions.
//
// What it does to memory: one thread per block hands the copy engine a 32 x 32 box of `in` (a 2D
// tensor map, 128-byte rows), which lands in shared memory swizzled (16-byte chunk c of tile row r
// at chunk c ^ (r mod 8)) and completes on an mbarrier; 64 threads transpose the tile in shared
// memory as 4 x 4 register blocks (16-byte shared loads and stores); one thread hands the
// transposed tile back to the copy engine, which writes a 32 x 32 box of `out`. DRAM sees whole
// 128-byte rows in and out: every useful byte crosses it once, as in the padded tiles, but no
// thread computes an address or issues a global load: 2 TMA instructions per 4 KiB tile instead
// of 2048 / 4 vector loads and stores. Boxes past the matrix edge are zero-filled on load and
// clipped on store, so any rows, cols that are multiples of 4 (16-byte row strides) work.
//
// Banks: thread t = 8 s + l takes block (i, j) = ((l + s) mod 8, l). A 16-byte access is served
// per quarter warp (8 lanes); its 8 lanes read tile row 4i + k at chunk j ^ ((4i + k) mod 8) and
// write row 4j + e at chunk i ^ ((4j + e) mod 8); for fixed s, k, e both are permutations of the
// 8 chunks (XOR with 4 (l mod 2) or 4 ((l + s) mod 2) keeps them distinct), so no conflict.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.cuh"
#include "common/hopper.hpp"
#include "common/launch.hpp"
#include "transpose/kernels.cuh"
#include "transpose/tma_tile.cuh"

namespace memlab::lessons::transpose {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kSmem = 2 * kTileBytes + 1024;  // two tiles + slack for 1024-byte alignment

__global__ void __launch_bounds__(kThreads)
    transpose_tma(const __grid_constant__ CUtensorMap in_map,
                  const __grid_constant__ CUtensorMap out_map) {
#if MEMLAB_SM90
  extern __shared__ unsigned char raw[];
  __shared__ __align__(8) std::uint64_t bar;
  // Swizzled tiles must start on 1024-byte boundaries.
  const std::uint32_t pad = (1024u - (hp::smem_u32(raw) & 1023u)) & 1023u;
  unsigned char* a = raw + pad;       // the tile of `in`, as loaded
  unsigned char* b = a + kTileBytes;  // its transpose, as stored
  const int t = static_cast<int>(threadIdx.x);
  const int c0 = static_cast<int>(blockIdx.x) * kTile, r0 = static_cast<int>(blockIdx.y) * kTile;
  if (t == 0) {
    hp::mbar_init(&bar, 1);
    hp::fence_mbarrier_init();
  }
  __syncthreads();
  if (t == 0) {
    hp::mbar_arrive_expect_tx(&bar, kTileBytes);  // the whole box counts, clipped or not
    hp::tma_load_2d(a, &in_map, c0, r0, &bar);
  }
  hp::mbar_wait(&bar, 0);
  const int s = t >> 3, l = t & 7;
  const int i = (l + s) & 7, j = l;  // this thread's 4 x 4 block: tile rows 4i.., cols 4j..
  float4 v[4];
  load_block(a, i, j, v);
  store_block_transposed(b, i, j, v);
  hp::fence_proxy_async_shared();  // our shared stores before the copy engine reads them
  __syncthreads();
  if (t == 0) {
    hp::tma_store_2d(&out_map, r0, c0, b);  // out is cols x rows: x = r0, y = c0
    hp::bulk_commit();
    hp::bulk_wait_read<0>();  // the tile must stay until the engine has read it
  }
#endif
}

}  // namespace

void launch_tma(const float* in, float* out, int rows, int cols, cudaStream_t s) {
  const TmaMaps maps = transpose_maps(in, out, rows, cols);
  const dim3 grid(blocks_for(static_cast<std::size_t>(cols), kTile),
                  blocks_for(static_cast<std::size_t>(rows), kTile));
  transpose_tma<<<grid, kThreads, kSmem, s>>>(maps.in, maps.out);
  MEMLAB_CHECK_LAUNCH(transpose_tma);
}

}  // namespace memlab::lessons::transpose
