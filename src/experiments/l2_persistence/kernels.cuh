// l2_persistence: keep a hot table in L2 while a stream of cold data passes through it.
//
// Every group of 8 cold floats (32 B read, 32 B written) gathers one float of a hot table at a
// random index: out[8j + e] = cold[8j + e] + table[h(j)]. A table sector (32 B) is gathered again,
// on average, after table_bytes / 32 gathers, by which time 64 B x table_bytes / 32 = 2 x
// table_bytes of cold data have passed: under LRU the table stays only while 3 x table_bytes fits
// in L2. An access policy window (cudaAccessPolicyWindow, on the stream) marks a fraction
// `hitRatio` of the window's lines persisting: they live in the L2 set-aside
// (cudaLimitPersistingL2CacheSize) and the cold stream cannot push them out.
//   no_window   plain kernel, no policy: the table competes with the stream (LRU).
//   persisting  window over the table, hitProp = persisting, missProp = streaming.
//   streaming   the same window with hitProp = streaming: the table is marked evict-first, the
//               opposite of what it needs (a demonstration of the property, not a fix).
//   cold_evict_first  no window; the cold stream's loads and stores carry the evict-first hint
//               (__ldcs/__stcs): the software alternative, no set-aside needed.
// Memory per group: 32 B read + 32 B written streaming, one 4-byte gather (one 32-byte sector,
// a 64-byte DRAM access when it misses).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::l2_persistence {

inline constexpr std::size_t kGroup = 8;  // cold floats per gather

// The gathered index for group j: a multiplicative hash mapped onto [0, table_n).
MEMLAB_HD inline std::size_t table_index(std::size_t j, std::size_t table_n) {
  std::uint64_t z = (static_cast<std::uint64_t>(j) + 0x9E3779B97F4A7C15ull) * 0xBF58476D1CE4E5B9ull;
  z ^= z >> 31;
  return static_cast<std::size_t>(((z & 0xFFFFFFFFull) * table_n) >> 32);
}

enum class Policy { kNone, kPersisting, kStreaming };

struct Window {
  Policy policy = Policy::kNone;
  std::size_t bytes = 0;  // window size from the table's start
  float hit_ratio = 1.0f;
};

// out[i] = cold[i] + table[table_index(i / kGroup, table_n)] for i < n, the window set on the
// stream for this launch and cleared after it; evict_first_cold: cold loads/stores hinted .cs.
void launch_gather(const float* cold, const float* table, float* out, std::size_t n,
                   std::size_t table_n, const Window& window, bool evict_first_cold,
                   cudaStream_t stream);

}  // namespace memlab::lessons::l2_persistence
