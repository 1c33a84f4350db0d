// tensor_cores: GEMM on the tensor cores, C (FP32, M x N) = A (M x K) B (K x N), both row-major.
//
// Inputs are stored with leading dimensions padded to 16 bytes (lda = K rounded up to 8 BF16 or
// 4 floats, ldb likewise for N), the padding zero, so that every row starts 16-byte aligned and a
// tile can be copied with 16-byte cp.async; the kernels zero-fill what lies past M, N or the
// padded K, so any size works (tiles need not divide it).
//   mma_sync (bf16)  128x128x32 block tile, 4 warps of 64x64, mma.sync.m16n8k16 BF16 -> FP32.
//                    Global -> shared with cp.async.cg (16 B, bypassing L1) in a 4-stage ring:
//                    three tiles in flight while the fourth is computed. Fragments come from
//                    shared memory with ldmatrix.x4 (A) and ldmatrix.x4.trans (B, stored k-major),
//                    the 16-byte chunks XOR-swizzled so that the 8 rows an ldmatrix reads hit 8
//                    different bank groups. Blocks are visited in groups of 8 block rows so that
//                    the B panels they share are still in L2.
//                    Memory: each A element is read from DRAM/L2 N/128 times, each B element
//                    M/128 times; per k-step a block moves 16 KB into shared memory for 1 MFLOP.
//   mma_sync (tf32)  128x128x16 block tile, 4 warps of 64x64, mma.sync.m16n8k8 TF32 -> FP32,
//                    4-stage cp.async ring; fragments loaded with plain 4-byte shared loads from
//                    rows padded by 4 (A) and 8 (B) floats: conflict-free for the mma layouts.
//                    Inputs must already be TF32 values (the lesson rounds them on the host);
//                    the kernel passes their bits to the tensor cores unchanged.
//                    Memory: as above with 4-byte elements: twice the bytes per flop of BF16.
//   cublas           cublasGemmEx, the same types (BF16 in, FP32 compute and out; or FP32 in with
//                    CUBLAS_COMPUTE_32F_FAST_TF32): the vendor line (Hopper: wgmma kernels).
// Napkin math (H200, 8192^3): 2 x 8192^3 = 1.1 TFLOP; at the dense BF16 rate (~990 TFLOP/s by
// the datasheet, ~790 measured with cuBLAS here) ~1.4 ms; TF32 runs at half that rate.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace memlab::lessons::tensor_cores {

struct Gemm {
  int m = 0, n = 0, k = 0;
  int lda = 0, ldb = 0;  // padded leading dimensions (elements); ldc = n
};

// A, B: BF16 bit patterns (uint16), C: FP32.
void launch_mma_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c, const Gemm& g,
                     cudaStream_t stream);
// Hopper (wgmma_bf16_sm90a.cu): wgmma.m64n256k16 from TMA-loaded, 128B-swizzled shared memory,
// a 4-stage mbarrier ring, one producer and two consumer warpgroups. Needs an sm_90a build
// (wgmma_built()) and a compute capability 9.0 GPU.
void launch_wgmma_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c, const Gemm& g,
                       cudaStream_t stream);
bool wgmma_built();
// Hopper (wgmma_persistent_sm90a.cu): the same kernel made persistent: min(tiles, SMs, max_ctas
// if > 0) CTAs walk the tiles in the same grouped raster, the ring continuing across tiles so the
// next tile's loads overlap the epilogue. max_ctas (tests) forces several tiles per CTA.
void launch_wgmma_persistent_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                  const Gemm& g, cudaStream_t stream, int max_ctas = 0);
// Hopper (wgmma_tma_store_sm90a.cu): `wgmma_persistent` with its epilogue through shared memory:
// each consumer warpgroup stages 64 x 32 FP32 chunks (128B-swizzled, two buffers) and one thread
// writes them with the TMA store (cp.async.bulk.tensor, bulk groups), so the next tile's MMAs
// start while C is written. Needs n % 4 == 0 (C's tensor map: 16-byte row pitch); throws
// std::invalid_argument otherwise. max_ctas as for wgmma_persistent.
void launch_wgmma_tma_store_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                 const Gemm& g, cudaStream_t stream, int max_ctas = 0);
// Hopper (wgmma_cluster_sm90a.cu): `wgmma` in clusters of 2 CTAs along M (vertically adjacent
// 128 x 256 tiles of the same columns); each CTA loads its A box and half of B, multicast to both
// CTAs' shared memory: 32 KiB from L2 per CTA and k tile instead of 48. BF16 only.
void launch_wgmma_cluster_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                               const Gemm& g, cudaStream_t stream);
// Hopper (wgmma_cluster_persistent_sm90a.cu): `wgmma_cluster` made persistent: as many 2-CTA
// clusters as fit at once (min(pairs, SMs / 2, max_clusters if > 0)) walk the pairs of vertically
// adjacent tiles in the grouped raster, B multicast within each pair, the ring continuing across
// pairs. max_clusters (tests) forces several pairs per cluster. BF16 only.
void launch_wgmma_cluster_persistent_bf16(const std::uint16_t* a, const std::uint16_t* b, float* c,
                                          const Gemm& g, cudaStream_t stream, int max_clusters = 0);
// A, B: FP32 arrays holding TF32 values, C: FP32.
void launch_mma_tf32(const float* a, const float* b, float* c, const Gemm& g, cudaStream_t stream);
// Hopper (wgmma_tf32_sm90a.cu): `wgmma` at dtype tf32: C^T = B^T A^T with wgmma.m64n256k8 (.tf32
// reads shared-memory operands K-major only): A by descriptor from a TMA-loaded, 128B-swizzled
// ring, B's fragments from shared memory into registers; 256 x 128 x 32 tiles, 4 stages, one
// producer and two consumer warpgroups. Needs an sm_90a build (wgmma_built()) and cc 9.0.
void launch_wgmma_tf32(const float* a, const float* b, float* c, const Gemm& g,
                       cudaStream_t stream);

}  // namespace memlab::lessons::tensor_cores
