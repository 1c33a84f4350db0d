// tensor_cores, Hopper: `wgmma_cluster_persistent`, issue 23's "persistent CTAs with a tile
// scheduler + thread-block clusters with TMA multicast of the shared operand" in one kernel:
// `wgmma_cluster` (wgmma_cluster_sm90a.cu: read its header first; 2-CTA clusters along M, each CTA
// loads its A box and half of B multicast to both, a stage released to both CTAs' producers at CTA
// scope) made persistent as `wgmma_persistent` (wgmma_persistent_sm90a.cu: the ring's stage and
// phase run on across tiles, the last stage of a tile released right after wait_group 0 so the
// producer refills the ring during the epilogue). Same 128 x 256 x 64 tile, 4-stage 48 KiB ring,
// producer + 2 consumer warpgroups, m64n256k16, setmaxnreg 40 / 232. Built for sm_90a only.
//
// Schedule. A pair is wgmma_cluster's unit: block rows 2 p and 2 p + 1 of the same 256 columns
// (the grid's block rows rounded up to even), pairs_m x tiles_n of them, in wgmma_cluster's grouped
// raster (8 pairs = 16 block rows a group: the same tile order as wgmma_persistent's raster).
// Grid: as many 2-CTA clusters as fit at once (cudaOccupancyMaxActiveClusters, 193 KiB of smem:
// one CTA per SM; at most SMs / 2 = 66 on the H200, fewer if a GPC's free SMs were odd), never
// more than there are pairs.
// Cluster c (blockIdx.x / 2) walks the pairs c, c + clusters, c + 2 clusters, ...: rank r takes
// block row 2 p + r. Both ranks derive the same sequence, so they run the same number of k tiles
// per pair and over the whole walk: one running counter `it` (stage it % 4, phase (it / 4) & 1)
// means the same stage and phase in both CTAs, for the producers and the consumers alike.
//
// Barriers (wgmma_cluster's argument, with `it` running on across tiles). `full[s]` expects 48 KiB
// (its A, both halves of B) from one local arrive_expect_tx; `empty[s]` completes on 16 arrivals
// (lane 0 of the 8 consumer warps of each CTA, arriving on its own and on the peer's barrier).
// Every use of a stage is released exactly once, by both CTAs: k tiles 0 .. ktiles - 2 of a tile
// one k tile later in the loop, the last after wait_group 0. The peer refills stage s for use
// u + 4 only after my consumers released use u, i.e. after my `full[s]` completed use u's phase:
// no byte of the peer lands in my wrong phase, and no arrival of the peer's consumers for use u + 4
// (which needs my multicast of use u + 4, issued only after my `empty[s]` completed use u) reaches
// my `empty[s]` early. The peer's bytes may land before my arrive_expect_tx: the phase cannot
// complete without that arrival.
//
// A missing partner (odd tiles_m: the pair of the last block row) is handled as in wgmma_cluster:
// rank 1's block row is past m, but it runs the whole k loop (its A box is all past m, so the
// engine zero-fills it and still counts its 16 KiB; its B half is needed by rank 0) and its
// guarded epilogue writes nothing. So both CTAs always wait for, consume and release the same
// stages: lock-step on the multicast barriers holds for every pair, edge or not. Cluster syncs:
// after the barriers' init (before any multicast or remote arrival) and before exit (the peer may
// still write into or arrive on this CTA's shared memory until then; the releases after the last
// tile arrive on barriers nobody waits on, but they land before the peer leaves).
//
// Napkin math (H200, 8192^3, BF16 in, FP32 C). 64 x 32 = 2048 block tiles = 1024 pairs over 66
// clusters: 15.5 pairs each (16 for 34 clusters: the last wave half empty, as `wgmma_persistent`'s
// 15.5 tiles per CTA). Per tile 537 MFLOP = 131k clocks at 4096 flop/clk/SM (72 us at 1.83 GHz);
// L2 -> SM per CTA and k tile 32 KiB instead of 48 (B's 32 KiB once per pair): 32 B/clk per SM,
// 8 GiB in all instead of 12 (over 1.41 ms: 6.1 instead of 9.1 TB/s out of L2); Little's law at ~1
// us (~2000 clk) of L2 + TMA latency: ~63 KiB in flight per SM against the 3 stages (144 KiB) the
// ring keeps ahead. What persistence adds to wgmma_cluster: the epilogue (128 KiB of C per CTA from
// registers, ~4 us at a 1/132 share of DRAM) and the ring's refill (~1 us) overlap instead of
// idling the tensor cores, ~5 us of 72 per tile, and no cluster launch, barrier init or cluster
// sync per tile. What it costs: the two CTAs are coupled across the whole walk (a stage waits for
// the slower consumer pair of the cluster, and now also during the partner's epilogue: a pair
// starts its next tile's k loop only when both CTAs' consumers released the stages, i.e. both
// finished the previous tile's last MMAs, not their epilogues: the epilogues overlap the refill
// in both CTAs alike). Limiter left: the tensor-core rate at the power-capped clock; the lower L2
// -> SM traffic (energy per flop) is what may keep the clock up. Predicted: per cold launch level
// with `wgmma_persistent` (1421 us in ncu) and at or under `wgmma_cluster` (1443 us): ~1.40-1.44
// ms, ~97-101% of cuBLAS (1397-1417 us); in a long power-capped run within the 5-14% run-to-run
// spread of the others. smem as wgmma_cluster: 4 x 48 KiB + 1 KiB align slack dynamic (197,632 B)
// + 64 B of barriers; registers: producer 40, consumers 128 accumulators + addressing, <= 232.
//
// `max_clusters` (tests) caps the grid so that each cluster walks several pairs and the ring wraps
// across pair boundaries.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>

