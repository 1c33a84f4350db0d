// Shared-memory bank model: conflict degree, passes (wavefronts) and broadcasts of one warp access.
//
// Host-only. Shared memory has 32 banks of 4 bytes; 4-byte word w lives in bank w % 32. Rule used
// (documented in docs/models.md):
//   * The warp is served in phases: a 4-byte access is one phase of 32 lanes; an 8-byte access is
//     two phases (half-warps, lanes 0-15 and 16-31); a 16-byte access is four phases (quarter-warps
//     of 8 lanes). Each phase can deliver at most 32 words (128 bytes).
//   * Within a phase, lanes reading the same 4-byte word share one read (broadcast/multicast).
//     A bank delivers one distinct word per pass, so the phase needs max over banks of the number
//     of distinct words in that bank (at least 1) passes.
//   * passes = sum over phases; min_passes = number of phases; degree = passes / min_passes.
// The result is exact for the 4-byte case (ncu's shared wavefronts) and follows the documented
// half-/quarter-warp behaviour for 8- and 16-byte accesses.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace memlab::model {

inline constexpr int kBanks = 32;
inline constexpr int kBankWordBytes = 4;

enum class BankPatternKind {
  kStride,     // index = offset + lane * stride
  kColumn,     // tile[lane][col] of a row-major tile with row width `width`: lane * width + col
  kRow,        // tile[row][lane]: row * width + lane
  kBroadcast,  // every lane reads index `offset`
};

// stride, column, row, broadcast.
std::string_view to_string(BankPatternKind kind);
// Throws UsageError naming `pattern` for an unknown name.
BankPatternKind parse_bank_pattern(std::string_view name);

struct BankPattern {
  BankPatternKind kind = BankPatternKind::kStride;
  std::int64_t stride = 1;  // kStride: elements between neighbouring lanes, >= 1
  std::int64_t offset = 0;  // kStride / kBroadcast: first element index, >= 0
  std::int64_t width = 32;  // kColumn / kRow: row width of the tile in elements, >= 1
  std::int64_t col = 0;     // kColumn: column read, in [0, width)
  std::int64_t row = 0;     // kRow: row read, >= 0
};

// The element index each lane reads. Throws UsageError for out-of-range fields.
std::array<std::int64_t, 32> bank_indices(const BankPattern& pattern);

struct BankPhase {
  int first_lane = 0;  // lanes [first_lane, first_lane + lanes) form this phase
  int lanes = 32;
  int passes = 1;  // max over banks of distinct words in this phase (>= 1)
  // words[b]: the distinct 4-byte word addresses read from bank b in this phase, ascending.
  std::array<std::vector<std::int64_t>, kBanks> words;
  // lanes_of_word[b][k]: the lanes that read words[b][k] (several lanes = broadcast).
  std::array<std::vector<std::vector<int>>, kBanks> lanes_of_word;
};

struct BankAccess {
  int elem_size = 4;                     // 4, 8 or 16 bytes per lane
  std::array<std::int64_t, 32> indices;  // element index of each lane
  std::vector<BankPhase> phases;         // 1, 2 or 4 phases
  int passes = 1;                        // wavefronts: sum of phase passes
  int min_passes = 1;                    // number of phases: the conflict-free cost
  double degree = 1.0;                   // passes / min_passes, in [1, 32]
  int broadcast_lanes = 0;               // lanes sharing at least one word with another lane
                                         // of the same phase
};

// Analyse one warp access. `indices` are element indices (element size elem_size); element i
// covers 4-byte words i*elem_size/4 .. (i+1)*elem_size/4 - 1. elem_size must be 4, 8 or 16 and
// indices >= 0 (UsageError otherwise).
BankAccess analyze_banks(const std::array<std::int64_t, 32>& indices, int elem_size);
BankAccess analyze_banks(const BankPattern& pattern, int elem_size);

}  // namespace memlab::model
