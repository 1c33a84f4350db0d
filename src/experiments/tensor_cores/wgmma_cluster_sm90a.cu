// tensor_cores, Hopper: `wgmma_cluster`, the `wgmma` kernel (wgmma_bf16_sm90a.cu: read its header
// first; same 128 x 256 x 64 tile, 4-stage 48 KiB TMA ring, producer + 2 consumer warpgroups) run
// in clusters of 2 CTAs along M that share B through TMA multicast. Built for sm_90a only.
//
// The two CTAs of a cluster compute vertically adjacent block tiles (block rows 2 p and 2 p + 1)
// of the same 256 columns, so they need the same B panel. Per k tile each CTA's producer loads its
// own A box (128 x 64, 16 KiB) and half of B: rank r issues B's boxes 2 r and 2 r + 1 (64 x 64,
// 8 KiB each) with .multicast::cluster, cta mask 0b11, so each box lands in both CTAs' shared
// memory at the same offset and completes its bytes on the `full` mbarrier at the same offset in
// both. Each CTA's `full` thus expects 48 KiB (its A, its half of B, the peer's half of B), from
// one local arrive_expect_tx. The peer's bytes may arrive before that arrive_expect_tx: the
// transaction count goes negative for a while, but the phase cannot complete without the arrival.
//
// A stage is written by both producers, so it may be refilled only when the consumers of both CTAs
// have released it: each consumer warp arrives on the `empty` barrier of its own CTA and of the
// peer's (mapa + mbarrier.arrive.shared::cluster, release at CTA scope), 16 arrivals per phase. The
// peer can refill stage s (phase q + 1 of my `full[s]`) only after my consumers released it, i.e.
// after my `full[s]` phase q completed, so no byte lands in the wrong phase. Both CTAs run the
// same k loop (the second CTA of a cluster past the last block row, odd tile count, too: its A box
// is zero-filled by the copy engine, its B half is needed by its peer; its guarded epilogue writes
// nothing). Cluster syncs: after the barriers' init (before any multicast or remote arrival) and
// before exit (a CTA's shared memory must live while the peer may still write or arrive there).
//
// Memory: per CTA and k tile 32 KiB cross L2 -> SM instead of 48 KiB (B's 32 KiB once per pair);
// A is read N / 256 times, B M / 256 times.
// From wgmma_common.cuh: the CTA's prologue (wgk::cta_setup with 2 CTAs a cluster: `empty` counts
// both CTAs' consumer warps, the cluster barrier replaces __syncthreads), the roles' starts, the
// tile and cluster constants, one k tile's MMAs, the epilogue (wgk::bf16), the multicast copy and
// the arrival on the peer's barrier, a stage's wait and announce (wgk::acquire_stage); the copies
// of a stage and the k loop are this file's (multicast, release to both CTAs).
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.hpp"
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/wgmma_common.cuh"

