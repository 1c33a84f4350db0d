// Coalescing model: hand-worked warps, seed 001's figures, properties and every bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "memlab/common/error.hpp"
#include "memlab/model/coalescing.hpp"

namespace m = memlab::model;

namespace {

m::Pattern strided(std::int64_t stride, std::int64_t offset = 0) {
  m::Pattern p;
  p.kind = m::AccessKind::kStrided;
  p.stride = stride;
  p.offset = offset;
  return p;
}

std::string usage_message(const m::Pattern& p, int elem_size) {
  try {
    m::analyze_warp(p, elem_size);
  } catch (const memlab::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// Seed 001: x = a[i] with 4-byte elements -> 4 sectors, 1 line, 128 / 128 B, 100 %.
TEST(CoalescingModel, Seed001LinearFourBytes) {
  const auto w = m::analyze_warp(m::Pattern{}, 4);
  EXPECT_EQ(w.sectors.size(), 4u);
  EXPECT_EQ(w.lines.size(), 1u);
  EXPECT_EQ(w.bytes_moved, 128);
  EXPECT_EQ(w.bytes_needed, 128);
  EXPECT_DOUBLE_EQ(w.efficiency, 1.0);
  EXPECT_EQ(w.sectors, (std::vector<std::int64_t>{0, 1, 2, 3}));
  for (int lane = 0; lane < 32; ++lane) EXPECT_EQ(w.addresses[lane], 4 * lane);
}

TEST(CoalescingModel, LinearOverElementSizes) {
  struct Case {
    int elem;
    std::size_t sectors;
    std::size_t lines;
  };
  // 16-byte elements: 512 B = 16 sectors = 4 lines, still 100 %.
  for (const Case c :
       {Case{1, 1, 1}, Case{2, 2, 1}, Case{4, 4, 1}, Case{8, 8, 2}, Case{16, 16, 4}}) {
    const auto w = m::analyze_warp(m::Pattern{}, c.elem);
    EXPECT_EQ(w.sectors.size(), c.sectors) << "elem " << c.elem;
    EXPECT_EQ(w.lines.size(), c.lines) << "elem " << c.elem;
    EXPECT_EQ(w.bytes_needed, 32 * c.elem);
    EXPECT_EQ(w.bytes_moved, 32 * c.elem);
    EXPECT_DOUBLE_EQ(w.efficiency, 1.0);
  }
}

TEST(CoalescingModel, StridedWarps) {
  // stride 2: 32 lanes span 256 B -> 8 sectors, 2 lines, 50 %.
  auto w = m::analyze_warp(strided(2), 4);
  EXPECT_EQ(w.sectors.size(), 8u);
  EXPECT_EQ(w.lines.size(), 2u);
  EXPECT_EQ(w.bytes_moved, 256);
  EXPECT_DOUBLE_EQ(w.efficiency, 0.5);
  // stride 8: one lane per sector, 8 lines.
  w = m::analyze_warp(strided(8), 4);
  EXPECT_EQ(w.sectors.size(), 32u);
  EXPECT_EQ(w.lines.size(), 8u);
  EXPECT_EQ(w.bytes_moved, 1024);
  EXPECT_DOUBLE_EQ(w.efficiency, 0.125);
  // stride 32: one lane per line.
  w = m::analyze_warp(strided(32), 4);
  EXPECT_EQ(w.sectors.size(), 32u);
  EXPECT_EQ(w.lines.size(), 32u);
  EXPECT_DOUBLE_EQ(w.efficiency, 0.125);
  // stride 2 of 16-byte elements: lane i at 32 i, one sector each, half of every sector used.
  w = m::analyze_warp(strided(2), 16);
  EXPECT_EQ(w.sectors.size(), 32u);
  EXPECT_EQ(w.lines.size(), 8u);
  EXPECT_DOUBLE_EQ(w.efficiency, 0.5);
}

TEST(CoalescingModel, MisalignedOffsetCostsOneSector) {
  m::Pattern p;
  p.kind = m::AccessKind::kOffset;
  p.offset = 1;
  const auto w = m::analyze_warp(p, 4);  // bytes 4..131
  EXPECT_EQ(w.sectors, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(w.lines.size(), 2u);
  EXPECT_EQ(w.bytes_moved, 160);
  EXPECT_DOUBLE_EQ(w.efficiency, 0.8);
  // Over a whole array the boundary sectors are shared by neighbouring warps.
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(p, 4), 1.0);
  // An offset of 8 elements (32 B) is sector-aligned: 4 sectors again, but 2 lines.
  p.offset = 8;
  const auto aligned = m::analyze_warp(p, 4);
  EXPECT_EQ(aligned.sectors.size(), 4u);
  EXPECT_EQ(aligned.lines.size(), 2u);
}

TEST(CoalescingModel, ArrayOfStructuresField) {
  m::Pattern p;
  p.kind = m::AccessKind::kAosField;
  p.fields = 3;
  p.field = 1;  // bytes 12 i + 4 for i < 32: 4 .. 376
  const auto w = m::analyze_warp(p, 4);
  EXPECT_EQ(w.addresses[0], 4);
  EXPECT_EQ(w.addresses[31], 376);
  EXPECT_EQ(w.sectors.size(), 12u);
  EXPECT_EQ(w.lines.size(), 3u);
  EXPECT_NEAR(w.efficiency, 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(m::coalescing_efficiency(p, 4), 1.0 / 3.0, 1e-12);
}

TEST(CoalescingModel, RowAndColumnOfTwoDimensionalArray) {
  m::Pattern row;
  row.kind = m::AccessKind::kRow;
  row.width = 1000;
  row.row_or_col = 2;  // bytes 8000 .. 8127: sector-aligned, straddles lines 62 and 63
  const auto r = m::analyze_warp(row, 4);
  EXPECT_EQ(r.sectors, (std::vector<std::int64_t>{250, 251, 252, 253}));
  EXPECT_EQ(r.lines, (std::vector<std::int64_t>{62, 63}));
  EXPECT_DOUBLE_EQ(r.efficiency, 1.0);

  m::Pattern col;
  col.kind = m::AccessKind::kColumn;
  col.width = 1024;
  col.row_or_col = 5;
  const auto c = m::analyze_warp(col, 4);
  EXPECT_EQ(c.addresses[1], (1024 + 5) * 4);
  EXPECT_EQ(c.sectors.size(), 32u);
  EXPECT_EQ(c.lines.size(), 32u);
  EXPECT_DOUBLE_EQ(c.efficiency, 0.125);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(col, 4), 0.125);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(row, 4), 1.0);
}

TEST(CoalescingModel, RandomIsDeterministicAndBounded) {
  m::Pattern p;
  p.kind = m::AccessKind::kRandom;
  p.seed = 7;
  const auto a = m::analyze_warp(p, 4);
  const auto b = m::analyze_warp(p, 4);
  EXPECT_EQ(a.addresses, b.addresses);
  p.seed = 8;
  EXPECT_NE(m::analyze_warp(p, 4).addresses, a.addresses);
  for (auto addr : a.addresses) {
    EXPECT_GE(addr, 0);
    EXPECT_LT(addr, 4 * p.range);
    EXPECT_EQ(addr % 4, 0);
  }
  // Over 2^20 elements 32 lanes almost never share a sector.
  EXPECT_GE(a.sectors.size(), 30u);
  const double pass = m::coalescing_efficiency(p, 4);
  EXPECT_GT(pass, 0.12);
  EXPECT_LT(pass, 0.14);
  // A range of one element: every lane reads the same 4 bytes -> 1 sector, 4 of 32 B useful.
  p.range = 1;
  const auto same = m::analyze_warp(p, 4);
  EXPECT_EQ(same.sectors.size(), 1u);
  EXPECT_EQ(same.bytes_needed, 4);
  EXPECT_DOUBLE_EQ(same.efficiency, 0.125);
}

TEST(CoalescingModel, ArrayPassEfficiencyForStrides) {
  // e / min(s * e, 32): 1/s while lanes are closer than a sector, e/32 beyond.
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(1), 4), 1.0);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(2), 4), 0.5);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(3), 4), 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(4), 4), 0.25);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(8), 4), 0.125);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(64), 4), 0.125);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(2), 8), 0.5);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(8), 8), 0.25);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(3), 16), 0.5);
  EXPECT_DOUBLE_EQ(m::coalescing_efficiency(strided(40), 1), 1.0 / 32.0);
}

