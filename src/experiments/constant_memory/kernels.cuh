// constant_memory: the constant cache's broadcast, and what happens when a warp's lanes ask for
// different addresses (seed 000 §4: "latency like L1 on a hit with one address for all threads,
// serialized otherwise").
//
// A warp follows a dependent chain through a small table. At each step lane l reads word
// x + 65 * (l % distinct): `distinct` different addresses per load, 260 bytes apart (different
// cache lines, and different shared-memory banks), and every one of them holds the same next x,
// so the whole warp stays on one chain. The same table lives in constant memory, global memory
// and shared memory:
//   constant  ld.const: one address is one broadcast; d distinct addresses take ~d passes.
//   global    plain ld.global (L1): a warp's distinct lines are fetched in one request.
//   ldg       __ldg (read-only data path): as global, through the texture/L1 path.
//   shared    ld.shared: conflict-free (65-word spacing puts every lane in its own bank).
// mode=latency runs one warp (cycles per dependent load, clock64); mode=throughput fills the GPU
// with warps (loads per second). distinct=1 is the convolution-mask case.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace memlab::lessons::constant_memory {

enum class Variant { Constant, Global, Ldg, Shared };

struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};

inline constexpr VariantInfo kVariants[] = {
    {Variant::Constant, "constant", "__constant__ table: broadcast, serialized on distinct"},
    {Variant::Global, "global", "the same table in global memory, plain loads"},
    {Variant::Ldg, "ldg", "the same table in global memory, __ldg (read-only path)"},
    {Variant::Shared, "shared", "the same table copied into shared memory"},
};

inline constexpr int kChain = 64;    // chain positions x in [0, 64)
inline constexpr int kSpacing = 65;  // words between the lanes' addresses
inline constexpr int kTableWords = kChain + 31 * kSpacing + 1;  // 2080 words
inline constexpr unsigned kThroughputBlocks = 1024;
inline constexpr unsigned kThroughputThreads = 256;

struct Args {
  const std::uint32_t* table;  // global copy (global, ldg, shared's source)
  std::uint32_t distinct;
  std::uint32_t steps;
  std::uint32_t* out;          // per thread: final x, sum of x (mod 2^32)
  unsigned long long* cycles;  // warp 0, lane 0: clock64 cycles of the timed steps
  bool throughput;             // false: one warp
};

// The table, uploaded to constant memory (cudaMemcpyToSymbolAsync).
void upload_constant_table(const std::uint32_t* host_table, cudaStream_t stream);
void launch(Variant v, const Args& args, cudaStream_t stream);

}  // namespace memlab::lessons::constant_memory
