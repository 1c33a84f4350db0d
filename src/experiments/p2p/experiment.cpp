// p2p: peer copies between the GPUs of one node. Variants and napkin math: kernels.cuh.
// Bytes: each byte moved once: direction=one counts size, both counts 2 x size (size each way at
// the same time). nvbandwidth prints per direction: halve `both` to compare (docs/p2p.md).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "common/multi_gpu.hpp"
#include "common/variants.hpp"
#include "memlab/bench/distributed.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/device_guard.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"
#include "memlab/cuda/topology.hpp"
#include "p2p/kernels.cuh"

namespace memlab::lessons::p2p {
namespace {

using bench::Params;

bool both_ways(const Params& p) {
  return p.s("direction") == "both";
}

// Two different GPUs that exist (asked at plan time: no device, no pair).
bool pair_exists(const Params& p) {
  const int count = device_count_or_zero();
  const auto a = p.n("src"), b = p.n("dst");
  return a != b && a < count && b < count;
}

bool peer_access(int a, int b) {
  static std::mutex m;
  static std::map<std::pair<int, int>, bool> cache;
  std::lock_guard<std::mutex> lock(m);
  auto it = cache.find({a, b});
  if (it != cache.end()) return it->second;
  int yes = 0;
  MEMLAB_CUDA_CHECK(cudaDeviceCanAccessPeer(&yes, a, b));
  return cache[{a, b}] = yes != 0;
}

bool peer_pair(const Params& p) {
  if (!pair_exists(p)) return false;
  const int a = static_cast<int>(p.n("src")), b = static_cast<int>(p.n("dst"));
  return peer_access(a, b) && (!both_ways(p) || peer_access(b, a));
}

// Copies between GPUs are a property of the node: with several workers (--devices, mpirun) only
// the first one on each host measures them, so that two workers never share the links.
bool leader() {
  return bench::distributed().node_leader();
}

// The links between the pair, from the topology (queried once).
const Topology& topology() {
  static const Topology t = device_count_or_zero() > 0 ? query_topology() : Topology{};
  return t;
}

// One direction: buffers on its source and destination GPUs, a stream of the source GPU.
struct Direction {
  int src_device = 0, dst_device = 0;
  DeviceBuffer<unsigned char> src, dst;
  PinnedBuffer<unsigned char> staging;
  std::unique_ptr<Stream> stream;  // created on src_device
  std::unique_ptr<Event> join;     // on src_device (an event is recorded on its own GPU)
  int sm_count = 0;
  std::uint64_t seed = 0;

  Direction() = default;
  Direction(int from, int to, std::size_t bytes, std::uint64_t s)
      : src_device(from), dst_device(to), seed(s) {
    {
      DeviceGuard g(to);
      dst = DeviceBuffer<unsigned char>(bytes);
    }
    DeviceGuard g(from);
    src = DeviceBuffer<unsigned char>(bytes);
    fill_random_bytes(src.get(), bytes, seed, nullptr);
    staging = PinnedBuffer<unsigned char>(bytes);
    stream = std::make_unique<Stream>();
    join = std::make_unique<Event>(cudaEventDisableTiming);
    sm_count = query_device(from).sm_count;
    const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
    if (e == cudaErrorPeerAccessAlreadyEnabled || e == cudaErrorPeerAccessUnsupported) {
      cudaGetLastError();  // host_staged and copy_engine work without it
    } else {
      MEMLAB_CUDA_CHECK(e);
    }
    MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  }
};

struct State {
  std::size_t bytes = 0;
  std::vector<Direction> dirs;         // src -> dst, and dst -> src when both
  Event fork{cudaEventDisableTiming};  // on the timing stream's GPU
};

State setup(const Params& p, std::uint64_t seed) {
  const int a = static_cast<int>(p.n("src")), b = static_cast<int>(p.n("dst"));
  // Before any CUDA call (State's event too): one GPU is a skip, not cudaErrorInvalidDevice.
  require_gpus({a, b});
  State st;
  st.bytes = static_cast<std::size_t>(p.n("size"));
  st.dirs.reserve(2);
  st.dirs.emplace_back(a, b, st.bytes, seed);
  if (both_ways(p)) st.dirs.emplace_back(b, a, st.bytes, seed + 1);
  return st;
}

// Fork from the timing stream to each source GPU's stream, copy, join back.
void run(State& st, Variant v, cudaStream_t s) {
  st.fork.record(s);
  for (Direction& d : st.dirs) {
    DeviceGuard g(d.src_device);
    MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(*d.stream, st.fork, 0));
    enqueue_copy(v,
                 {d.dst.get(), d.src.get(), st.bytes, d.dst_device, d.src_device, d.staging.get(),
                  d.sm_count},
                 *d.stream);
    d.join->record(*d.stream);
  }
  for (Direction& d : st.dirs) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, *d.join, 0));
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  (void)variant_of(kVariants, variant, "p2p");
  std::vector<unsigned char> got(st.bytes);
  bench::Check c;
  c.ok = true;
  for (const Direction& d : st.dirs) {
    MEMLAB_CUDA_CHECK(cudaMemcpy(got.data(), d.dst.get(), st.bytes, cudaMemcpyDeviceToHost));
    std::atomic<std::size_t> wrong{0};
    std::atomic<std::size_t> first{st.bytes};
    bench::parallel_for(st.bytes, [&](std::size_t lo, std::size_t hi) {
      std::size_t bad = 0, f = st.bytes;
      for (std::size_t i = lo; i < hi; ++i) {
        if (got[i] != random_byte(d.seed, i)) {
          if (bad++ == 0) f = i;
        }
      }
      wrong += bad;
      std::size_t cur = first.load();
      while (f < cur && !first.compare_exchange_weak(cur, f)) {
      }
    });
    if (wrong.load() > 0) {
      const std::size_t i = first.load();
      c.ok = false;
      c.error += static_cast<double>(wrong.load());
      c.detail +=
          fmt::format(" GPU{} -> GPU{}: {} bytes differ, first at {}: got {:#04x}, want {:#04x}",
                      d.src_device, d.dst_device, wrong.load(), i, got[i], random_byte(d.seed, i));
    }
  }
  return c;
}

