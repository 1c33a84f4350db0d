// What the lessons beyond one GPU (p2p, collectives) say and check when this machine has fewer
// GPUs than they need: the same reason in the plan (their only_if), in the run and in the GPU
// test (bench::SkipPoint from their setup, before any cudaSetDevice on an ordinal that is not
// there), and in the web lab.
#pragma once

#include <fmt/format.h>

#include <initializer_list>
#include <string>

#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/device.hpp"

namespace memlab::lessons {

// The start of every such skip reason ("skipped: needs two or more GPUs ...").
inline constexpr const char* kNeedsTwoGpus = "needs two or more GPUs";

// The reason a point that uses GPUs `ordinals` cannot run on a process that sees `count` GPUs;
// empty when it can. Host-only arithmetic (tests/host/test_multigpu_skip.cpp).
inline std::string missing_gpus(int count, std::initializer_list<int> ordinals) {
  if (count < 2) return fmt::format("{} (this process sees {})", kNeedsTwoGpus, count);
  for (const int d : ordinals) {
    if (d < 0 || d >= count) {
      return fmt::format("{}: GPU {} does not exist (this process sees GPUs 0..{})", kNeedsTwoGpus,
                         d, count - 1);
    }
  }
  return {};
}

// Throws bench::SkipPoint with missing_gpus' reason; asks only cudaGetDeviceCount.
inline void require_gpus(std::initializer_list<int> ordinals) {
  const std::string why = missing_gpus(device_count_or_zero(), ordinals);
  if (!why.empty()) throw bench::SkipPoint(why);
}

}  // namespace memlab::lessons
