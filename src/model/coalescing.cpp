// Coalescing model: see include/memlab/model/coalescing.hpp and docs/models.md.
#include "memlab/model/coalescing.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <array>

#include "memlab/common/error.hpp"

namespace memlab::model {
namespace {

struct KindName {
  AccessKind kind;
  std::string_view name;
};
constexpr std::array<KindName, 7> kKindNames{{
    {AccessKind::kLinear, "linear"},
    {AccessKind::kStrided, "strided"},
    {AccessKind::kOffset, "offset"},
    {AccessKind::kRandom, "random"},
    {AccessKind::kAosField, "aos"},
    {AccessKind::kRow, "row"},
    {AccessKind::kColumn, "column"},
}};

// splitmix64: a small, well-mixed, deterministic hash; the same on every platform.
std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

bool valid_elem_size(int elem_size) {
  return elem_size == 1 || elem_size == 2 || elem_size == 4 || elem_size == 8 || elem_size == 16;
}

}  // namespace

std::string_view to_string(AccessKind kind) {
  for (const auto& entry : kKindNames) {
    if (entry.kind == kind) return entry.name;
  }
  return "unknown";
}

AccessKind parse_access_kind(std::string_view name) {
  for (const auto& entry : kKindNames) {
    if (entry.name == name) return entry.kind;
  }
  throw UsageError(fmt::format(
      "pattern: must be one of linear, strided, offset, random, aos, row, column (got '{}')",
      name));
}

void validate(const Pattern& p, int elem_size) {
  if (!valid_elem_size(elem_size)) {
    throw UsageError(fmt::format("elem_size: must be 1, 2, 4, 8 or 16 bytes (got {})", elem_size));
  }
  if (p.offset < 0) throw UsageError(fmt::format("offset: must be >= 0 (got {})", p.offset));
  switch (p.kind) {
    case AccessKind::kLinear:
    case AccessKind::kOffset:
      break;
    case AccessKind::kStrided:
      if (p.stride < 1) throw UsageError(fmt::format("stride: must be >= 1 (got {})", p.stride));
      break;
    case AccessKind::kRandom:
      if (p.range < 1) throw UsageError(fmt::format("range: must be >= 1 (got {})", p.range));
      break;
    case AccessKind::kAosField:
      if (p.fields < 1) throw UsageError(fmt::format("fields: must be >= 1 (got {})", p.fields));
      if (p.field < 0 || p.field >= p.fields) {
        throw UsageError(fmt::format("field: must be in [0, {}] (got {})", p.fields - 1, p.field));
      }
      break;
    case AccessKind::kRow:
      if (p.width < 1) throw UsageError(fmt::format("width: must be >= 1 (got {})", p.width));
      if (p.row_or_col < 0) {
        throw UsageError(fmt::format("row: must be >= 0 (got {})", p.row_or_col));
      }
      break;
    case AccessKind::kColumn:
      if (p.width < 1) throw UsageError(fmt::format("width: must be >= 1 (got {})", p.width));
      if (p.row_or_col < 0 || p.row_or_col >= p.width) {
        throw UsageError(
            fmt::format("column: must be in [0, {}] (got {})", p.width - 1, p.row_or_col));
      }
      break;
  }
}

std::int64_t element_index(const Pattern& p, std::int64_t thread) {
  switch (p.kind) {
    case AccessKind::kLinear:
    case AccessKind::kOffset:
      return p.offset + thread;
    case AccessKind::kStrided:
      return p.offset + thread * p.stride;
    case AccessKind::kRandom: {
      const std::uint64_t h = splitmix64(p.seed * 0x100000001b3ULL ^ splitmix64(thread));
      return p.offset + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(p.range));
    }
    case AccessKind::kAosField:
      return p.offset + thread * p.fields + p.field;
    case AccessKind::kRow:
      return p.offset + p.row_or_col * p.width + thread;
    case AccessKind::kColumn:
      return p.offset + thread * p.width + p.row_or_col;
  }
  return 0;
}

namespace {

// Sectors/lines/bytes of warp `warp` (threads warp*32 .. warp*32+31). Elements are aligned to
// their size and sizes divide 32, so an element never straddles a sector.
WarpAccess analyze_one_warp(const Pattern& p, int elem_size, std::int64_t warp) {
  WarpAccess w;
  w.elem_size = elem_size;
  std::vector<std::int64_t> elements;
  elements.reserve(kWarpSize);
  for (int lane = 0; lane < kWarpSize; ++lane) {
    const std::int64_t index = element_index(p, warp * kWarpSize + lane);
    elements.push_back(index);
    w.addresses[static_cast<std::size_t>(lane)] = index * elem_size;
    w.sectors.push_back(index * elem_size / kSectorBytes);
    w.lines.push_back(index * elem_size / kLineBytes);
  }
  for (auto* v : {&elements, &w.sectors, &w.lines}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  w.bytes_needed = static_cast<std::int64_t>(elements.size()) * elem_size;
  w.bytes_moved = static_cast<std::int64_t>(w.sectors.size()) * kSectorBytes;
  w.efficiency = static_cast<double>(w.bytes_needed) / static_cast<double>(w.bytes_moved);
  w.min_sectors = static_cast<int>((w.bytes_needed + kSectorBytes - 1) / kSectorBytes);
  return w;
}

}  // namespace

WarpAccess analyze_warp(const Pattern& pattern, int elem_size) {
  validate(pattern, elem_size);
  return analyze_one_warp(pattern, elem_size, 0);
}

double coalescing_efficiency(const Pattern& pattern, int elem_size, int granule_bytes) {
  validate(pattern, elem_size);
  if (granule_bytes < kSectorBytes || granule_bytes % kSectorBytes != 0) {
    throw UsageError(fmt::format("granule: {} bytes is not accepted; accepted: a multiple of 32",
                                 granule_bytes));
  }
  const double e = elem_size;
  const double g = granule_bytes;
  switch (pattern.kind) {
    case AccessKind::kLinear:
    case AccessKind::kOffset:
    case AccessKind::kRow:
      return 1.0;
    case AccessKind::kStrided:
      return e / std::min(static_cast<double>(pattern.stride) * e, g);
    case AccessKind::kAosField:
      return e / std::min(static_cast<double>(pattern.fields) * e, g);
    case AccessKind::kColumn:
      return e / std::min(static_cast<double>(pattern.width) * e, g);
    case AccessKind::kRandom: {
      constexpr int kWarps = 256;
      double sum = 0.0;
      for (int warp = 0; warp < kWarps; ++warp) {
        sum += analyze_one_warp(pattern, elem_size, warp).efficiency;
      }
      return sum / kWarps;
    }
  }
  return 1.0;
}

}  // namespace memlab::model