// The link's rate per direction between src and dst: NVLinks x their version's rate; 0 unknown.
double link_gbps(const Params& p) {
  const PairTopology* pair =
      topology().pair(static_cast<int>(p.n("src")), static_cast<int>(p.n("dst")));
  return pair != nullptr ? pair->nvlink_gbps_per_direction() : 0.0;
}

std::optional<bench::Prediction> predict(const Params& p) {
  const double gbps = link_gbps(p);
  if (!(gbps > 0)) return std::nullopt;
  const PairTopology* pair =
      topology().pair(static_cast<int>(p.n("src")), static_cast<int>(p.n("dst")));
  bench::Prediction pr;
  // Both directions run at once on full-duplex links: the time of one direction.
  pr.time_ms = 1e3 * static_cast<double>(p.n("size")) / (gbps * 1e9);
  pr.model = fmt::format("{} NVLinks v{}: {:.0f} GB/s per direction", pair->nvlinks,
                         pair->nvlink_version, gbps);
  return pr;
}

double moved(const Params& p) {
  return static_cast<double>(p.n("size")) * (both_ways(p) ? 2.0 : 1.0);
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "p2p", "Peer copies between GPUs: copy engine, SM stores through peer pointers, via host");
  b.bytes_convention(
       "each byte moved once: one = size, both = 2 x size (size each way at the same time); "
       "GB/s over NVLink/PCIe between GPUs: ignore the % peak columns")
      .int_axis("src", {"0", "1"}, {"0", "1"}, 0, 63, "source GPU (pushes the bytes)")
      .int_axis("dst", {"0", "1"}, {"0", "1"}, 0, 63, "destination GPU")
      .int_axis("size", {"8", "64Ki", "4Mi", "64Mi", "512Mi"}, {"8", "64Mi"}, 1,
                std::int64_t{1} << 34, "bytes per copy (8: the latency floor)")
      .choice_axis("direction", {"one", "both"}, {"one", "both"}, {"one", "both"},
                   "src -> dst, or both ways at once")
      .test_point({{"src", "0"}, {"dst", "1"}, {"size", "1"}, {"direction", "one"}})
      .test_point({{"src", "1"}, {"dst", "0"}, {"size", "4097"}, {"direction", "one"}})
      .test_point({{"src", "0"}, {"dst", "1"}, {"size", "1000003"}, {"direction", "both"}})
      .bytes(moved)
      .footprint(moved)
      .default_suite(false)
      .flush_l2(false)  // the link, not the L2
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(s));
        for (Direction& d : st.dirs) {
          DeviceGuard g(d.dst_device);
          MEMLAB_CUDA_CHECK(cudaMemset(d.dst.get(), 0xFF, st.bytes));
          MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
        }
      })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description,
              [id](State& st, const Params&, cudaStream_t s) { run(st, id, s); })
        .only_if([](const Params& p) { return p.n("src") != p.n("dst"); },
                 "a copy between two different GPUs: src != dst");
    switch (id) {
      case Variant::CopyEngine:
      case Variant::SmCopy:
        b.needs_device([](const Params& p) { return leader() && peer_pair(p); },
                       fmt::format("{}: src, dst two different ones with peer access (memlab info "
                                   "shows the links; on one GPU every pair is skipped); with "
                                   "--devices or mpirun only the first worker of a host runs it",
                                   kNeedsTwoGpus))
            .predict(predict);
        break;
      case Variant::HostStaged:
        b.needs_device([](const Params& p) { return leader() && pair_exists(p); },
                       fmt::format("{}: src, dst two different ones (on one GPU every pair is "
                                   "skipped); with --devices or mpirun only the first worker of a "
                                   "host runs it",
                                   kNeedsTwoGpus));
        break;
    }
    b.inspect([](State&, const Params& p, bench::Extras& x) {
      const double gbps = link_gbps(p);
      if (gbps > 0) x.figures.emplace_back("link_GBps_per_dir", gbps);
    });
  }
  b.baseline(variant_name(kVariants, Variant::CopyEngine));
  b.plot({.id = "pairs",
          .kind = bench::PlotKind::Heatmap,
          .title = "GB/s between each pair of GPUs (largest size)",
          .x = {"dst", false, ""},
          .y = {"gbps", false, "GB/s"},
          .facet = "variant",
          .where = {{"size", "536870912"}, {"direction", "one"}},
          .heat = {"src", "dst"}});
  b.plot({.id = "size",
          .kind = bench::PlotKind::Curve,
          .title = "GB/s against the copy size",
          .x = {"size", true, "bytes"},
          .y = {"gbps", false, "GB/s"},
          .where = {{"direction", "one"}}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::p2p
