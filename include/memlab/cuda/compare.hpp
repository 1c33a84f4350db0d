// Compares a buffer on the GPU with a reference copy of it, without copying either back: what
// the exercise harness runs after every timed launch of a learner's kernel (issue 21, hole 4),
// so a kernel that skips its work after a few launches cannot keep an earlier correct output.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab {

enum class CompareAs {
  Float,  // the same bits (an untouched poison pattern), or |got - want| <= 1e-3 * max(1, |want|)
  Word,   // 4-byte words, exact
  Byte,   // bytes, exact
};

// Adds the number of elements of `got` that differ from `want` (`bytes` each) to `*mismatches`
// (a device counter). Enqueued on `stream`; no synchronisation.
void count_mismatches(const void* got, const void* want, std::size_t bytes, CompareAs as,
                      unsigned long long* mismatches, cudaStream_t stream);

}  // namespace memlab
