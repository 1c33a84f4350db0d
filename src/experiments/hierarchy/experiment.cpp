// Registration of the hierarchy lesson: pointer-chase latency and read bandwidth against the
// working-set size, level by level.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "hierarchy/kernels.cuh"
#include "hierarchy/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::hierarchy {
namespace {

using bench::Params;

constexpr std::int64_t kMaxSharedWs = 32 << 10;
constexpr std::int64_t kMaxHostWs = 1 << 20;
constexpr std::int64_t kMaxReadCaWs = 8 << 20;
constexpr std::int64_t kMinReadCgWs = 1 << 20;

bool is_read(Variant v) {
  return v == Variant::ReadCa || v == Variant::ReadCg;
}

Variant variant_of(const std::string& name) {
  for (const auto& info : kVariants) {
    if (name == info.name) return info.id;
  }
  throw std::logic_error("hierarchy: unknown variant " + name);
}

std::uint32_t reps_of(Variant v, std::int64_t ws) {
  const double target = static_cast<double>(std::int64_t{1} << 30);
  const double per_rep =
      static_cast<double>(ws) * (v == Variant::ReadCa ? static_cast<double>(kReadBlocks) : 1.0);
  return static_cast<std::uint32_t>(std::clamp(target / per_rep, 1.0, 4096.0));
}

double read_bytes(Variant v, const Params& p) {
  const double ws = static_cast<double>(p.n("ws"));
  return (v == Variant::ReadCa ? kReadBlocks * ws : ws) *
         static_cast<double>(reps_of(v, p.n("ws")));
}

struct State {
  std::int64_t ws = 0;
  std::uint32_t line_words = 0, steps = 0;
  std::uint64_t seed = 0;
  std::vector<std::uint32_t> perm;
  DeviceBuffer<std::uint32_t> chain, data, partial;
  DeviceBuffer<std::uint64_t> out;
  PinnedBuffer<std::uint32_t> host_chain;  // chase_host only (ws <= 1 MiB)
  std::uint32_t* host_chain_device = nullptr;
  // Ring position of the next chase (each run starts where the last one stopped, so a timed path
  // never repeats the previous run's lines) and of the last one (what the check replays).
  std::uint64_t pos = 0, last_pos = 0;

