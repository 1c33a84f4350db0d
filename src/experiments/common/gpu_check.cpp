#include "common/gpu_check.hpp"

#include <fmt/format.h>

#include <cmath>
#include <vector>

#include "common/gpu_check_kernels.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons {

bench::Check compare_on_gpu(const float* got, const float* want, std::size_t n, double tolerance,
                            cudaStream_t stream) {
  const RelL2Sums s = rel_l2_sums(got, want, n, stream);
  bench::Check c;
  c.error = s.want2 > 0 ? std::sqrt(s.diff2 / s.want2) : std::sqrt(s.diff2);
  c.ok = s.nonfinite == 0 && c.error <= tolerance;
  if (c.ok) return c;
  // Failed: copy both back (rare) for the usual list of mismatches.
  std::vector<float> g(n), w(n);
  MEMLAB_CUDA_CHECK(cudaMemcpy(g.data(), got, n * sizeof(float), cudaMemcpyDeviceToHost));
  MEMLAB_CUDA_CHECK(cudaMemcpy(w.data(), want, n * sizeof(float), cudaMemcpyDeviceToHost));
  bench::Check detailed = bench::check_rel_l2(g.data(), w.data(), n, tolerance);
  detailed.ok = false;
  if (detailed.detail.empty()) {
    detailed.detail = fmt::format("relative L2 error {:.3g} > {:.3g}", c.error, tolerance);
  }
  return detailed;
}

}  // namespace memlab::lessons