#include "common/hopper.hpp"
#include "memlab/cuda/check.hpp"
#include "tensor_cores/kernels.cuh"
#include "tensor_cores/wgmma_common.cuh"

namespace memlab::lessons::tensor_cores {
namespace {

using namespace wgk::bf16;  // the tile and cluster constants, one k tile's MMAs, the epilogue
                            // (wgmma_common.cuh)
namespace hp = memlab::lessons::hopper;

// The producer thread's share of one pair's tile: for each k tile wait for the stage (`empty`:
// both CTAs' 8 warps released it; only for a stage filled before, it >= kStages), announce 48 KiB
// on `full`, issue A's box and this rank's two B boxes (multicast). `it` counts k tiles over the
// whole walk (the same in both CTAs).
__device__ __forceinline__ void produce_pair(const wgk::Cta& cta, const CUtensorMap* a_map,
                                             const CUtensorMap* b_map, wgk::TileCoord tile,
                                             int rank, int& it) {
  for (int kt = 0; kt < cta.ktiles; ++kt, ++it) {
    const wgk::Stage stage = wgk::acquire_stage<kStages, kStageBytes>(cta, it);
    hp::tma_load_2d(stage.smem, a_map, kt * kBK, tile.tm * kBM, stage.full);
#pragma unroll
    for (int h = 0; h < kBBoxesPerRank; ++h) {
      const int j = kBBoxesPerRank * rank + h;
      wgk::tma_load_2d_multicast(stage.smem + kABytes + j * kBBox, b_map, tile.tn * kBN + 64 * j,
                                 kt * kBK, stage.full, kMask);
    }
  }
}

// Lane 0 of a consumer warp releases stage `s` to both CTAs' producers.
__device__ __forceinline__ void release_both(const wgk::Cta& cta, int s, int rank) {
  std::uint64_t* bar = &cta.empty[s];
  wgk::mbar_arrive_cluster(hp::cluster_map(bar, static_cast<std::uint32_t>(rank)));
  wgk::mbar_arrive_cluster(hp::cluster_map(bar, static_cast<std::uint32_t>(rank ^ 1)));
}

// A consumer warpgroup's k loop over one tile: wait for the stage, issue its MMAs, wait for the
// previous k tile's MMAs and release that stage to both CTAs. The tile's last stage stays held
// here: the caller releases it after wait_group 0.
__device__ __forceinline__ void consume_pair(float (&d)[128], const wgk::Cta& cta, int half,
                                             int rank, int& it) {
  for (int kt = 0; kt < cta.ktiles; ++kt, ++it) {
    const int s = it % kStages;
    hp::mbar_wait(&cta.full[s], static_cast<std::uint32_t>((it / kStages) & 1));
    mma_ktile(d, cta.ring + s * kStageBytes, half);
    wgk::wgmma_wait<1>();  // the MMAs of k tile it - 1 are done: release its stage
    wgk::fence_accumulators(d);
    if (kt > 0 && cta.lane == 0) release_both(cta, (it - 1) % kStages, rank);
  }
}

__global__ void __launch_bounds__(kThreads, 1)
    wgmma_cluster_persistent_kernel(const __grid_constant__ CUtensorMap a_map,
                                    const __grid_constant__ CUtensorMap b_map,
                                    float* __restrict__ c, int m, int n, int k) {
#if !MEMLAB_WGMMA
  __trap();  // a build without sm_90a: never launched (wgmma_built() is false, the variant skips)
#endif
  // `empty` completes on 8 arrivals from each CTA of the cluster; both CTAs' barriers are
  // initialised (cluster barrier) before any multicast or remote arrival.
  const wgk::Cta cta = wgk::cta_setup<kBM, kBN, kBK, kStages, kConsumers, kCluster>(m, n, k);
  const int rank = static_cast<int>(hp::cluster_rank());
  const int pairs_m = (cta.tiles_m + 1) / 2;
  const int pairs = pairs_m * cta.tiles_n;
  // Clusters are consecutive blockIdx.x pairs: both ranks walk the same pair ids.
  const int first = static_cast<int>(blockIdx.x) / kCluster;
  const int step = static_cast<int>(gridDim.x) / kCluster;
  const auto tile_of = [&](int id) {
    const wgk::TileCoord pair = wgk::raster(id, pairs_m, cta.tiles_n, kGroupM / kCluster);
    return wgk::TileCoord{pair.tm * kCluster + rank, pair.tn};  // past m for rank 1: zeros
  };
  if (cta.wg == 0) {
    if (wgk::producer_start(cta, &a_map, &b_map)) {  // thread 0 issues the copies
      int it = 0;  // k tiles issued by this CTA so far, over all its pairs
      for (int id = first; id < pairs; id += step) {
        produce_pair(cta, &a_map, &b_map, tile_of(id), rank, it);
      }
    }
    __syncwarp();
  } else {
    wgk::consumer_start();
    const int half = cta.wg - 1;  // rows 64 half .. 64 half + 63 of the block tile
    int it = 0;                   // k tiles consumed by this CTA so far, over all its pairs
    for (int id = first; id < pairs; id += step) {
      const wgk::TileCoord tile = tile_of(id);
      float d[128];
      wgk::zero_accumulators(d);
      consume_pair(d, cta, half, rank, it);
      wgk::drain_mmas(d);
      // The tile's last stage is free in this CTA: released to both producers, which refill the
      // ring with the next pair's k tiles during the epilogue.
      if (cta.ktiles > 0 && cta.lane == 0) release_both(cta, (it - 1) % kStages, rank);
      store_tile(c, m, n, d, tile, half, cta.warp, cta.lane);  // rows past m: nothing written
    }
  }
  // Every multicast into this CTA completed on its `full` (its consumers waited for all of them);
  // the peer must not exit while this CTA's arrivals on its `empty` may be in flight, nor before
  // this CTA's copies into it landed: both wait here (each warp converged for the .aligned form).
  __syncwarp();
  hp::cluster_sync();
}

// 2-CTA clusters that fit on the device at once (one CTA per SM), at most SMs / 2; SMs / 2 if the
// occupancy query cannot say. Once per process.
int resident_clusters() {
  static const int fit = [] {
    int device = 0, sms = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int most = sms / kCluster;
    cudaLaunchAttribute attr{};
    const cudaLaunchConfig_t cfg = wgk::cluster2_config(
        static_cast<unsigned>(kCluster * (most > 0 ? most : 1)), kThreads, kSmem, nullptr, attr);
    int clusters = 0;
    if (cudaOccupancyMaxActiveClusters(&clusters, wgmma_cluster_persistent_kernel, &cfg) !=
        cudaSuccess) {
      (void)cudaGetLastError();  // not sticky: clear it and fall back
      clusters = 0;
    }
    if (clusters <= 0 || clusters > most) clusters = most;
    return clusters > 0 ? clusters : 1;
  }();
  return fit;
}

}  // namespace

void launch_wgmma_cluster_persistent_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                          const Gemm& g, cudaStream_t stream, int max_clusters) {
  wgk::raise_smem_once<wgmma_cluster_persistent_kernel, kSmem>();  // before the occupancy query
  const wgk::GemmMaps maps =
      wgk::gemm_maps(CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, a, b, g, kBK, kBM, 64);
  const int pairs_m = ((g.m + kBM - 1) / kBM + 1) / 2;  // block rows rounded up to even
  const int pairs = pairs_m * ((g.n + kBN - 1) / kBN);
  int clusters = resident_clusters();
  if (pairs < clusters) clusters = pairs;
  if (max_clusters > 0 && max_clusters < clusters) clusters = max_clusters;
  wgk::launch_cluster2(wgmma_cluster_persistent_kernel, static_cast<unsigned>(kCluster * clusters),
                       kThreads, kSmem, stream, maps.a, maps.b, c, g.m, g.n, g.k);
  MEMLAB_CHECK_LAUNCH(wgmma_cluster_persistent_kernel);
}

}  // namespace memlab::lessons::tensor_cores
