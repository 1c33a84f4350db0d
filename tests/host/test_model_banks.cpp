// Shared-memory bank model: seed 000/001 cases, 8- and 16-byte phases, properties, bad inputs.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "memlab/common/error.hpp"
#include "memlab/model/banks.hpp"

namespace m = memlab::model;

namespace {

m::BankPattern stride(std::int64_t s) {
  m::BankPattern p;
  p.kind = m::BankPatternKind::kStride;
  p.stride = s;
  return p;
}

m::BankPattern column(std::int64_t width, std::int64_t col = 0) {
  m::BankPattern p;
  p.kind = m::BankPatternKind::kColumn;
  p.width = width;
  p.col = col;
  return p;
}

}  // namespace

// Seed 001: float tile[32][32]; tile[threadIdx.x][0] -> 32-way, 32 passes, no broadcast.
TEST(BanksModel, Seed001ColumnOfTile32x32) {
  const auto b = m::analyze_banks(column(32), 4);
  EXPECT_DOUBLE_EQ(b.degree, 32.0);
  EXPECT_EQ(b.passes, 32);
  EXPECT_EQ(b.min_passes, 1);
  EXPECT_EQ(b.broadcast_lanes, 0);
  ASSERT_EQ(b.phases.size(), 1u);
  EXPECT_EQ(b.phases[0].words[0].size(), 32u);  // every lane in bank 0
  for (int bank = 1; bank < 32; ++bank) EXPECT_TRUE(b.phases[0].words[bank].empty());
}

// Seed 001: tile[32][33] shifts each row by one bank -> conflict-free.
TEST(BanksModel, Seed001PaddedTileIsConflictFree) {
  for (std::int64_t col : {0, 7, 32}) {
    const auto b = m::analyze_banks(column(33, col), 4);
    EXPECT_DOUBLE_EQ(b.degree, 1.0);
    EXPECT_EQ(b.passes, 1);
    for (int bank = 0; bank < 32; ++bank) EXPECT_EQ(b.phases[0].words[bank].size(), 1u);
  }
}

// Seed 001: for stride s on 4-byte words the degree is gcd(s, 32).
TEST(BanksModel, StrideGivesGcdWithThirtyTwo) {
  for (std::int64_t s = 1; s <= 130; ++s) {
    const auto b = m::analyze_banks(stride(s), 4);
    EXPECT_EQ(b.passes, std::gcd(s, std::int64_t{32})) << "stride " << s;
    EXPECT_DOUBLE_EQ(b.degree, static_cast<double>(std::gcd(s, std::int64_t{32})));
  }
}

// Seed 000: s[threadIdx.x * 2] -> 2-way: lanes 0 and 16 both hit bank 0.
TEST(BanksModel, Seed000StrideTwoIsTwoWay) {
  const auto b = m::analyze_banks(stride(2), 4);
  EXPECT_EQ(b.passes, 2);
  const auto& bank0 = b.phases[0].lanes_of_word[0];
  ASSERT_EQ(bank0.size(), 2u);
  EXPECT_EQ(bank0[0], std::vector<int>{0});
  EXPECT_EQ(bank0[1], std::vector<int>{16});
}

// Seed 000: s[0] for every lane is a broadcast: one pass.
TEST(BanksModel, BroadcastIsFree) {
  m::BankPattern p;
  p.kind = m::BankPatternKind::kBroadcast;
  p.offset = 5;
  const auto b = m::analyze_banks(p, 4);
  EXPECT_EQ(b.passes, 1);
  EXPECT_DOUBLE_EQ(b.degree, 1.0);
  EXPECT_EQ(b.broadcast_lanes, 32);
  EXPECT_EQ(b.phases[0].words[5], std::vector<std::int64_t>{5});
}

TEST(BanksModel, PairsSharingWordsBroadcastButDistinctWordsConflict) {
  std::array<std::int64_t, 32> idx{};
  for (int lane = 0; lane < 32; ++lane) idx[lane] = lane / 2;  // 16 words, 2 lanes each
  auto b = m::analyze_banks(idx, 4);
  EXPECT_EQ(b.passes, 1);
  EXPECT_EQ(b.broadcast_lanes, 32);
  // Half the lanes read word 0, half word 32: same bank, two distinct words -> 2 passes.
  for (int lane = 0; lane < 32; ++lane) idx[lane] = lane % 2 == 0 ? 0 : 32;
  b = m::analyze_banks(idx, 4);
  EXPECT_EQ(b.passes, 2);
  EXPECT_EQ(b.broadcast_lanes, 32);
  // One lane reads a word nobody else reads.
  for (int lane = 0; lane < 32; ++lane) idx[lane] = lane == 31 ? 1 : 0;
  b = m::analyze_banks(idx, 4);
  EXPECT_EQ(b.passes, 1);
  EXPECT_EQ(b.broadcast_lanes, 31);
}

