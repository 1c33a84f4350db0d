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

namespace memlab::lessons::transpose {
namespace {

namespace hp = memlab::lessons::hopper;

constexpr int kTile = 32;
constexpr int kTileBytes = kTile * kTile * 4;
constexpr int kThreads = 64;                  // one 4 x 4 block of the 8 x 8 blocks each
constexpr int kSmem = 2 * kTileBytes + 1024;  // two tiles + slack for 1024-byte alignment

__device__ __forceinline__ float lane_of(const float4& v, int e) {
  return e == 0 ? v.x : e == 1 ? v.y : e == 2 ? v.z : v.w;
}

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
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    v[k] = *reinterpret_cast<const float4*>(a + hp::swizzle128(4 * i + k, j));
  }
  // out tile row 4j + e = column 4j + e of the input tile.
#pragma unroll
  for (int e = 0; e < 4; ++e) {
    *reinterpret_cast<float4*>(b + hp::swizzle128(4 * j + e, i)) =
        make_float4(lane_of(v[0], e), lane_of(v[1], e), lane_of(v[2], e), lane_of(v[3], e));
  }
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
  // Encoded at every launch (a few microseconds of host time, hidden behind the previous launch
  // in a batch); a cached map could outlive the buffers it points into.
  const std::uint64_t in_dims[2] = {static_cast<std::uint64_t>(cols),
                                    static_cast<std::uint64_t>(rows)};
  const std::uint64_t in_strides[1] = {static_cast<std::uint64_t>(cols) * 4};
  const std::uint64_t out_dims[2] = {static_cast<std::uint64_t>(rows),
                                     static_cast<std::uint64_t>(cols)};
  const std::uint64_t out_strides[1] = {static_cast<std::uint64_t>(rows) * 4};
  const std::uint32_t box[2] = {kTile, kTile};
  const CUtensorMap in_map =
      hp::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, in, in_dims, in_strides, box, true);
  const CUtensorMap out_map =
      hp::tensor_map(CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, out, out_dims, out_strides, box, true);
  const dim3 grid(blocks_for(static_cast<std::size_t>(cols), kTile),
                  blocks_for(static_cast<std::size_t>(rows), kTile));
  transpose_tma<<<grid, kThreads, kSmem, s>>>(in_map, out_map);
  MEMLAB_CHECK_LAUNCH(transpose_tma);
}

}  // namespace memlab::lessons::transpose
