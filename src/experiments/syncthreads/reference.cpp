#include "syncthreads/reference.hpp"

#include "memlab/bench/parallel.hpp"

namespace memlab::lessons::syncthreads {

std::vector<std::int32_t> rotate_reference(Variant v, const std::vector<std::int32_t>& in,
                                           unsigned block, std::uint32_t iters) {
  std::vector<std::int32_t> out(in.size());
  for (std::size_t g = 0; g < in.size(); ++g) {
    const std::size_t base = g - g % block;
    const auto t = static_cast<unsigned>(g % block);
    unsigned src = t;
    if (v == Variant::RotateBlock) src = static_cast<unsigned>((t + iters) % block);
    if (v == Variant::RotateWarp) src = (t & ~31u) | ((t + iters) & 31u);
    out[g] = in[base + src];
  }
  return out;
}

std::vector<float> matmul_reference(const std::vector<float>& a, const std::vector<float>& b,
                                    int n) {
  const auto un = static_cast<std::size_t>(n);
  std::vector<float> c(un * un);
  bench::parallel_for(un, [&](std::size_t begin, std::size_t end) {
    std::vector<double> row(un);
    for (std::size_t i = begin; i < end; ++i) {
      std::fill(row.begin(), row.end(), 0.0);
      for (std::size_t k = 0; k < un; ++k) {
        const double x = a[i * un + k];
        for (std::size_t j = 0; j < un; ++j) row[j] += x * b[k * un + j];
      }
      for (std::size_t j = 0; j < un; ++j) c[i * un + j] = static_cast<float>(row[j]);
    }
  });
  return c;
}

}  // namespace memlab::lessons::syncthreads
