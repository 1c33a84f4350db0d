// The graphs lesson's launch-overhead model (host-only): per-kernel costs in microseconds. The
// constants are leads from NVIDIA's documentation and common measurements on recent drivers; the
// lesson's figures measure them (docs/graphs.md compares).
#pragma once

#include <algorithm>

namespace memlab::lessons::graphs {

inline constexpr double kHostLaunchUs = 2.0;    // host cost of one cudaLaunchKernel
inline constexpr double kGapStreamUs = 1.0;     // GPU gap between dependent kernels in a stream
inline constexpr double kGapGraphUs = 0.6;      // the same gap between kernel nodes of a graph
inline constexpr double kGraphLaunchUs = 4.0;   // one cudaGraphLaunch (host + first node start)
inline constexpr double kHostCopyCallUs = 2.5;  // host cost of one cudaMemcpyAsync

// A chain of `kernels` dependent kernels each `work_us` long.
inline double chain_stream_us(int kernels, double work_us) {
  return kernels * std::max(kHostLaunchUs, work_us + kGapStreamUs);
}
inline double chain_graph_us(int kernels, double work_us) {
  return kGraphLaunchUs + kernels * (work_us + kGapGraphUs);
}
inline double chain_fused_us(int kernels, double work_us) {
  return kHostLaunchUs + kernels * work_us;
}
// Below this kernel length the stream chain is host-bound (the launch calls set its pace).
inline double chain_breakeven_us() {
  return kHostLaunchUs - kGapStreamUs;
}

}  // namespace memlab::lessons::graphs
