// bank_conflicts: one warp access pattern repeated many times over shared memory, timed per access.
//
// One block of 1024 threads (32 warps) per SM: the block asks for 120 KiB of dynamic shared memory,
// so two never share an SM, and the grid has one block per SM. Each block copies its region of
// shared memory from global memory, then every thread performs `iters` volatile 4- or 8-byte
// accesses (ld/st.volatile.shared: none can be merged, hoisted or removed; 8 per unrolled group,
// issued back to back) to one element, and thread 0 brackets the loop with clock64/globaltimer.
// Lane l of warp w uses element e = A(w) + l * s, with A(w) a per-warp shift that keeps the 32
// warps' elements disjoint (so concurrent writes never race) and moves every lane by the same
// amount (the bank pattern of the warp is unchanged). Variants: the enumerators of `Variant`.
// Verification: reads: each thread writes the (wrapping) sum of what it read, iters * x[e]; writes:
// the block's final shared region is copied out, element e of a writing thread holds
// x[e] + iters - 8 (the last group's value), untouched elements keep x[e].
// Napkin math (H200, 132 SMs, ~1.98 GHz): shared memory serves one 128-byte wavefront per clock
// per SM, so a conflict-free 4-byte warp access costs ~1 SM clock of throughput and a d-way one
// ~d clocks; iters = 8192 x 32 warps = 262144 warp accesses per SM, ~0.13 ms at s=1, ~4.2 ms at
// 32-way. Global memory is touched only before and after the timed loop (a few KiB per block).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/variants.hpp"

#if defined(__CUDACC__)
#define MEMLAB_BANK_HD __host__ __device__
#else
#define MEMLAB_BANK_HD
#endif

namespace memlab::lessons::bank_conflicts {

inline constexpr int kWarps = 32;  // per block
inline constexpr int kThreads = kWarps * 32;
inline constexpr int kUnroll = 8;                        // accesses per group; iters % 8 == 0
inline constexpr std::size_t kSmemRequest = 120 * 1024;  // forces one block per SM

// Element of lane l in warp w: (w % wmod) * wa + (w / wmod) * wb + l * stride.
struct Layout {
  std::int64_t stride = 1, wmod = 1, wa = 0, wb = 32;
  MEMLAB_BANK_HD std::int64_t element(int warp, int lane) const {
    return (warp % wmod) * wa + (warp / wmod) * wb + lane * stride;
  }
  std::int64_t region() const;  // elements: max element over the block + 1
};

struct Args {
  const void* in;          // region() elements of `word` bytes
  void* out;               // read: blocks * kThreads elements; write: blocks * region() elements
  long long* cycles;       // per block: clock64 cycles of the timed loop
  long long* nanoseconds;  // per block: globaltimer ns of the timed loop
  Layout layout;
  int word = 4;  // 4 or 8 bytes
  bool write = false;
  int iters = 8192;  // accesses per thread, multiple of kUnroll
  int blocks = 1;
};

enum class Variant {
  // Lane l: element A(w) + l, conflict-free; the baseline at every point (same op, word, warps,
  // iterations).
  Stride1,
  // Lane l: element A(w) + l * stride. 4-byte words: gcd(stride, 32)-way conflict; 8-byte words:
  // served per half-warp, memlab::model::analyze_banks gives the degree.
  Strided,
  // (read, at stride=1 points) lane l reads tile[l][w % 32] of tile[32][32]: 32-way.
  Col32x32,
  // (read, at stride=1 points) the same column of tile[32][33]: conflict-free.
  Col32x33,
  // (read, at stride=1 points) all lanes read one element: one word, no conflict.
  Broadcast,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Stride1, "stride1",
     "lane l accesses element l of its warp's region: conflict-free (baseline)"},
    {Variant::Strided, "strided",
     "lane l accesses element l*stride: gcd(stride,32)-way for 4-byte words"},
    {Variant::Col32x32, "col_32x32", "lane l reads tile[l][c] of tile[32][32]: one bank, 32-way"},
    {Variant::Col32x33, "col_32x33",
     "lane l reads tile[l][c] of tile[32][33]: 32 banks, conflict-free"},
    {Variant::Broadcast, "broadcast", "all lanes read one element: one word, broadcast"},
};

// The element each lane of each warp accesses in `variant` at stride `s`.
constexpr Layout layout_of(Variant variant, std::int64_t s) {
  switch (variant) {
    case Variant::Stride1:
      return Layout{1, 1, 0, 32};
    case Variant::Strided:
      return Layout{s, s, 1, 32 * s};
    case Variant::Col32x32:
      return Layout{32, 32, 1, 0};
    case Variant::Col32x33:
      return Layout{33, 32, 1, 0};
    case Variant::Broadcast:
      return Layout{0, 32, 1, 0};  // lane l of warp w reads element w
  }
  invalid_variant("bank_conflicts");
}

int sm_count();
void launch(const Args& args, cudaStream_t stream);

}  // namespace memlab::lessons::bank_conflicts