  std::uint32_t lines() const { return static_cast<std::uint32_t>(perm.size()); }
  std::uint32_t warm() const { return std::min(lines(), steps); }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.ws = p.n("ws");
  st.line_words = static_cast<std::uint32_t>(p.n("line") / 4);
  st.steps = static_cast<std::uint32_t>(p.n("steps"));
  st.seed = seed;
  const auto words = static_cast<std::size_t>(st.ws / 4);
  st.perm = random_cycle(static_cast<std::uint32_t>(st.ws / p.n("line")), seed);
  st.chain = DeviceBuffer<std::uint32_t>(words);
  DeviceBuffer<std::uint32_t> perm(st.perm.size());
  perm.copy_from_host(st.perm.data(), st.perm.size());
  build_chain(st.chain.get(), perm.get(), st.lines(), st.line_words, nullptr);
  st.data = DeviceBuffer<std::uint32_t>(words);
  fill_random_bytes(st.data.get(), words * 4, seed + 1, nullptr);
  st.partial = DeviceBuffer<std::uint32_t>(std::size_t{kReadBlocks} * kReadThreads);
  st.out = DeviceBuffer<std::uint64_t>(4);
  if (st.ws <= kMaxHostWs) {
    st.host_chain = PinnedBuffer<std::uint32_t>(words, cudaHostAllocMapped);
    for (std::uint32_t i = 0; i < st.lines(); ++i) {
      st.host_chain[std::size_t{st.perm[i]} * st.line_words] =
          st.perm[(i + 1) % st.lines()] * st.line_words;
    }
    void* dev = nullptr;
    MEMLAB_CUDA_CHECK(cudaHostGetDevicePointer(&dev, st.host_chain.get(), 0));
    st.host_chain_device = static_cast<std::uint32_t*>(dev);
  }
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

ChaseArgs chase_args(State& st, Variant v) {
  ChaseArgs a{};
  a.chain = v == Variant::ChaseHost ? st.host_chain_device : st.chain.get();
  a.start = v == Variant::ChaseRegister ? 12345u : st.perm[st.pos % st.lines()] * st.line_words;
  a.warm_steps = st.warm();
  a.steps = st.steps;
  a.shared_words = static_cast<std::uint32_t>(st.ws / 4);
  a.out = st.out.get();
  return a;
}

void run(State& st, Variant v, cudaStream_t s) {
  if (is_read(v)) {
    const ReadArgs a{st.data.get(), static_cast<std::size_t>(st.ws / 4), reps_of(v, st.ws),
                     st.partial.get()};
    launch_read(v, a, s);
    return;
  }
  if (v == Variant::ChaseCa || v == Variant::ChaseCg || v == Variant::AtomicChain) {
    // All SMs read the ring first: as much of it as fits is in L2, as in a steady state of random
    // accesses over the working set, whatever path this run's chase takes.
    const ReadArgs warm{st.chain.get(), static_cast<std::size_t>(st.ws / 4), 1, st.partial.get()};
    launch_read(Variant::ReadCg, warm, s);
  }
  launch_chase(v, chase_args(st, v), s);
  st.last_pos = st.pos;
  st.pos += st.warm() + st.steps;
}

bench::Check check(State& st, const Params&, const std::string& name) {
  const Variant v = variant_of(name);
  if (is_read(v)) {
    std::vector<std::uint32_t> got(st.partial.size());
    st.partial.copy_to_host(got.data(), got.size());
    std::uint32_t total = 0;
    for (std::uint32_t x : got) total += x;
    const std::uint32_t window = random_words_sum(st.seed + 1, static_cast<std::size_t>(st.ws / 4));
    const std::uint32_t copies =
        v == Variant::ReadCa ? kReadBlocks * reps_of(v, st.ws) : reps_of(v, st.ws);
    const std::uint32_t want = window * copies;
    return bench::check_exact(&total, &want, 1);
  }
  std::array<std::uint64_t, 4> got{};
  st.out.copy_to_host(got.data(), 4);
  const ChaseResult r =
      v == Variant::ChaseRegister
          ? register_reference(12345u, st.steps)
          : chase_reference(st.perm, st.line_words, st.last_pos, st.warm(), st.steps);
  const std::array<std::uint64_t, 2> want{r.final_index, r.sum};
  return bench::check_exact(got.data(), want.data(), 2);
}

void inspect(State& st, Variant v, bench::Extras& x) {
  if (is_read(v)) {
    x.figures.emplace_back("reps", static_cast<double>(reps_of(v, st.ws)));
    return;
  }
  std::array<std::uint64_t, 4> got{};
  st.out.copy_to_host(got.data(), 4);
  const double cycles = static_cast<double>(got[2]) / st.steps;
  const double ns = static_cast<double>(got[3]) / st.steps;
  x.figures.emplace_back("cycles_per_load", cycles);
  x.figures.emplace_back("ns_per_load", ns);
  if (ns > 0) x.figures.emplace_back("sm_clock_mhz", 1e3 * cycles / ns);
}

void validate(const Params& p) {
  const std::int64_t ws = p.n("ws"), line = p.n("line");
  if (line % 4 != 0) {
    throw UsageError(fmt::format("axis line: {} is not a multiple of 4 bytes", line));
  }
  if (ws % line != 0 || ws % 16 != 0 || ws / line < 2) {
    throw UsageError(fmt::format(
        "axis ws: {} is not a multiple of line={} (and of 16) holding at least 2 lines", ws, line));
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "hierarchy", "Latency (pointer chase) and read bandwidth of every level vs working set");
  b.bytes_convention(
       "chases: none (latency: cycles_per_load, ns_per_load); read_ca: blocks x window x reps; "
       "read_cg: window x reps")
      .int_axis("ws",
                {"16384", "131072", "1048576", "8388608", "33554432", "134217728", "1073741824"},
                {"16384", "1048576", "33554432", "268435456"}, 64, std::int64_t{1} << 34,
                "working set in bytes (long sweep: -a ws=4096,8192,...,4294967296)")
      .int_axis("line", {"128"}, {"128"}, 4, 4096, "bytes between two chained words")
      .int_axis("steps", {"4096"}, {"2048"}, 16, 1 << 20, "timed dependent loads per chase")
      .test_point({{"ws", "4096"}, {"line", "128"}, {"steps", "1000"}})
      .test_point({{"ws", "24576"}, {"line", "64"}, {"steps", "333"}})
      .test_point({{"ws", "3145728"}, {"line", "128"}, {"steps", "777"}})
      .validate(validate)
      .footprint([](const Params& p) { return 2.0 * static_cast<double>(p.n("ws")); })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        st.out.fill_bytes(0xFF, s);
        st.partial.fill_bytes(0xFF, s);
      })
      .check(check);
  for (const auto& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description,
              [v](State& st, const Params&, cudaStream_t s) { run(st, v, s); })
        .variant_bytes([v](const Params& p) { return is_read(v) ? read_bytes(v, p) : 0.0; })
        .inspect([v](State& st, const Params&, bench::Extras& x) { inspect(st, v, x); });
    switch (v) {
      case Variant::ChaseShared:
        b.variant_range("ws", std::nullopt, kMaxSharedWs,
                        "the shared-memory chain fits one block's shared memory: ws <= 32 KiB");
        break;
      case Variant::ChaseRegister:
        b.variant_range("ws", std::nullopt, 16384,
                        "registers have no working set: measured once, at ws <= 16 KiB");
        break;
      case Variant::ChaseHost:
        b.variant_range("ws", std::nullopt, kMaxHostWs,
                        "each PCIe load takes ~1 us: host-mapped chains at ws <= 1 MiB only");
        break;
      case Variant::AtomicChain:
        b.variant_range("ws", std::nullopt, std::int64_t{1} << 27,
                        "atomic chains up to ws = 128 MiB (the L2 and just beyond)");
        break;
      case Variant::ReadCa:
        b.variant_range("ws", std::nullopt, kMaxReadCaWs,
                        "every block reads the whole window: ws <= 8 MiB only");
        break;
      case Variant::ReadCg:
        b.variant_range("ws", kMinReadCgWs, std::nullopt,
                        "the grid splits the window: ws >= 1 MiB only")
            .predict([](const Params& p) -> std::optional<bench::Prediction> {
              if (p.n("ws") < (std::int64_t{1} << 29)) return std::nullopt;
              bench::Prediction pr;
              pr.model = "streaming: the window is far larger than L2, every byte from HBM";
              pr.dram_bytes = read_bytes(Variant::ReadCg, p);
              return pr;
            });
        break;
      case Variant::ChaseCa:
      case Variant::ChaseCg:
        break;
    }
  }
  b.baseline("chase_ca");
  b.plot({.id = "latency",
          .kind = bench::PlotKind::Curve,
          .title = "Load latency against the working set",
          .x = {"ws", true, "bytes"},
          .y = {"figure:cycles_per_load", true, "cycles"},
          .variants = {"chase_ca", "chase_cg", "chase_shared", "chase_register", "chase_host",
                       "atomic_chain"},
          .references = {"l1_bytes", "l2_bytes", "findings"}});
  b.plot({.id = "latency_ns",
          .kind = bench::PlotKind::Curve,
          .title = "Load latency in nanoseconds against the working set",
          .x = {"ws", true, "bytes"},
          .y = {"figure:ns_per_load", true, "ns"},
          .variants = {"chase_ca", "chase_cg", "chase_shared", "chase_register", "chase_host",
                       "atomic_chain"},
          .references = {"l1_bytes", "l2_bytes", "findings"}});
  b.plot({.id = "bandwidth",
          .kind = bench::PlotKind::Curve,
          .title = "Read bandwidth against the working set",
          .x = {"ws", true, "bytes"},
          .y = {"gbps", false, "GB/s"},
          .variants = {"read_ca", "read_cg"},
          .references = {"l1_bytes", "l2_bytes", "memcpy"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::hierarchy