namespace memlab::lessons::tensor_cores {
namespace {

using namespace wgk::bf16;  // the tile, one k tile's MMAs, the epilogue (wgmma_common.cuh)
namespace hp = memlab::lessons::hopper;

// The producer thread: per k tile wait for the stage (`empty`: both CTAs' 8 warps released it,
// only for a stage filled before), announce 48 KiB on `full`, issue A's box and this rank's two
// B boxes (multicast).
__device__ __forceinline__ void produce_cluster(const wgk::Cta& cta, const CUtensorMap* a_map,
                                                const CUtensorMap* b_map, wgk::TileCoord tile,
                                                int rank) {
  for (int it = 0; it < cta.ktiles; ++it) {
    const wgk::Stage stage = wgk::acquire_stage<kStages, kStageBytes>(cta, it);
    hp::tma_load_2d(stage.smem, a_map, it * kBK, tile.tm * kBM, stage.full);
#pragma unroll
    for (int h = 0; h < kBBoxesPerRank; ++h) {
      const int j = kBBoxesPerRank * rank + h;
      wgk::tma_load_2d_multicast(stage.smem + kABytes + j * kBBox, b_map, tile.tn * kBN + 64 * j,
                                 it * kBK, stage.full, kMask);
    }
  }
}

// A consumer warpgroup's k loop: as consume_tile, but a stage is released to both CTAs' producers
// (lane 0 of each warp arrives on `empty` here and in the peer). The last stage stays held (no
// producer refills it).
__device__ __forceinline__ void consume_cluster(float (&d)[128], const wgk::Cta& cta, int half,
                                                int rank) {
  for (int it = 0; it < cta.ktiles; ++it) {
    const int s = it % kStages;
    hp::mbar_wait(&cta.full[s], static_cast<std::uint32_t>((it / kStages) & 1));
    mma_ktile(d, cta.ring + s * kStageBytes, half);
    wgk::wgmma_wait<1>();  // the MMAs of k tile it - 1 are done: release its stage
    wgk::fence_accumulators(d);
    if (it > 0 && cta.lane == 0) {
      std::uint64_t* bar = &cta.empty[(it - 1) % kStages];
      wgk::mbar_arrive_cluster(hp::cluster_map(bar, static_cast<std::uint32_t>(rank)));
      wgk::mbar_arrive_cluster(hp::cluster_map(bar, static_cast<std::uint32_t>(rank ^ 1)));
    }
  }
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_cluster_kernel(const __grid_constant__ CUtensorMap a_map,
                         const __grid_constant__ CUtensorMap b_map, float* __restrict__ c, int m,
                         int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  // `empty` completes on 8 arrivals from each CTA of the cluster; both CTAs' barriers are
  // initialised (cluster barrier) before any multicast or remote arrival.
  const wgk::Cta cta = wgk::cta_setup<kBM, kBN, kBK, kStages, kConsumers, kCluster>(m, n, k);
  const int rank = static_cast<int>(hp::cluster_rank());
  const int pairs_m = (cta.tiles_m + 1) / 2;
  // Clusters are consecutive blockIdx.x pairs; both ranks derive the same (pair, tile-n).
  const wgk::TileCoord pair = wgk::raster(static_cast<int>(blockIdx.x) / kCluster, pairs_m,
                                          cta.tiles_n, kGroupM / kCluster);
  const wgk::TileCoord tile{pair.tm * kCluster + rank, pair.tn};
  if (cta.wg == 0) {
    if (wgk::producer_start(cta, &a_map, &b_map)) {  // thread 0 issues the copies
      produce_cluster(cta, &a_map, &b_map, tile, rank);
    }
    __syncwarp();
  } else {
    wgk::consumer_start();
    const int half = cta.wg - 1;  // rows 64 half .. 64 half + 63 of the block tile
    float d[128];
    wgk::zero_accumulators(d);
    consume_cluster(d, cta, half, rank);
    wgk::drain_mmas(d);
    store_tile(c, m, n, d, tile, half, cta.warp, cta.lane);  // rows past m: nothing written
  }
  // Every multicast into this CTA completed on its `full` (its consumers waited for all of them);
  // the peer must not exit while this CTA's arrivals on its `empty` may be in flight, nor before
  // this CTA's copies into it landed: both wait here (each warp converged for the .aligned form).
  __syncwarp();
  hp::cluster_sync();
}

}  // namespace

void launch_wgmma_cluster_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                               const Gemm& g, cudaStream_t stream) {
  wgk::raise_smem_once<wgmma_cluster_kernel, kSmem>();
  const wgk::GemmMaps maps =
      wgk::gemm_maps(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, b, g, kBK, kBM, 64);
  const int pairs_m = ((g.m + kBM - 1) / kBM + 1) / 2;  // block rows rounded up to even
  const unsigned blocks = static_cast<unsigned>(kCluster * pairs_m * ((g.n + kBN - 1) / kBN));
  wgk::launch_cluster2(wgmma_cluster_kernel, blocks, kThreads, kSmem, stream, maps.a, maps.b, c,
                       g.m, g.n, g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_cluster_kernel);
}

}  // namespace memlab::lessons::tensor_cores
