// Registration of the conv1d lesson (seed 000 sections 3-4).
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/gpu_check.hpp"
#include "conv1d/kernels.cuh"
#include "conv1d/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/model/tiling.hpp"

namespace memlab::lessons::conv1d {
namespace {

using bench::Params;

constexpr double kTolerance = 1e-5;  // FP32 accumulation of <= 25 taps against double

int mask_of(const Params& p) {
  return static_cast<int>(p.n("mask"));
}

struct State {
  std::size_t n = 0;
  int k = 0;
  DeviceBuffer<float> in, mask, out, ref;
  bench::Check ref_check;  // the GPU reference against the CPU
};

void validate(const Params& p) {
  const auto k = p.n("mask");
  if (k % 2 == 0) {
    throw UsageError(fmt::format("axis mask: {} is even; accepted: odd widths 1..{}", k, kMaxMask));
  }
  if (k > kMaxMask) {
    throw UsageError(fmt::format(
        "axis mask: {} is larger than the __constant__ mask buffer ({} floats); accepted: odd "
        "widths 1..{}",
        k, kMaxMask, kMaxMask));
  }
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.k = mask_of(p);
  std::vector<float> m(static_cast<std::size_t>(st.k));
  for (std::size_t j = 0; j < m.size(); ++j) m[j] = random_uniform(seed ^ 0x3a5c, j, -1.0f, 1.0f);
  st.in = DeviceBuffer<float>(st.n);
  st.out = DeviceBuffer<float>(st.n);
  st.ref = DeviceBuffer<float>(st.n);
  st.mask = DeviceBuffer<float>(m.size());
  st.mask.copy_from_host(m.data(), m.size());
  upload_mask(m.data(), st.k);
  fill_uniform(st.in.get(), st.n, seed, -1.0f, 1.0f, nullptr);
  reference_gpu(st.in.get(), st.mask.get(), st.ref.get(), st.n, st.k, nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());

  // Anchor: the GPU reference against the CPU (double) at every output of small points, at both
  // borders and 64 random segments of large ones. Same products, same order: bit-identical
  // expected; 1e-9 leaves room for nothing but rounding of the final float.
  std::vector<float> got;
  std::vector<double> want;
  for (const Segment& sg : spot_segments(st.n, st.k, seed)) {
    const std::size_t at = got.size();
    got.resize(at + sg.count);
    want.resize(at + sg.count);
    MEMLAB_CUDA_CHECK(cudaMemcpy(got.data() + at, st.ref.get() + sg.start, sg.count * sizeof(float),
                                 cudaMemcpyDeviceToHost));
    bench::parallel_for(sg.count, [&](std::size_t b, std::size_t e) {
      for (std::size_t t = b; t < e; ++t) {
        want[at + t] = static_cast<float>(reference_at(seed, st.n, m, sg.start + t));
      }
    });
  }
  st.ref_check = bench::check_rel_l2(got.data(), want.data(), got.size(), 1e-9);
  return st;
}

bench::Check check(State& st, const Params&, const std::string&) {
  if (!st.ref_check.ok) {
    bench::Check c = st.ref_check;
    c.detail = "GPU reference disagrees with the CPU: " + c.detail;
    return c;
  }
  return compare_on_gpu(st.out.get(), st.ref.get(), st.n, kTolerance, nullptr);
}

double useful(const Params& p) {
  return 8.0 * static_cast<double>(p.n("n"));
}
double flops(const Params& p) {
  return 2.0 * mask_of(p) * static_cast<double>(p.n("n"));
}

std::optional<bench::Prediction> roofline(const Params& p) {
  bench::Prediction pr;
  pr.model = fmt::format("roofline: {:.0f} MB at the memcpy rate, {} flops per output",
                         useful(p) / 1e6, 2 * mask_of(p));
  pr.dram_bytes = useful(p);
  pr.flops = flops(p);
  return pr;
}

// Tiling figures of each design at this mask (interior tile, 4-byte floats).
void figures(Variant v, const Params& p, bench::Extras& x) {
  const int k = mask_of(p), r = k / 2;
  double input_tile = 1, halo = r, shared = 0, reuse = 1, idle = 0;
  switch (v) {
    case Variant::Naive:
    case Variant::ConstMask:
      break;  // one output per thread, no tile
    case Variant::TiledInput: {
      model::TilingParams tp;
      tp.output_tile = kTileThreads - (k - 1);
      tp.mask = k;
      tp.dims = 1;
      const model::TilingResult t = model::analyze_tiling(tp);
      input_tile = t.input_tile;
      halo = t.halo;
      shared = static_cast<double>(t.shared_bytes);
      reuse = t.reuse;
      idle = static_cast<double>(t.idle_threads);
      break;
    }
    case Variant::TiledOutput:
      input_tile = kTileThreads;  // in shared; + 2 r halo from the cache
      shared = 4.0 * kTileThreads;
      reuse = static_cast<double>(k) * kTileThreads / (kTileThreads + 2.0 * r);
      break;
    case Variant::RegisterF4: {
      const int h = (r + 3) / 4;
      input_tile = 4.0 * (2 * h + 1);  // register window per 4 outputs
      reuse = 4.0 * k / input_tile;    // taps per loaded float (L1 loads)
      break;
    }
  }
  x.figures = {{"input_tile", input_tile},
               {"halo", halo},
               {"shared_bytes", shared},
               {"reuse", reuse},
               {"idle_threads", idle}};
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "conv1d",
      "1D convolution, zero ghost cells: global/constant mask, tiles with halo, registers");
  b.bytes_convention("read the input once + write the output once: 8 bytes per element")
      .int_axis("n", {"2^28"}, {"2^26"}, 1, std::int64_t{1} << 30, "elements (floats)")
      .int_axis("mask", {"5", "25"}, {"5"}, 1, 1001,
                fmt::format("mask width K, odd, 1..{} (the __constant__ buffer)", kMaxMask))
      .test_point({{"n", "1"}, {"mask", "1"}})
      .test_point({{"n", "1"}, {"mask", "5"}})
      .test_point({{"n", "7"}, {"mask", "25"}})
      .test_point({{"n", "1000"}, {"mask", "5"}})
      .test_point({{"n", "1021"}, {"mask", "3"}})
      .test_point({{"n", "3074"}, {"mask", "13"}})
      .test_point({{"n", "100003"}, {"mask", "25"}})
      .test_point({{"n", "1048579"}, {"mask", "5"}})
      .test_point({{"n", "262147"}, {"mask", "9"}})
      .bytes(useful)
      .flops(flops)
      .footprint([](const Params& p) { return 12.0 * static_cast<double>(p.n("n")); })
      .validate(validate)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check);
  // For learners' kernels (memlab exercise): input, mask (global copy), output, sizes.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("in", "const float*", st.in.get(), st.in.bytes()),
        bench::kernel_arg("mask", "const float*", st.mask.get(), st.mask.bytes()),
        bench::kernel_arg("out", "float*", st.out.get(), st.out.bytes()),
        bench::kernel_arg("n", "int", static_cast<int>(st.n)), bench::kernel_arg("k", "int", st.k)};
  });
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description,
              [id](State& st, const Params&, cudaStream_t s) {
                launch(id, st.in.get(), st.mask.get(), st.out.get(), st.n, st.k, s);
              })
        .predict(roofline)
        .inspect([id](State&, const Params& p, bench::Extras& x) { figures(id, p, x); });
  }
  b.baseline(variant_name(kVariants, Variant::Naive));
  b.plot({.id = "gflops",
          .kind = bench::PlotKind::Ladder,
          .title = "GFLOP/s per variant",
          .x = {"variant", false, ""},
          .y = {"gflops", false, "GFLOP/s"},
          .facet = "mask",
          .references = {"baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::conv1d
