// syncthreads: what a block barrier costs, and what happens without one (seed 000 §2, seed 001,
// seed 004: "if this is skipped, the results are wrong").
//
//   barrier_only   a loop of bare __syncthreads(): cycles per barrier against the block size.
//   rotate_block   s[t] = s[(t + 1) % B] per iteration, a __syncthreads() before and after the
//                  write: correct only because of the barriers (checked against the rotation).
//   rotate_warp    the same rotation inside each warp with __syncwarp(): the cheaper barrier.
//   tiled_sync     the tiled matrix product of seed 004 (16x16 tiles, 256 threads): load tile,
//                  barrier, multiply, barrier.
//   tiled_no_sync  the same kernel with both __syncthreads() removed: warps read tile rows other
//                  warps have not written yet, and overwrite tiles others still read. Broken on
//                  purpose: an EXPECTED failure, caught by verification, never timed.
// The divergent-barrier hang of seed 001 (a __syncthreads() inside a branch some threads skip) is
// not run here: it is undefined behaviour and may hang a shared GPU (compute-sanitizer's synccheck
// reports it; see docs/syncthreads.md).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

namespace memlab::lessons::syncthreads {

enum class Variant { BarrierOnly, RotateBlock, RotateWarp, TiledSync, TiledNoSync };

struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};

inline constexpr VariantInfo kVariants[] = {
    {Variant::BarrierOnly, "barrier_only", "a loop of bare __syncthreads()"},
    {Variant::RotateBlock, "rotate_block", "shared rotation across the block, 2 barriers/step"},
    {Variant::RotateWarp, "rotate_warp", "shared rotation inside each warp, 2 __syncwarp/step"},
    {Variant::TiledSync, "tiled_sync", "16x16 tiled matmul with its two __syncthreads()"},
    {Variant::TiledNoSync, "tiled_no_sync",
     "the same tiled matmul without __syncthreads() (broken on purpose)"},
};

inline constexpr unsigned kBlocks = 264;  // 2 blocks per SM on a 132-SM H100/H200
inline constexpr int kTile = 16;

struct RotateArgs {
  const std::int32_t* in;  // kBlocks * block
  std::int32_t* out;
  unsigned block;
  std::uint32_t iters;
  unsigned long long* cycles;  // block 0, thread 0: cycles of the loop
};

struct MatmulArgs {
  const float* a;  // n x n, row-major
  const float* b;
  float* c;
  int n;
};

void launch_rotate(Variant v, const RotateArgs& args, cudaStream_t stream);
void launch_matmul(Variant v, const MatmulArgs& args, cudaStream_t stream);

}  // namespace memlab::lessons::syncthreads
