// Coalescing model: which 32-byte sectors and 128-byte lines one warp-wide load touches.
//
// Host-only. A warp's 32 lanes each read one element of `elem_size` bytes from an array whose
// first byte is 128-byte aligned (cudaMalloc gives 256). The memory system moves whole 32-byte
// sectors, so the bytes moved are sectors * 32 and the efficiency is needed / moved.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace memlab::model {

inline constexpr int kWarpSize = 32;
inline constexpr int kSectorBytes = 32;
inline constexpr int kLineBytes = 128;
// DRAM fetch unit seen on the H200 (ncu dram__bytes_read against strided reads, docs/ncu.md).
inline constexpr int kDramGranuleBytes = 64;

// How the lanes of a warp pick their element. Global thread t = warp * 32 + lane.
enum class AccessKind {
  kLinear,    // index = offset + t                       (a[i])
  kStrided,   // index = offset + t * stride              (a[i * s])
  kOffset,    // index = offset + t, same as kLinear; named for the misaligned-access lesson
  kRandom,    // index = offset + uniform in [0, range), drawn from `seed`
  kAosField,  // index = offset + t * fields + field      (aos[i].f, k fields of elem_size each)
  kRow,       // index = offset + row_or_col * width + t  (a[r][i], row-major, width w)
  kColumn,    // index = offset + t * width + row_or_col  (a[i][c], row-major, width w)
};

// Short name used on the command line and in JSON: linear, strided, offset, random, aos, row,
// column.
std::string_view to_string(AccessKind kind);
// Inverse of to_string; throws UsageError naming `pattern` for an unknown name.
AccessKind parse_access_kind(std::string_view name);

struct Pattern {
  AccessKind kind = AccessKind::kLinear;
  std::int64_t stride = 1;       // kStrided: elements between neighbouring lanes, >= 1
  std::int64_t offset = 0;       // every kind: elements added to each index, >= 0
  std::uint64_t seed = 1;        // kRandom: seed of the generator (deterministic)
  std::int64_t range = 1 << 20;  // kRandom: indices drawn from [0, range), >= 1
  std::int64_t fields = 4;       // kAosField: fields per structure (k), >= 1
  std::int64_t field = 0;        // kAosField: the field read, in [0, fields)
  std::int64_t width = 1024;     // kRow / kColumn: row width of the 2D array in elements, >= 1
  std::int64_t row_or_col = 0;   // kRow: row index (>= 0); kColumn: column index in [0, width)
};

// Throws UsageError if a field the pattern's kind uses is out of range, or if elem_size is not
// 1, 2, 4, 8 or 16.
void validate(const Pattern& pattern, int elem_size);

// Element index read by global thread `thread` (lane of warp 0 for thread < 32).
std::int64_t element_index(const Pattern& pattern, std::int64_t thread);

struct WarpAccess {
  int elem_size = 4;                              // bytes per lane
  std::array<std::int64_t, kWarpSize> addresses;  // byte address read by each lane
  std::vector<std::int64_t> sectors;              // distinct 32-byte sector numbers, ascending
  std::vector<std::int64_t> lines;                // distinct 128-byte line numbers, ascending
  std::int64_t bytes_moved = 0;                   // sectors.size() * 32
  std::int64_t bytes_needed = 0;  // distinct elements * elem_size (32*elem if no repeats)
  double efficiency = 0.0;        // bytes_needed / bytes_moved, in (0, 1]
  int min_sectors = 0;            // sectors a perfectly coalesced warp would need
};

// The sectors and lines one warp-wide load of warp 0 touches. Exact for the L1/L2 request of a
// single warp instruction (ncu: sectors per request).
WarpAccess analyze_warp(const Pattern& pattern, int elem_size);

// Efficiency (useful bytes / DRAM bytes) of a whole pass of many warps over a large array with
// this pattern. Sectors shared by neighbouring warps of the same pass are counted once (they meet
// in L2); nothing else is reused. For stride s and element size e this is e / min(s * e, 32):
// 1/s while the lanes are closer than a sector, e/32 beyond. An offset only costs the first and
// last sector of the array, so it tends to 100%. For kRandom it is the average per-warp efficiency
// over 256 warps (a random gather is assumed not to reuse sectors between warps).
//
// `granule_bytes` is the unit the cache fetches from DRAM: 32 (one sector) counts what L2 asks
// L1 for; on the H200 the DRAM traffic measured with ncu follows 64-byte units (two sectors:
// lanes 64 B or more apart cost 64 B each; docs/ncu.md), so predictions of DRAM time use
// kDramGranuleBytes. Must be a multiple of 32 (UsageError otherwise). Ignored for kRandom.
double coalescing_efficiency(const Pattern& pattern, int elem_size,
                             int granule_bytes = kSectorBytes);

}  // namespace memlab::model
