#pragma once

#include <cstdint>
#include <vector>

#include "bank_conflicts/kernels.cuh"

namespace memlab::lessons::bank_conflicts {

// The shared region's initial words as the host draws them (random_u64(seed, i), truncated to
// the word size); the same values are uploaded as the kernel's input.
std::vector<std::uint64_t> region_values(std::uint64_t seed, std::int64_t region, int word);

// Expected output of one block. Read: per thread iters * x[e] (wrapping at the word size);
// write: the region after the loop.
std::vector<std::uint64_t> expected_block(const std::vector<std::uint64_t>& x, const Layout& layout,
                                          int word, bool write, int iters);

}  // namespace memlab::lessons::bank_conflicts
