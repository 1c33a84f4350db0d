// Registration of the constant_memory lesson: broadcast vs serialization, against global, __ldg
// and shared memory, for 1..32 distinct addresses per warp load.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "constant_memory/kernels.cuh"
#include "constant_memory/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"

namespace memlab::lessons::constant_memory {
namespace {

using bench::Params;

bool throughput(const Params& p) {
  return p.s("mode") == "throughput";
}

std::size_t threads_of(const Params& p) {
  return throughput(p) ? std::size_t{kThroughputBlocks} * kThroughputThreads : 32;
}

struct State {
  std::vector<std::uint32_t> table;
  DeviceBuffer<std::uint32_t> table_d, out;
  DeviceBuffer<unsigned long long> cycles;
  std::uint32_t distinct = 1, steps = 0;
  bool throughput = false;
  std::size_t threads = 0;
  Args args() const {
    return Args{table_d.get(), distinct, steps, out.get(), cycles.get(), throughput};
  }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.table = make_table(seed);
  st.table_d = DeviceBuffer<std::uint32_t>(st.table.size());
  st.table_d.copy_from_host(st.table.data(), st.table.size());
  upload_constant_table(st.table.data(), nullptr);
  st.distinct = static_cast<std::uint32_t>(p.n("distinct"));
  st.steps = static_cast<std::uint32_t>(p.n("steps"));
  st.throughput = throughput(p);
  st.threads = threads_of(p);
  st.out = DeviceBuffer<std::uint32_t>(2 * st.threads);
  st.cycles = DeviceBuffer<unsigned long long>(1);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<std::uint32_t> got(2 * st.threads), want(2 * st.threads);
  st.out.copy_to_host(got.data(), got.size());
  std::uint32_t fin[kChain], sum[kChain];
  for (std::uint32_t x = 0; x < kChain; ++x) chain_reference(st.table, x, st.steps, fin[x], sum[x]);
  for (std::size_t t = 0; t < st.threads; ++t) {
    const std::size_t x0 = (t / 32) % kChain;
    want[2 * t] = fin[x0];
    want[2 * t + 1] = sum[x0];
  }
  return bench::check_exact(got.data(), want.data(), got.size());
}

void validate(const Params& p) {
  const std::int64_t d = p.n("distinct");
  if (d != 1 && d != 2 && d != 4 && d != 8 && d != 16 && d != 32) {
    throw UsageError(
        fmt::format("axis distinct: {} is not accepted; accepted: 1, 2, 4, 8, 16, 32", d));
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "constant_memory",
      "Constant-cache broadcast vs distinct addresses, against global/ldg/shared");
  b.bytes_convention("4 bytes delivered per lane per dependent load (threads x steps x 4)")
      .int_axis("distinct", {"1", "2", "4", "8", "16", "32"}, {"1", "32"}, 1, 32,
                "distinct addresses per warp load (1 = the convolution mask case)")
      .choice_axis("mode", {"latency", "throughput"}, {"latency", "throughput"},
                   {"latency", "throughput"}, "one warp (cycles per load) or a full GPU of warps")
      .int_axis("steps", {"2048"}, {"1024"}, 1, 1 << 20, "dependent loads per warp")
      .test_point({{"distinct", "1"}, {"mode", "latency"}, {"steps", "77"}})
      .test_point({{"distinct", "32"}, {"mode", "latency"}, {"steps", "101"}})
      .test_point({{"distinct", "4"}, {"mode", "throughput"}, {"steps", "13"}})
      .validate(validate)
      .bytes([](const Params& p) {
        return static_cast<double>(threads_of(p)) * static_cast<double>(p.n("steps")) * 4.0;
      })
      .footprint([](const Params& p) { return 8.0 * static_cast<double>(threads_of(p)) + 16384.0; })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check);
  for (const auto& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description, [v](State& st, const Params&, cudaStream_t s) {
       launch(v, st.args(), s);
     }).inspect([](State& st, const Params&, bench::Extras& x) {
      unsigned long long c = 0;
      st.cycles.copy_to_host(&c, 1);
      x.figures.emplace_back("cycles_per_load",
                             static_cast<double>(c) / static_cast<double>(st.steps));
    });
  }
  b.baseline("global");
  b.plot({.id = "latency",
          .kind = bench::PlotKind::Curve,
          .title = "Cycles per load against the distinct addresses a warp reads",
          .x = {"distinct", true, ""},
          .y = {"figure:cycles_per_load", false, "cycles"},
          .where = {{"mode", "latency"}}});
  b.plot({.id = "throughput",
          .kind = bench::PlotKind::Curve,
          .title = "Throughput against the distinct addresses a warp reads",
          .x = {"distinct", true, ""},
          .y = {"gbps", false, "GB/s"},
          .where = {{"mode", "throughput"}}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::constant_memory
