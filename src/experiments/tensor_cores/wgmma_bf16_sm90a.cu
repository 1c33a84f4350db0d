// tensor_cores, Hopper: BF16 GEMM with warpgroup MMA (wgmma) fed by the Tensor Memory Accelerator.
// Built for sm_90a only (wgmma and setmaxnreg exist on no other target): CMake compiles this file
// alone with -gencode arch=compute_90a,code=sm_90a when the build targets sm_90, and with the
// build's own targets (the body compiled out) otherwise; wgmma_built() says which.
//
// Shape: a 128 x 256 block tile of C, k tiles of 64, a 4-stage ring of shared memory (48 KiB a
// stage: A 128 x 64, B 64 x 256, both BF16, 128-byte swizzle). Three warpgroups: warpgroup 0 is
// the producer (one thread issues the copies; setmaxnreg gives its registers away, down to 40),
// warpgroups 1 and 2 are consumers (up to 232 registers), each owning 64 rows x 256 columns of C
// as 128 FP32 accumulators per thread and issuing wgmma.mma_async.m64n256k16 (4 per k tile).
//
// What it does to memory, per k tile: the producer waits until the stage is free (`empty`
// mbarrier: all 8 consumer warps released it), announces 48 KiB on the stage's `full` mbarrier and
// issues 5 tensor copies: A's 128 x 64 box (16 KiB, K-major: 128-byte rows of 64 k) and four 64 x
// 64 boxes of B (8 KiB each, N-major: 128-byte rows of 64 n, one row per k). The copy engine
// swizzles the 16-byte chunks of each 128-byte row by (row mod 8), the layout the wgmma descriptors
// name (mode 1 = 128B): A K-major (stride between 8-row groups, SBO = 1024 B; the k16 slices are
// 32-byte steps inside a row), B N-major via the instruction's transpose-B flag (LBO = 8192 B
// between 64-column boxes, SBO = 1024 B between 8-k groups; the k16 slices are 2048-byte steps).
// The tensor cores read both operands straight from shared memory: no thread loads an operand,
// no ldmatrix, and the accumulators never leave registers until the epilogue writes C (FP32) with
// 8-byte stores, guarded at the edges. Boxes past M, N or K are zero-filled by the engine, so any
// size works (lda, ldb are padded to 16 bytes by the lesson). Global traffic: A is read N / 256
// times and B M / 128 times (L2 catches most: block tiles are visited in groups of 16 block rows).
// The CTA's prologue (wgk::cta_setup), the roles' starts (setmaxnreg, map prefetch) and the wait
// before the epilogue live in wgmma_common.cuh, as do the tile, the stage issue, one k tile's MMAs,
// the consumers' k loop and the epilogue (wgk::bf16), shared with `wgmma_persistent`: the two
// differ only in the tile loop.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.hpp"
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/wgmma_common.cuh"

namespace memlab::lessons::tensor_cores {
namespace {

using namespace wgk::bf16;  // the tile, the stage issue, the k loop, the epilogue
                            // (wgmma_common.cuh)
namespace hp = memlab::lessons::hopper;

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_bf16_kernel(const __grid_constant__ CUtensorMap a_map,
                      const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m,
                      int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  const wgk::Cta cta = wgk::cta_setup<kBM, kBN, kBK, kStages, kConsumers>(m, n, k);
  const wgk::TileCoord tile =
      wgk::raster(static_cast<int>(blockIdx.x), cta.tiles_m, cta.tiles_n, kGroupM);
  if (cta.wg == 0) {
    if (wgk::producer_start(cta, &a_map, &b_map)) {  // thread 0 issues the copies
      int it = 0;
      produce_tile(cta, &a_map, &b_map, tile, it);
    }
  } else {
    wgk::consumer_start();
    const int half = cta.wg - 1;  // rows 64 half .. 64 half + 63 of the block tile
    float d[128];
    wgk::zero_accumulators(d);
    int it = 0;
    consume_tile(d, cta, half, it);
    wgk::drain_mmas(d);
    store_tile(c, m, n, d, tile, half, cta.warp, cta.lane);
  }
}

}  // namespace

bool wgmma_built() {
#if defined(MEMLAB_WGMMA_SM90A)
  return true;
#else
  return false;
#endif
}

void launch_wgmma_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c, const Gemm& g,
                       cudaStream_t stream) {
  wgk::raise_smem_once<wgmma_bf16_kernel, kSmem>();
  const wgk::GemmMaps maps =
      wgk::gemm_maps(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, b, g, kBK, kBM, 64);
  const unsigned blocks = static_cast<unsigned>(((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN));
  wgmma_bf16_kernel<<<blocks, kThreads, kSmem, stream>>>(maps.a, maps.b, c, g.m, g.n, g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_bf16_kernel);
}

}  // namespace memlab::lessons::tensor_cores