TEST(CoalescingModel, PropertiesOverStridesOffsetsAndSizes) {
  for (int elem : {1, 2, 4, 8, 16}) {
    for (std::int64_t stride = 1; stride <= 70; ++stride) {
      for (std::int64_t offset = 0; offset < 9; ++offset) {
        const auto p = strided(stride, offset);
        const auto w = m::analyze_warp(p, elem);
        SCOPED_TRACE(testing::Message()
                     << "elem " << elem << " stride " << stride << " offset " << offset);
        EXPECT_GT(w.efficiency, 0.0);
        EXPECT_LE(w.efficiency, 1.0);
        EXPECT_EQ(w.bytes_needed, 32 * elem);
        EXPECT_EQ(w.bytes_moved, 32 * static_cast<std::int64_t>(w.sectors.size()));
        EXPECT_GE(static_cast<int>(w.sectors.size()), w.min_sectors);
        EXPECT_LE(w.sectors.size(), 32u);
        EXPECT_LE(w.lines.size(), w.sectors.size());
        EXPECT_GE(w.lines.size() * 4, w.sectors.size());
        const double pass = m::coalescing_efficiency(p, elem);
        EXPECT_LE(pass, 1.0);
        EXPECT_GE(pass + 1e-12, w.efficiency);  // sharing between warps never hurts
      }
    }
  }
}

