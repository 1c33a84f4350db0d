// conv1d: P[i] = sum_j N[i - r + j] * M[j], r = K / 2, N = 0 outside [0, n) (ghost cells).
// Seed 000 sections 3-4: tiling with halo cells, the mask in __constant__ memory.
//
// Variants: the enumerators of `Variant` below (all FP32, one output per element, useful bytes =
// read N once + write P once = 8 n).
//
// Napkin math (H200, n = 2^28, K = 5): 2 GiB of useful traffic; at the ~4.2 TB/s of
// device-to-device memcpy that is 0.51 ms. Flops 2 K n = 2.7 GFLOP (K = 5) to 13 GFLOP (K = 25):
// 0.04-0.2 ms at 67 TFLOP/s, so every K here is memory bound; the roofline is the memcpy time.
// Shared memory: 4 KiB per block (1024 floats), far below 228 KiB per SM.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::conv1d {

inline constexpr int kMaxMask = 25;        // __constant__ float c_mask[kMaxMask]
inline constexpr int kTileThreads = 1024;  // I_TILE (tiled_input) and O_TILE (tiled_output)

enum class Variant {
  // One thread per output; N and M from global memory (M: K uniform loads per output; N: K loads
  // per output, neighbours' overlap served by L1).
  Naive,
  // As naive, M in __constant__ (cudaMemcpyToSymbol): one broadcast per warp.
  ConstMask,
  // Seed 000's kernel: blocks of I_TILE = 1024 threads, O_TILE = 1024 - (K - 1); every thread
  // loads one input (halo included) into shared memory, only O_TILE compute; K - 1 threads per
  // block idle. Shared 4 KiB; reuse O*K / I ~ K.
  TiledInput,
  // The seed's second design: blocks of O_TILE = 1024 outputs; shared holds only the block's own
  // 1024 inputs; the 2 r halo elements come from global (L1/L2).
  TiledOutput,
  // Each thread computes 4 consecutive outputs (one float4) from a register window of
  // 4 (2H + 1) floats, H = ceil(r / 4), loaded with 16-byte loads; neighbours' halo loads hit L1.
  // No shared memory.
  RegisterF4,
};

static_assert(kTileThreads == 1024, "the descriptions below say 1024");
inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Naive, "naive", "one thread per output; input and mask from global memory"},
    {Variant::ConstMask, "const_mask", "one thread per output; mask in __constant__ (broadcast)"},
    {Variant::TiledInput, "tiled_input",
     "seed 000: 1024-thread blocks load input tile + halo into shared, 1024 - (K - 1) compute; "
     "mask in __constant__"},
    {Variant::TiledOutput, "tiled_output",
     "1024-output blocks, own inputs in shared, halo from global (L1/L2); mask in __constant__"},
    {Variant::RegisterF4, "register_f4",
     "4 outputs per thread from a register window of 16-byte loads, float4 stores"},
};

// Copies the mask (K floats) into the __constant__ buffer (cudaMemcpyToSymbol).
void upload_mask(const float* host_mask, int k);

// Runs `variant` on in[0, n) -> out[0, n). `mask` is the same mask in global memory (naive).
void launch(Variant variant, const float* in, const float* mask, float* out, std::size_t n, int k,
            cudaStream_t stream);

// Reference on the GPU with double accumulation (see common/gpu_check.hpp).
void reference_gpu(const float* in, const float* mask, float* out, std::size_t n, int k,
                   cudaStream_t stream);

}  // namespace memlab::lessons::conv1d
