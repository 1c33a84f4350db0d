// tensor_cores, Hopper: `wgmma_persistent`, the `wgmma` kernel (wgmma_bf16_sm90a.cu: read its
// header first; same 128 x 256 x 64 tile, 4-stage 48 KiB TMA ring, producer + 2 consumer
// warpgroups, setmaxnreg 40 / 232) made persistent. Built for sm_90a only, like that file.
//
// What changes: grid = min(tiles, SMs) CTAs (one per SM: 193 KiB of smem each); CTA b walks the
// tiles b, b + grid, b + 2 grid, ... in the same grouped raster (16 block rows per group), so at
// any step the CTAs run the same 132 consecutive tile ids the non-persistent waves would. The
// ring's stage and phase run on across tiles: a running k-tile counter `it` (stage it % 4, phase
// (it / 4) & 1) in both the producer and the consumers. After its last k tile the consumers wait
// for their MMAs (wait_group 0) and release that stage at once, so while they run the epilogue
// (128 KiB of FP32 C per tile from registers) the producer is already filling all 4 stages with
// the next tile's k tiles: the epilogue and the ring's refill (the prologue of each non-persistent
// CTA, ~1-2 us of TMA latency at 4 stages) overlap the neighbour's work instead of idling the
// tensor cores, and no CTA launch/teardown/barrier init happens per tile.
//
// Napkin math (H200, 8192^3, BF16 in, FP32 C): 2048 tiles over 132 CTAs = 15.5 tiles each (16 for
// 68 CTAs: the wave quantization stays, as in `wgmma`). Per tile 2 * 128 * 256 * 8192 = 537 MFLOP
// = 131k clocks at 4096 FLOP/clk/SM (72 us at 1.83 GHz); its epilogue writes 128 KiB (~4 us at a
// 1/132 share of 4.3 TB/s) and the non-persistent prologue waits ~1 us for the first stage: ~5 us
// of 72 per tile the tensor cores idled in `wgmma`, now hidden. Bytes in flight per SM: 4 stages
// x 48 KiB = 192 KiB requested ahead (>> the ~26 KiB Little's law needs). smem 4 x 48 KiB + 1 KiB
// align slack + 64 B of barriers; registers: producer 40, consumers 128 accumulators + addressing
// (<= 232). Limiter left: the tensor-core rate at the power-capped clock (sw power cap in the long
// run), and the 16th wave's half-empty machine. Predicted: ~1.36 ms cold at 8192^3 (5% under
// `wgmma`'s 1.431 ms), ~1.55 ms in a long power-capped run.
//
// Deadlock safety: the producer only waits on a stage's `empty` barrier for a stage it filled
// before (it >= 4), and the consumers release every stage they consume (the previous one in the
// k loop, the last one after wait_group 0), 8 warp arrivals each; a CTA with no tiles (not
// launched: grid <= tiles) would skip both loops. `max_ctas` (tests) caps the grid so that each CTA
// walks several tiles and the ring wraps across tile boundaries.
// The CTA's prologue and roles' starts (wgk::cta_setup, producer_start, consumer_start), the
// producer's walk over its tiles (wgk::bf16::produce_tiles) and the per-tile pieces (stage issue,
// k loop, epilogue: wgk::bf16) are wgmma_common.cuh's, as in `wgmma`.
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
    wgmma_persistent_kernel(const __grid_constant__ CUtensorMap a_map,
                            const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m,
                            int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  const wgk::Cta cta = wgk::cta_setup<kBM, kBN, kBK, kStages, kConsumers>(m, n, k);
  const int tiles = cta.tiles_m * cta.tiles_n;
  const int first = static_cast<int>(blockIdx.x), step = static_cast<int>(gridDim.x);
  if (cta.wg == 0) {
    produce_tiles(cta, &a_map, &b_map, first, step, tiles);
  } else {
    wgk::consumer_start();
    const int half = cta.wg - 1;  // rows 64 half .. 64 half + 63 of the block tile
    int it = 0;                   // k tiles consumed by this CTA so far, over all its tiles
    for (int id = first; id < tiles; id += step) {
      const wgk::TileCoord tile = wgk::raster(id, cta.tiles_m, cta.tiles_n, kGroupM);
      float d[128];
      wgk::zero_accumulators(d);
      consume_tile(d, cta, half, it);
      wgk::drain_mmas(d);
      // The tile's last stage is free: the producer refills the ring during the epilogue.
      if (cta.ktiles > 0 && cta.lane == 0) hp::mbar_arrive(&cta.empty[(it - 1) % kStages]);
      store_tile(c, m, n, d, tile, half, cta.warp, cta.lane);
    }
  }
}

}  // namespace

void launch_wgmma_persistent_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                  const Gemm& g, cudaStream_t stream, int max_ctas) {
  wgk::raise_smem_once<wgmma_persistent_kernel, kSmem>();
  const wgk::GemmMaps maps =
      wgk::gemm_maps(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, b, g, kBK, kBM, 64);
  static const int sms = [] {
    int device = 0, count = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  }();
  const int tiles = ((g.m + kBM - 1) / kBM) * ((g.n + kBN - 1) / kBN);
  int ctas = tiles < sms ? tiles : sms;  // one CTA per SM (193 KiB of smem each)
  if (max_ctas > 0 && max_ctas < ctas) ctas = max_ctas;
  const auto blocks = static_cast<unsigned>(ctas);
  wgmma_persistent_kernel<<<blocks, kThreads, kSmem, stream>>>(maps.a, maps.b, c, g.m, g.n, g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_persistent_kernel);
}

}  // namespace memlab::lessons::tensor_cores