TEST(BanksModel, EightByteAccessesAreTwoHalfWarps) {
  auto b = m::analyze_banks(stride(1), 8);  // double s[lane]: each half-warp 32 words
  EXPECT_EQ(b.phases.size(), 2u);
  EXPECT_EQ(b.phases[1].first_lane, 16);
  EXPECT_EQ(b.passes, 2);
  EXPECT_EQ(b.min_passes, 2);
  EXPECT_DOUBLE_EQ(b.degree, 1.0);
  b = m::analyze_banks(stride(2), 8);  // words 4i, 4i+1: every used bank twice per half
  EXPECT_EQ(b.passes, 4);
  EXPECT_DOUBLE_EQ(b.degree, 2.0);
  b = m::analyze_banks(column(32), 8);  // double tile[32][32] column: banks 0 and 1 only
  EXPECT_EQ(b.passes, 32);
  EXPECT_DOUBLE_EQ(b.degree, 16.0);
  b = m::analyze_banks(column(33), 8);  // padding by one double: conflict-free again
  EXPECT_DOUBLE_EQ(b.degree, 1.0);
  // Only the second half-warp conflicts (2-way): 1 + 2 passes of 2 minimum -> 1.5.
  std::array<std::int64_t, 32> idx{};
  for (int lane = 0; lane < 16; ++lane) idx[lane] = lane;
  for (int lane = 16; lane < 32; ++lane) idx[lane] = 32 + 2 * (lane - 16);
  b = m::analyze_banks(idx, 8);
  EXPECT_EQ(b.phases[0].passes, 1);
  EXPECT_EQ(b.phases[1].passes, 2);
  EXPECT_EQ(b.passes, 3);
  EXPECT_DOUBLE_EQ(b.degree, 1.5);
}

TEST(BanksModel, SixteenByteAccessesAreFourQuarterWarps) {
  auto b = m::analyze_banks(stride(1), 16);  // float4 s[lane]
  EXPECT_EQ(b.phases.size(), 4u);
  EXPECT_EQ(b.phases[3].first_lane, 24);
  EXPECT_EQ(b.passes, 4);
  EXPECT_DOUBLE_EQ(b.degree, 1.0);
  b = m::analyze_banks(stride(2), 16);  // 8 lanes x 4 words over 64 words: 2 per bank
  EXPECT_EQ(b.passes, 8);
  EXPECT_DOUBLE_EQ(b.degree, 2.0);
  b = m::analyze_banks(column(32), 16);  // every lane in banks 0-3: 8 words per bank per phase
  EXPECT_EQ(b.passes, 32);
  EXPECT_DOUBLE_EQ(b.degree, 8.0);
}

TEST(BanksModel, RowOfTileIsConflictFree) {
  m::BankPattern p;
  p.kind = m::BankPatternKind::kRow;
  p.width = 32;
  p.row = 3;
  const auto b = m::analyze_banks(p, 4);
  EXPECT_EQ(b.indices[0], 96);
  EXPECT_EQ(b.passes, 1);
}

TEST(BanksModel, PropertiesOverRandomAccesses) {
  std::mt19937_64 rng(12345);
  for (int elem : {4, 8, 16}) {
    for (int trial = 0; trial < 500; ++trial) {
      std::array<std::int64_t, 32> idx{};
      const std::int64_t range = 1 + static_cast<std::int64_t>(rng() % 300);
      for (auto& i : idx) i = static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(range));
      const auto b = m::analyze_banks(idx, elem);
      EXPECT_GE(b.degree, 1.0);
      EXPECT_LE(b.degree, 32.0);
      EXPECT_GE(b.passes, b.min_passes);
      EXPECT_LE(b.passes, 32);
      EXPECT_GE(b.broadcast_lanes, 0);
      EXPECT_LE(b.broadcast_lanes, 32);
      int phase_sum = 0;
      for (const auto& ph : b.phases) {
        phase_sum += ph.passes;
        std::size_t words = 0;
        for (const auto& w : ph.words) words += w.size();
        EXPECT_LE(words, 32u);  // a phase never asks for more than 128 bytes
      }
      EXPECT_LE(b.passes, phase_sum);  // the whole-warp rule only ever merges phases
    }
  }
}

// ncu on the H200 (docs/ncu.md): an 8-byte broadcast is one wavefront, not one per half-warp.
TEST(BanksModel, EightByteBroadcastIsOneWavefront) {
  std::array<std::int64_t, 32> idx{};
  idx.fill(5);
  const auto b = m::analyze_banks(idx, 8);
  EXPECT_EQ(b.passes, 1);
  EXPECT_EQ(b.min_passes, 1);
  EXPECT_DOUBLE_EQ(b.degree, 1.0);
  // Stride-1 8-byte reads still need two wavefronts (64 words, 2 per bank): conflict-free.
  for (int lane = 0; lane < 32; ++lane) idx[lane] = lane;
  const auto s1 = m::analyze_banks(idx, 8);
  EXPECT_EQ(s1.passes, 2);
  EXPECT_DOUBLE_EQ(s1.degree, 1.0);
}

TEST(BanksModel, BadInputsNameTheParameter) {
  auto message = [](auto&& fn) -> std::string {
    try {
      fn();
    } catch (const memlab::UsageError& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_EQ(message([] { m::analyze_banks(stride(0), 4); }), "stride: must be >= 1 (got 0)");
  EXPECT_EQ(message([] { m::analyze_banks(stride(1), 2); }),
            "elem_size: must be 4, 8 or 16 bytes (got 2)");
  EXPECT_EQ(message([] { m::analyze_banks(stride(1), 32); }),
            "elem_size: must be 4, 8 or 16 bytes (got 32)");
  EXPECT_EQ(message([] { m::analyze_banks(column(32, 32), 4); }),
            "col: must be in [0, 31] (got 32)");
  EXPECT_EQ(message([] { m::analyze_banks(column(0), 4); }), "width: must be >= 1 (got 0)");
  EXPECT_EQ(message([] {
              std::array<std::int64_t, 32> idx{};
              idx[3] = -1;
              m::analyze_banks(idx, 4);
            }),
            "index: must be >= 0 (got -1 for lane 3)");
  EXPECT_EQ(message([] { m::parse_bank_pattern("diagonal"); }),
            "pattern: must be one of stride, column, row, broadcast (got 'diagonal')");
  m::BankPattern p;
  p.kind = m::BankPatternKind::kRow;
  p.row = -1;
  EXPECT_THROW(m::analyze_banks(p, 4), memlab::UsageError);
}
