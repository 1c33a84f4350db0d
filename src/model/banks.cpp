// Shared-memory bank model: see include/memlab/model/banks.hpp and docs/models.md.
#include "memlab/model/banks.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <map>

#include "memlab/common/error.hpp"

namespace memlab::model {

std::string_view to_string(BankPatternKind kind) {
  switch (kind) {
    case BankPatternKind::kStride:
      return "stride";
    case BankPatternKind::kColumn:
      return "column";
    case BankPatternKind::kRow:
      return "row";
    case BankPatternKind::kBroadcast:
      return "broadcast";
  }
  return "unknown";
}

BankPatternKind parse_bank_pattern(std::string_view name) {
  for (auto kind : {BankPatternKind::kStride, BankPatternKind::kColumn, BankPatternKind::kRow,
                    BankPatternKind::kBroadcast}) {
    if (to_string(kind) == name) return kind;
  }
  throw UsageError(
      fmt::format("pattern: must be one of stride, column, row, broadcast (got '{}')", name));
}

std::array<std::int64_t, 32> bank_indices(const BankPattern& p) {
  std::array<std::int64_t, 32> idx{};
  switch (p.kind) {
    case BankPatternKind::kStride:
      if (p.stride < 1) throw UsageError(fmt::format("stride: must be >= 1 (got {})", p.stride));
      if (p.offset < 0) throw UsageError(fmt::format("offset: must be >= 0 (got {})", p.offset));
      for (int lane = 0; lane < 32; ++lane) idx[lane] = p.offset + lane * p.stride;
      break;
    case BankPatternKind::kColumn:
      if (p.width < 1) throw UsageError(fmt::format("width: must be >= 1 (got {})", p.width));
      if (p.col < 0 || p.col >= p.width) {
        throw UsageError(fmt::format("col: must be in [0, {}] (got {})", p.width - 1, p.col));
      }
      for (int lane = 0; lane < 32; ++lane) idx[lane] = lane * p.width + p.col;
      break;
    case BankPatternKind::kRow:
      if (p.width < 1) throw UsageError(fmt::format("width: must be >= 1 (got {})", p.width));
      if (p.row < 0) throw UsageError(fmt::format("row: must be >= 0 (got {})", p.row));
      for (int lane = 0; lane < 32; ++lane) idx[lane] = p.row * p.width + lane;
      break;
    case BankPatternKind::kBroadcast:
      if (p.offset < 0) throw UsageError(fmt::format("offset: must be >= 0 (got {})", p.offset));
      idx.fill(p.offset);
      break;
  }
  return idx;
}

BankAccess analyze_banks(const std::array<std::int64_t, 32>& indices, int elem_size) {
  if (elem_size != 4 && elem_size != 8 && elem_size != 16) {
    throw UsageError(fmt::format("elem_size: must be 4, 8 or 16 bytes (got {})", elem_size));
  }
  for (int lane = 0; lane < 32; ++lane) {
    if (indices[lane] < 0) {
      throw UsageError(
          fmt::format("index: must be >= 0 (got {} for lane {})", indices[lane], lane));
    }
  }
  BankAccess result;
  result.elem_size = elem_size;
  result.indices = indices;
  const int words_per_elem = elem_size / kBankWordBytes;
  const int phases = words_per_elem;  // 1, 2 or 4
  const int lanes_per_phase = 32 / phases;
  result.passes = 0;
  result.min_passes = phases;
  for (int ph = 0; ph < phases; ++ph) {
    BankPhase phase;
    phase.first_lane = ph * lanes_per_phase;
    phase.lanes = lanes_per_phase;
    // word -> lanes reading it, in ascending word order.
    std::map<std::int64_t, std::vector<int>> readers;
    for (int lane = phase.first_lane; lane < phase.first_lane + lanes_per_phase; ++lane) {
      for (int w = 0; w < words_per_elem; ++w) {
        readers[indices[lane] * words_per_elem + w].push_back(lane);
      }
    }
    std::vector<bool> shares(32, false);
    for (auto& [word, lanes] : readers) {
      lanes.erase(std::unique(lanes.begin(), lanes.end()), lanes.end());
      const auto bank = static_cast<std::size_t>(word % kBanks);
      phase.words[bank].push_back(word);
      phase.lanes_of_word[bank].push_back(lanes);
      if (lanes.size() > 1) {
        for (int lane : lanes) shares[lane] = true;
      }
    }
    phase.passes = 1;
    for (const auto& words : phase.words) {
      phase.passes = std::max(phase.passes, static_cast<int>(words.size()));
    }
    result.broadcast_lanes += static_cast<int>(std::count(shares.begin(), shares.end(), true));
    result.passes += phase.passes;
    result.phases.push_back(std::move(phase));
  }
  // The hardware does better than the phase split whenever the whole warp's distinct words fit
  // in fewer passes: ncu on the H200 (docs/ncu.md) counts, for 8-byte accesses, exactly the
  // largest number of distinct words any bank holds across the whole warp (an 8-byte broadcast
  // is 1 wavefront, not 2). The minimum is ceil(distinct words / 32).
  std::map<std::int64_t, int> per_bank;
  std::vector<std::int64_t> all_words;
  for (int lane = 0; lane < 32; ++lane) {
    for (int w = 0; w < words_per_elem; ++w)
      all_words.push_back(indices[lane] * words_per_elem + w);
  }
  std::sort(all_words.begin(), all_words.end());
  all_words.erase(std::unique(all_words.begin(), all_words.end()), all_words.end());
  int warp_passes = 1;
  for (std::int64_t word : all_words)
    warp_passes = std::max(warp_passes, ++per_bank[word % kBanks]);
  result.passes = std::min(result.passes, warp_passes);
  result.min_passes = static_cast<int>((all_words.size() + kBanks - 1) / kBanks);
  result.degree = static_cast<double>(result.passes) / result.min_passes;
  return result;
}

BankAccess analyze_banks(const BankPattern& pattern, int elem_size) {
  const auto indices = bank_indices(pattern);
  return analyze_banks(indices, elem_size);
}

}  // namespace memlab::model