TEST(CoalescingModel, BadInputsNameTheParameter) {
  EXPECT_EQ(usage_message(strided(0), 4), "stride: must be >= 1 (got 0)");
  EXPECT_EQ(usage_message(strided(-3), 4), "stride: must be >= 1 (got -3)");
  for (int bad : {0, 3, 5, 12, 32, -4}) {
    EXPECT_EQ(usage_message(m::Pattern{}, bad),
              "elem_size: must be 1, 2, 4, 8 or 16 bytes (got " + std::to_string(bad) + ")");
  }
  m::Pattern p;
  p.offset = -1;
  EXPECT_EQ(usage_message(p, 4), "offset: must be >= 0 (got -1)");
  p = {};
  p.kind = m::AccessKind::kAosField;
  p.fields = 0;
  EXPECT_EQ(usage_message(p, 4), "fields: must be >= 1 (got 0)");
  p.fields = 4;
  p.field = 4;
  EXPECT_EQ(usage_message(p, 4), "field: must be in [0, 3] (got 4)");
  p = {};
  p.kind = m::AccessKind::kColumn;
  p.width = 16;
  p.row_or_col = 16;
  EXPECT_EQ(usage_message(p, 4), "column: must be in [0, 15] (got 16)");
  p.width = 0;
  EXPECT_EQ(usage_message(p, 4), "width: must be >= 1 (got 0)");
  p = {};
  p.kind = m::AccessKind::kRow;
  p.row_or_col = -2;
  EXPECT_EQ(usage_message(p, 4), "row: must be >= 0 (got -2)");
  p = {};
  p.kind = m::AccessKind::kRandom;
  p.range = 0;
  EXPECT_EQ(usage_message(p, 4), "range: must be >= 1 (got 0)");
  EXPECT_THROW(m::coalescing_efficiency(strided(0), 4), memlab::UsageError);
  EXPECT_THROW(m::parse_access_kind("diagonal"), memlab::UsageError);
}

TEST(CoalescingModel, KindNamesRoundTrip) {
  for (auto kind : {m::AccessKind::kLinear, m::AccessKind::kStrided, m::AccessKind::kOffset,
                    m::AccessKind::kRandom, m::AccessKind::kAosField, m::AccessKind::kRow,
                    m::AccessKind::kColumn}) {
    EXPECT_EQ(m::parse_access_kind(m::to_string(kind)), kind);
  }
  EXPECT_EQ(m::to_string(m::AccessKind::kAosField), "aos");
}

namespace memlab::model {
namespace {

// ncu on the H200 (docs/ncu.md): lanes 64 B or more apart cost 64 B of DRAM each; closer lanes
// cost their spacing. The 32-byte view stays the L1 request view.
TEST(CoalescingDramGranule, SixtyFourByteUnitsDoubleTheCostOfWideStrides) {
  Pattern p;
  p.kind = AccessKind::kStrided;
  p.stride = 8;  // 4-byte elements, lanes 32 B apart: no change
  EXPECT_DOUBLE_EQ(coalescing_efficiency(p, 4, kDramGranuleBytes), 4.0 / 32.0);
  p.stride = 16;  // 64 B apart: 64 B per lane
  EXPECT_DOUBLE_EQ(coalescing_efficiency(p, 4, kDramGranuleBytes), 4.0 / 64.0);
  EXPECT_DOUBLE_EQ(coalescing_efficiency(p, 4), 4.0 / 32.0);
  p.stride = 2;  // 16-byte elements 32 B apart: half of every unit used either way
  EXPECT_DOUBLE_EQ(coalescing_efficiency(p, 16, kDramGranuleBytes), 0.5);
  p.stride = 4;
  EXPECT_DOUBLE_EQ(coalescing_efficiency(p, 16, kDramGranuleBytes), 0.25);
  EXPECT_THROW(coalescing_efficiency(p, 16, 48), UsageError);
  EXPECT_THROW(coalescing_efficiency(p, 16, 0), UsageError);
}

}  // namespace
}  // namespace memlab::model
