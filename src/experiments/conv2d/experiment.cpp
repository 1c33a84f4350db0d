// Registration of the conv2d lesson (seed 000 sections 3-4).
#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

#include "common/gpu_check.hpp"
#include "common/hopper.hpp"
#include "conv2d/kernels.cuh"
#include "conv2d/kernels_hopper.cuh"
#include "conv2d/kernels_ring.cuh"
#include "conv2d/kernels_strip.cuh"
#include "conv2d/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/model/tiling.hpp"

namespace memlab::lessons::conv2d {
namespace {

using bench::Params;

// FP32 accumulation of up to 225 products against a double reference: the relative L2 error is
// ~1e-7 (measured at the test points); 1e-5 holds for every mask here.
constexpr double kTolerance = 1e-5;

int mask_of(const Params& p) {
  return static_cast<int>(p.n("mask"));
}
bool separable_of(const Params& p) {
  return p.s("separable") == "yes";
}
double pixels(const Params& p) {
  return static_cast<double>(p.n("height")) * static_cast<double>(p.n("width"));
}

struct State {
  int height = 0, width = 0, k = 0;
  DeviceBuffer<float> in, mask, out, ref, tmp;
  bench::Check ref_check;
  Image image() const { return Image{in.get(), out.get(), height, width, k}; }
};

void validate(const Params& p) {
  const auto k = p.n("mask");
  if (k % 2 == 0) {
    throw UsageError(fmt::format("axis mask: {} is even; accepted: odd widths 1..{}", k, kMaxMask));
  }
  if (k > kMaxMask) {
    throw UsageError(fmt::format(
        "axis mask: {} is larger than the __constant__ mask buffer ({}x{} floats); accepted: odd "
        "widths 1..{}",
        k, kMaxMask, kMaxMask, kMaxMask));
  }
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.height = static_cast<int>(p.n("height"));
  st.width = static_cast<int>(p.n("width"));
  st.k = mask_of(p);
  const auto kk = static_cast<std::size_t>(st.k);
  const std::size_t n = static_cast<std::size_t>(st.height) * static_cast<std::size_t>(st.width);
  std::vector<float> m(kk * kk), row(kk), col(kk);
  for (std::size_t j = 0; j < kk; ++j) {
    row[j] = random_uniform(seed ^ 0x51, j, -1.0f, 1.0f);
    col[j] = random_uniform(seed ^ 0x52, j, -1.0f, 1.0f);
  }
  for (std::size_t i = 0; i < kk; ++i) {
    for (std::size_t j = 0; j < kk; ++j) {
      m[i * kk + j] = separable_of(p) ? col[i] * row[j]
                                      : random_uniform(seed ^ 0x3a5c, i * kk + j, -1.0f, 1.0f);
    }
  }
  st.in = DeviceBuffer<float>(n);
  st.out = DeviceBuffer<float>(n);
  st.ref = DeviceBuffer<float>(n);
  if (separable_of(p)) st.tmp = DeviceBuffer<float>(n);
  st.mask = DeviceBuffer<float>(m.size());
  st.mask.copy_from_host(m.data(), m.size());
  upload_mask(m.data(), row.data(), col.data(), st.k);
  fill_uniform(st.in.get(), n, seed, -1.0f, 1.0f, nullptr);
  reference_gpu(Image{st.in.get(), st.ref.get(), st.height, st.width, st.k}, st.mask.get(),
                nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());

  // Anchor: the GPU reference against the CPU (double, same products in the same order) on every
  // row of small points, on the K border rows at each side and 24 random rows of large ones.
  const std::vector<int> rows = spot_rows(st.height, st.width, st.k, seed);
  const auto w = static_cast<std::size_t>(st.width);
  std::vector<float> got(rows.size() * w), want(rows.size() * w);
  for (std::size_t t = 0; t < rows.size(); ++t) {
    MEMLAB_CUDA_CHECK(cudaMemcpy(got.data() + t * w,
                                 st.ref.get() + static_cast<std::size_t>(rows[t]) * w,
                                 w * sizeof(float), cudaMemcpyDeviceToHost));
  }
  bench::parallel_for(rows.size(), [&](std::size_t b, std::size_t e) {
    for (std::size_t t = b; t < e; ++t) {
      reference_row(seed, st.height, st.width, m, st.k, rows[t], want.data() + t * w);
    }
  });
  st.ref_check = bench::check_rel_l2(got.data(), want.data(), got.size(), 1e-9);
  return st;
}

bench::Check check(State& st, const Params&, const std::string&) {
  if (!st.ref_check.ok) {
    bench::Check c = st.ref_check;
    c.detail = "GPU reference disagrees with the CPU: " + c.detail;
    return c;
  }
  const std::size_t n = static_cast<std::size_t>(st.height) * static_cast<std::size_t>(st.width);
  return compare_on_gpu(st.out.get(), st.ref.get(), n, kTolerance, nullptr);
}

double useful(const Params& p) {
  return 8.0 * pixels(p);
}
double flops(const Params& p) {
  return 2.0 * mask_of(p) * mask_of(p) * pixels(p);
}

std::optional<bench::Prediction> roofline(const Params& p) {
  bench::Prediction pr;
  pr.model = fmt::format("roofline: {:.0f} MB at the memcpy rate, 2 K^2 = {} flops per pixel",
                         useful(p) / 1e6, 2 * mask_of(p) * mask_of(p));
  pr.dram_bytes = useful(p);
  pr.flops = flops(p);
  return pr;
}

std::optional<bench::Prediction> separable_model(const Params& p) {
  bench::Prediction pr;
  pr.model = fmt::format(
      "two passes: 2 x {:.0f} MB (the intermediate is written and read), 4 K "
      "= {} flops per pixel",
      useful(p) / 1e6, 4 * mask_of(p));
  pr.dram_bytes = 2.0 * useful(p);
  pr.flops = 4.0 * mask_of(p) * pixels(p);
  return pr;
}

void figures(Variant v, const Params& p, bench::Extras& x) {
  const int k = mask_of(p), r = k / 2;
  double input_tile = 1, shared = 0, reuse = 1, idle = 0;
  switch (v) {
    case Variant::Naive:
    case Variant::ConstMask:
      break;  // one output per thread, no tile
    case Variant::TiledInput: {
      model::TilingParams tp;
      tp.output_tile = 33 - k;
      tp.mask = k;
      tp.dims = 2;
      const model::TilingResult t = model::analyze_tiling(tp);
      input_tile = t.input_tile;
      shared = static_cast<double>(t.shared_bytes);
      reuse = t.reuse;
      idle = static_cast<double>(t.idle_threads);
      break;
    }
    case Variant::TiledOutput:
      input_tile = 32;  // 32 x 16 in shared; the halo ring from the cache
      shared = 4.0 * 32 * 16;
      reuse = static_cast<double>(k) * k * 512.0 / ((32.0 + 2 * r) * (16.0 + 2 * r));
      break;
    case Variant::Register:
    case Variant::RegisterRowloop:
    case Variant::RegisterTaps:
    case Variant::RegisterTaps2:
    case Variant::RegisterPrefetch:
    case Variant::RegisterDeep:
    case Variant::RegisterDeep3:
    case Variant::RegisterDeep12:
    case Variant::RegisterDeepL2p: {
      const int h = (r + 3) / 4;
      const bool streamed = v == Variant::Register || v == Variant::RegisterPrefetch ||
                            v == Variant::RegisterDeep || v == Variant::RegisterDeep3 ||
                            v == Variant::RegisterDeepL2p;
      const bool taps = v == Variant::RegisterTaps || v == Variant::RegisterTaps2;
      const int rows = streamed                       ? register_rows(k)
                       : v == Variant::RegisterDeep12 ? register_deep12_rows()
                       : v == Variant::RegisterTaps   ? 3
                       : v == Variant::RegisterTaps2  ? 2
                                                      : 4;
      // register_taps: 8 columns per thread on the 16-byte path (width % 4 == 0), else 4.
      const int cols = taps && p.n("width") % 4 == 0 ? 8 : 4;
      input_tile = cols + 8.0 * h;  // register window width per row, R + K - 1 rows
      reuse = static_cast<double>(k) * k * cols * rows / (input_tile * (rows + k - 1));
      break;
    }
    case Variant::RegisterStrip:
    case Variant::RegisterStripLd:
    case Variant::RegisterStripWide:
    case Variant::RegisterDeepShfl: {
      const int h = (r + 3) / 4;
      // register_deep_shfl: register_deep's R (8 at K <= 5); the strips 16.
      const int rows = v == Variant::RegisterDeepShfl ? register_rows(k) : kStripRowsPerThread;
      // Loaded floats per thread and input row: the shuffle kernels' own float4 plus its share of
      // the two edge lanes' float2s (4 floats per warp); the window of 4 + 8h floats otherwise
      // (and on the 4-byte fallback of all four).
      const bool shfl = v != Variant::RegisterStripLd && p.n("width") % 4 == 0;
      input_tile = shfl ? 4.0 + (r > 0 ? 4.0 / 32.0 : 0.0) : 4.0 + 8.0 * h;
      reuse = static_cast<double>(k) * k * 4.0 * rows / (input_tile * (rows + k - 1));
      break;
    }
    case Variant::SmemRing:
    case Variant::SmemRingWave: {
      // A ring row is the 256-column strip plus a 16-byte chunk each side, band + K - 1 of them
      // per band; width % 4 != 0 runs register_deep's kernel (its window, R = 8).
      const bool ring = p.n("width") % 4 == 0;
      const int h = (r + 3) / 4;
      const int rows = !ring ? register_rows(k)
                       : v == Variant::SmemRing
                           ? kRingBand
                           : ring_band(Image{nullptr, nullptr, static_cast<int>(p.n("height")),
                                             static_cast<int>(p.n("width")), k},
                                       true);
      const int cols = ring ? kRingCols : 4;
      input_tile = ring ? kRingRowBytes / 4.0 : 4.0 + 8.0 * h;
      shared = ring ? static_cast<double>(kRingSlots) * kRingRowBytes : 0.0;
      reuse = static_cast<double>(k) * k * cols * rows / (input_tile * (rows + k - 1));
      break;
    }
    case Variant::Tma:
    case Variant::Cluster: {
      const int tw = hopper_tile_cols(k);  // 64 x (32 + 2r) loaded per tw x 32 outputs
      input_tile = kHopperBoxCols;
      shared = 4.0 * kHopperBoxCols * (32 + 2 * r);
      reuse = static_cast<double>(k) * k * tw * 32.0 / (kHopperBoxCols * (32.0 + 2 * r));
      idle = 4.0 * (kHopperBoxCols - tw);  // columns tw .. 63 of each of the 4 row groups wait
      break;
    }
    case Variant::Separable:
      input_tile = 0;
      reuse = k / 2.0;  // K^2 / 2K: flops saved
      break;
  }
  x.figures = {{"input_tile", input_tile},
               {"halo", r},
               {"shared_bytes", shared},
               {"reuse", reuse},
               {"idle_threads", idle}};
}

void add(bench::ExperimentBuilder<State>& b, const VariantInfo<Variant>& info) {
  const Variant v = info.id;
  b.variant(info.name, info.description, [v](State& st, const Params&, cudaStream_t s) {
     launch(v, st.image(), st.mask.get(), st.tmp.get(), s);
   }).inspect([v](State&, const Params& p, bench::Extras& x) { figures(v, p, x); });
  switch (v) {
    case Variant::Naive:
    case Variant::ConstMask:
    case Variant::TiledInput:
    case Variant::TiledOutput:
    case Variant::Register:  // the random K x K mask (separable=no) only
      b.predict(roofline).variant_axis("separable", {"no"},
                                       "runs the random K x K mask: separable=no only");
      break;
    case Variant::RegisterRowloop:  // the random K x K mask, K >= 7
    case Variant::RegisterTaps:
    case Variant::RegisterTaps2:
      b.predict(roofline)
          .variant_axis("separable", {"no"})
          .only_if(
              [](const Params& p) { return mask_of(p) >= 7; },
              "separable=no, mask >= 7: below that the rows are few and register's fully "
              "unrolled body fits the instruction cache (stream_kernel, near memcpy at K = 5)");
      break;
    case Variant::RegisterPrefetch:  // the random K x K mask, K <= 5 (register's stream_kernel)
    case Variant::RegisterDeep:
    case Variant::RegisterDeep3:
    case Variant::RegisterDeep12:
    case Variant::RegisterDeepShfl:
    case Variant::RegisterDeepL2p:
    case Variant::RegisterStrip:
    case Variant::RegisterStripLd:
    case Variant::RegisterStripWide:
    case Variant::SmemRing:
    case Variant::SmemRingWave:
      b.predict(roofline)
          .variant_axis("separable", {"no"})
          .only_if([](const Params& p) { return mask_of(p) <= 5; },
                   "separable=no, mask <= 5: the streamed kernel of register, memory bound there");
      break;
    case Variant::Separable:  // the col x row mask only, 2 K instead of K^2 FMAs per pixel
      b.predict(separable_model)
          .variant_axis("separable", {"yes"}, "needs a col x row mask: separable=yes only")
          .variant_flops([](const Params& p) { return 4.0 * mask_of(p) * pixels(p); });
      break;
    case Variant::Tma:
    case Variant::Cluster:  // the random K x K mask; TMA rows need 16-byte strides
      b.predict(roofline)
          .variant_axis("separable", {"no"})
          .only_if([](const Params& p) { return p.n("width") % 4 == 0; },
                   "TMA tiles: separable=no, width a multiple of 4 (16-byte row strides)")
          .needs_device([](const Params&) { return hopper::sm90_or_no_device(); },
                        hopper::kNeedsSm90);
      break;
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "conv2d", "2D convolution, zero ghost cells: constant mask, tiles with halo, registers");
  b.bytes_convention("read the image once + write the output once: 8 bytes per pixel")
      .int_axis("height", {"16384"}, {"8192"}, 1, 32768, "image rows")
      .int_axis("width", {"16384"}, {"8192"}, 1, 32768, "image columns (floats)")
      .int_axis("mask", {"5", "15"}, {"5"}, 1, 1001,
                fmt::format("mask width K, odd, 1..{} (the __constant__ buffer)", kMaxMask))
      .choice_axis("separable", {"no", "yes"}, {"no", "yes"}, {"yes"},
                   "random K x K mask (every variant but separable), or col x row (the separable "
                   "variant only)")
      // Every variant but `separable` runs at separable=no only (the same work at both values);
      // `separable` only at separable=yes. Each point below exists once per group.
      .test_point({{"height", "1"}, {"width", "1"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "1"}, {"width", "7"}, {"mask", "3"}, {"separable", "no"}})
      .test_point({{"height", "3"}, {"width", "4"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "33"}, {"width", "65"}, {"mask", "15"}, {"separable", "no"}})
      .test_point({{"height", "37"}, {"width", "260"}, {"mask", "7"}, {"separable", "no"}})
      .test_point({{"height", "37"}, {"width", "260"}, {"mask", "3"}, {"separable", "no"}})
      .test_point({{"height", "1000"}, {"width", "999"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "1001"}, {"width", "1028"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "517"}, {"width", "1028"}, {"mask", "15"}, {"separable", "no"}})
      .test_point({{"height", "129"}, {"width", "516"}, {"mask", "1"}, {"separable", "no"}})
      // register_strip's 128 x 128 block tile: a width that is a multiple of it (lane 31 of the
      // last warp at the image edge) and one with 2 live lanes in the last warp; heights that end
      // 12 and 6 rows into a warp's 16-row strip.
      .test_point({{"height", "300"}, {"width", "384"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "150"}, {"width", "136"}, {"mask", "3"}, {"separable", "no"}})
      // register_deep_shfl's 128 x 64 block tile: 31 live lanes in the last warp (lane 30 the
      // last column group, lane 31 inside the warp holding zeros and loading no edge float2),
      // heights that end 5 and 6 rows into a warp's 8-row strip of the last block row.
      .test_point({{"height", "77"}, {"width", "252"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "70"}, {"width", "1020"}, {"mask", "3"}, {"separable", "no"}})
      // smem_ring's 256 x 64 block tile exactly (the last strip's right halo chunk at the width).
      .test_point({{"height", "128"}, {"width", "512"}, {"mask", "5"}, {"separable", "no"}})
      .test_point({{"height", "300"}, {"width", "4"}, {"mask", "9"}, {"separable", "no"}})
      .test_point({{"height", "130"}, {"width", "200"}, {"mask", "9"}, {"separable", "no"}})
      .test_point({{"height", "70"}, {"width", "132"}, {"mask", "13"}, {"separable", "no"}})
      .test_point({{"height", "45"}, {"width", "70"}, {"mask", "11"}, {"separable", "no"}})
      // register_taps' interior kernel (blocks whose windows lie inside the image) beside its
      // edge kernel: 16-byte path at K = 7, 13 and 4-byte path at K = 11, 15 (K % 3 = 1, 1, 2, 0
      // peeled mask rows), none a multiple of its 256 x 24 (or 128 x 24) block tile.
      .test_point({{"height", "101"}, {"width", "780"}, {"mask", "7"}, {"separable", "no"}})
      .test_point({{"height", "90"}, {"width", "1100"}, {"mask", "13"}, {"separable", "no"}})
      .test_point({{"height", "80"}, {"width", "650"}, {"mask", "11"}, {"separable", "no"}})
      .test_point({{"height", "100"}, {"width", "901"}, {"mask", "15"}, {"separable", "no"}})
      .test_point({{"height", "1"}, {"width", "7"}, {"mask", "3"}, {"separable", "yes"}})
      .test_point({{"height", "33"}, {"width", "65"}, {"mask", "5"}, {"separable", "yes"}})
      .test_point({{"height", "37"}, {"width", "260"}, {"mask", "7"}, {"separable", "yes"}})
      .test_point({{"height", "1000"}, {"width", "999"}, {"mask", "15"}, {"separable", "yes"}})
      .test_point({{"height", "129"}, {"width", "516"}, {"mask", "1"}, {"separable", "yes"}})
      .test_point({{"height", "300"}, {"width", "4"}, {"mask", "9"}, {"separable", "yes"}})
      .bytes(useful)
      .flops(flops)
      .footprint([](const Params& p) { return (separable_of(p) ? 16.0 : 12.0) * pixels(p); })
      .validate(validate)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        st.out.fill_bytes(0xFF, s);
        st.tmp.fill_bytes(0xFF, s);
      })
      .check(check);
  // For learners' kernels (memlab exercise): image, mask (global copy, K x K), output, sizes.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("in", "const float*", st.in.get(), st.in.bytes()),
        bench::kernel_arg("mask", "const float*", st.mask.get(), st.mask.bytes()),
        bench::kernel_arg("out", "float*", st.out.get(), st.out.bytes()),
        bench::kernel_arg("height", "int", st.height),
        bench::kernel_arg("width", "int", st.width),
        bench::kernel_arg("k", "int", st.k)};
  });
  for (const VariantInfo<Variant>& v : kVariants) add(b, v);
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
}  // namespace memlab::lessons::conv2d
