// Registration of the syncthreads lesson: barrier cost against the block size, and a tiled kernel
// without its barriers as an expected failure that verification catches.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "syncthreads/kernels.cuh"
#include "syncthreads/reference.hpp"

namespace memlab::lessons::syncthreads {
namespace {

using bench::Params;

Variant variant_of(const std::string& name) {
  for (const auto& info : kVariants) {
    if (name == info.name) return info.id;
  }
  throw std::logic_error("syncthreads: unknown variant " + name);
}

bool is_matmul(Variant v) {
  return v == Variant::TiledSync || v == Variant::TiledNoSync;
}

struct State {
  unsigned block = 0;
  std::uint32_t iters = 0;
  int n = 0;
  std::vector<std::int32_t> in;
  std::vector<float> a, b;
  DeviceBuffer<std::int32_t> in_d, out_d;
  DeviceBuffer<float> a_d, b_d, c_d;
  DeviceBuffer<unsigned long long> cycles;
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.block = static_cast<unsigned>(p.n("block"));
  st.iters = static_cast<std::uint32_t>(p.n("iters"));
  st.n = static_cast<int>(p.n("n"));
  const std::size_t total = std::size_t{kBlocks} * st.block;
  st.in.resize(total);
  for (std::size_t i = 0; i < total; ++i) st.in[i] = static_cast<std::int32_t>(random_u64(seed, i));
  st.in_d = DeviceBuffer<std::int32_t>(total);
  st.out_d = DeviceBuffer<std::int32_t>(total);
  st.in_d.copy_from_host(st.in.data(), total);
  st.cycles = DeviceBuffer<unsigned long long>(1);
  if (st.block == kTile * kTile) {
    const auto nn = static_cast<std::size_t>(st.n) * static_cast<std::size_t>(st.n);
    st.a.resize(nn);
    st.b.resize(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      st.a[i] = static_cast<float>(static_cast<int>(random_u64(seed + 1, i) % 9) - 4);
      st.b[i] = static_cast<float>(static_cast<int>(random_u64(seed + 2, i) % 9) - 4);
    }
    st.a_d = DeviceBuffer<float>(nn);
    st.b_d = DeviceBuffer<float>(nn);
    st.c_d = DeviceBuffer<float>(nn);
    st.a_d.copy_from_host(st.a.data(), nn);
    st.b_d.copy_from_host(st.b.data(), nn);
  }
  return st;
}

void run(State& st, Variant v, cudaStream_t s) {
  if (is_matmul(v)) {
    launch_matmul(v, MatmulArgs{st.a_d.get(), st.b_d.get(), st.c_d.get(), st.n}, s);
  } else {
    launch_rotate(v, RotateArgs{st.in_d.get(), st.out_d.get(), st.block, st.iters, st.cycles.get()},
                  s);
  }
}

bench::Check check(State& st, const Params&, const std::string& name) {
  const Variant v = variant_of(name);
  if (is_matmul(v)) {
    std::vector<float> got(st.c_d.size());
    st.c_d.copy_to_host(got.data(), got.size());
    const std::vector<float> want = matmul_reference(st.a, st.b, st.n);
    return bench::check_exact(got.data(), want.data(), got.size());
  }
  std::vector<std::int32_t> got(st.out_d.size());
  st.out_d.copy_to_host(got.data(), got.size());
  const std::vector<std::int32_t> want = rotate_reference(v, st.in, st.block, st.iters);
  return bench::check_exact(got.data(), want.data(), got.size());
}

void validate(const Params& p) {
  const std::int64_t block = p.n("block");
  if (block % 32 != 0) {
    throw UsageError(fmt::format("axis block: {} is not a multiple of 32 (whole warps)", block));
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "syncthreads", "Block barrier cost vs block size; a tiled kernel without its barriers");
  b.bytes_convention("rotations: none (cycles per step); matmul: A and B read once, C written once")
      .int_axis("block", {"64", "128", "256", "512", "1024"}, {"128", "256", "1024"}, 32, 1024,
                "threads per block (the tiled matmul runs at block=256 only)")
      .int_axis("iters", {"4096"}, {"1024"}, 1, 1 << 20, "barrier steps per kernel")
      .int_axis("n", {"1024"}, {"512"}, 1, 8192, "matrix size of the tiled matmul (block=256)")
      .test_point({{"block", "256"}, {"iters", "37"}, {"n", "77"}})
      .test_point({{"block", "96"}, {"iters", "5"}, {"n", "16"}})
      .test_point({{"block", "1024"}, {"iters", "1001"}, {"n", "16"}})
      .validate(validate)
      .bytes([](const Params&) { return 0.0; })
      .footprint([](const Params& p) {
        const double n = static_cast<double>(p.n("n"));
        return 8.0 * kBlocks * static_cast<double>(p.n("block")) + 12.0 * n * n;
      })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        st.out_d.fill_bytes(0xFF, s);
        if (st.c_d.size() > 0) st.c_d.fill_bytes(0xFF, s);
      })
      .check(check);
  for (const auto& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description,
              [v](State& st, const Params&, cudaStream_t s) { run(st, v, s); });
    if (is_matmul(v)) {
      b.variant_axis("block", {std::to_string(kTile * kTile)},
                     "the tiled product needs one thread per tile element: block=256 only")
          .variant_bytes([](const Params& p) {
            const double n = static_cast<double>(p.n("n"));
            return 12.0 * n * n;
          })
          .variant_flops([](const Params& p) {
            const double n = static_cast<double>(p.n("n"));
            return 2.0 * n * n * n;
          });
      if (v == Variant::TiledNoSync) {
        b.expected_failure("verification caught the missing barrier");
      }
    } else {
      b.inspect([](State& st, const Params&, bench::Extras& x) {
        unsigned long long c = 0;
        st.cycles.copy_to_host(&c, 1);
        x.figures.emplace_back("cycles_per_step",
                               static_cast<double>(c) / static_cast<double>(st.iters));
      });
    }
  }
  b.baseline("barrier_only");
  b.plot({.id = "barrier",
          .kind = bench::PlotKind::Curve,
          .title = "Cycles per barrier step against the block size",
          .x = {"block", true, "threads"},
          .y = {"figure:cycles_per_step", false, "cycles"},
          .variants = {"barrier_only", "rotate_warp", "rotate_block"}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::syncthreads
