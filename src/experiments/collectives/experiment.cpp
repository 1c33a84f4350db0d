// collectives: NCCL all-reduce, all-gather, reduce-scatter, broadcast and send/recv. Variants,
// inputs and napkin math: kernels.cuh; bandwidth conventions: conventions.hpp; loading NCCL:
// nccl.hpp.
#include <fmt/format.h>

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <vector>

#include "collectives/conventions.hpp"
#include "collectives/kernels.cuh"
#include "collectives/nccl.hpp"
#include "common/multi_gpu.hpp"
#include "common/variants.hpp"
#include "memlab/bench/distributed.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/device_guard.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/stream.hpp"
#include "memlab/cuda/topology.hpp"

namespace memlab::lessons::collectives {
namespace {

using bench::Params;

bool multi_process() {
  return bench::distributed().multi_process();
}

// Ranks of the communicator: MPI ranks (when each has a GPU of its own), else every GPU this
// process sees. Ranks that share a GPU count as one: NCCL refuses two ranks on one device.
int ranks() {
  const bench::Distributed& d = bench::distributed();
  if (multi_process()) return d.shared_gpus ? 1 : d.size;
  return device_count_or_zero();
}

// Throws bench::SkipPoint before NCCL or any cudaSetDevice is touched when there are fewer than
// two ranks with a GPU each.
void require_two_ranks() {
  const bench::Distributed& d = bench::distributed();
  if (!multi_process()) {
    require_gpus({});
    return;
  }
  if (d.shared_gpus) {
    throw bench::SkipPoint(fmt::format(
        "{} (one per mpirun rank: {} ranks share the GPUs of a host)", kNeedsTwoGpus, d.size));
  }
}

bool runnable(const Params&) {
  if (!multi_process() && !bench::distributed().node_leader()) return false;
  return ranks() >= 2 && nccl().ok();
}

// The communicators of this process, created once and kept for its life (NCCL's teardown after
// the CUDA runtime's at exit would be unsafe; the process ends them). One per local GPU.
struct Communicators {
  std::vector<int> devices;  // local GPUs, one per communicator
  std::vector<int> rank_of;  // their ranks
  std::vector<ncclComm_t> comms;
  int nranks = 0;
};

const Communicators& communicators() {
  static std::once_flag once;
  static Communicators c;
  std::call_once(once, [] {
    const NcclApi& api = nccl();
    if (!api.ok()) throw std::runtime_error(api.failure);
    int current = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&current));
    if (multi_process()) {
      const bench::Distributed& d = bench::distributed();
      ncclUniqueId id{};
      if (d.rank == 0) nccl_check(api.get_unique_id(&id), "ncclGetUniqueId");
      d.broadcast(&id, sizeof id, 0);  // through MPI
      ncclComm_t comm = nullptr;
      nccl_check(api.comm_init_rank(&comm, d.size, id, d.rank), "ncclCommInitRank");
      c.devices = {current};
      c.rank_of = {d.rank};
      c.comms = {comm};
      c.nranks = d.size;
    } else {
      const int n = device_count_or_zero();
      for (int i = 0; i < n; ++i) {
        c.devices.push_back(i);
        c.rank_of.push_back(i);
      }
      c.comms.resize(static_cast<std::size_t>(n));
      nccl_check(api.comm_init_all(c.comms.data(), n, c.devices.data()), "ncclCommInitAll");
      c.nranks = n;
    }
    MEMLAB_CUDA_CHECK(cudaSetDevice(current));
  });
  return c;
}

struct Local {
  int device = 0, rank = 0;
  ncclComm_t comm = nullptr;
  DeviceBuffer<float> send, recv;
  std::unique_ptr<Stream> stream;  // on `device` (one process, several GPUs)
  std::unique_ptr<Event> join;     // on `device`
};

struct State {
  std::size_t elements = 0;  // size / 4, rounded down to a multiple of the rank count
  int nranks = 0;
  std::uint64_t seed = 0;
  std::vector<Local> locals;
  Event fork{cudaEventDisableTiming};
};

State setup(const Params& p, std::uint64_t seed) {
  require_two_ranks();
  const Communicators& c = communicators();
  State st;
  st.nranks = c.nranks;
  st.seed = seed;
  st.elements = call_count(Collective::AllReduce, static_cast<std::size_t>(p.n("size")), c.nranks);
  for (std::size_t k = 0; k < c.comms.size(); ++k) {
    DeviceGuard g(c.devices[k]);
    Local l;
    l.device = c.devices[k];
    l.rank = c.rank_of[k];
    l.comm = c.comms[k];
    l.send = DeviceBuffer<float>(st.elements);
    l.recv = DeviceBuffer<float>(st.elements);
    l.stream = std::make_unique<Stream>();
    l.join = std::make_unique<Event>(cudaEventDisableTiming);
    fill_rank_input(l.send.get(), st.elements, seed, l.rank, nullptr);
    MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
    st.locals.push_back(std::move(l));
  }
  return st;
}

void call(Variant v, const State& st, const Local& l, cudaStream_t s) {
  const NcclApi& api = nccl();
  const std::size_t chunk = st.elements / static_cast<std::size_t>(st.nranks);
  switch (v) {
    case Variant::AllReduce:
      nccl_check(api.all_reduce(l.send.get(), l.recv.get(), st.elements, kNcclFloat32, kNcclSum,
                                l.comm, s),
                 "ncclAllReduce");
      return;
    case Variant::AllGather:
      nccl_check(api.all_gather(l.send.get(), l.recv.get(), chunk, kNcclFloat32, l.comm, s),
                 "ncclAllGather");
      return;
    case Variant::ReduceScatter:
      nccl_check(
          api.reduce_scatter(l.send.get(), l.recv.get(), chunk, kNcclFloat32, kNcclSum, l.comm, s),
          "ncclReduceScatter");
      return;
    case Variant::Broadcast:
      nccl_check(api.broadcast(l.send.get(), l.recv.get(), st.elements, kNcclFloat32, 0, l.comm, s),
                 "ncclBroadcast");
      return;
    case Variant::SendRecv: {
      const int n = st.nranks;
      nccl_check(api.send(l.send.get(), st.elements, kNcclFloat32, (l.rank + 1) % n, l.comm, s),
                 "ncclSend");
      nccl_check(api.recv(l.recv.get(), st.elements, kNcclFloat32, (l.rank + n - 1) % n, l.comm, s),
                 "ncclRecv");
      return;
    }
  }
  invalid_variant("collectives");
}

// One collective over every local rank: forked from the timing stream `s` to each GPU's stream
// (one process), or straight on `s` (one GPU per MPI rank). Grouped: NCCL launches all ranks'
// parts together.
void run(State& st, Variant v, cudaStream_t s) {
  const NcclApi& api = nccl();
  if (st.locals.size() == 1) {
    nccl_check(api.group_start(), "ncclGroupStart");
    call(v, st, st.locals[0], s);
    nccl_check(api.group_end(), "ncclGroupEnd");
    return;
  }
  st.fork.record(s);
  for (Local& l : st.locals) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(*l.stream, st.fork, 0));
  nccl_check(api.group_start(), "ncclGroupStart");
  for (Local& l : st.locals) call(v, st, l, *l.stream);
  nccl_check(api.group_end(), "ncclGroupEnd");
  for (Local& l : st.locals) {
    DeviceGuard g(l.device);
    l.join->record(*l.stream);
  }
  for (Local& l : st.locals) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, *l.join, 0));
}

bench::Check check(State& st, const Params&, const std::string& name) {
  const Variant v = variant_of(kVariants, name, "collectives");
  const std::size_t n = static_cast<std::size_t>(st.nranks);
  const std::size_t chunk = st.elements / n;
  bench::Check c;
  c.ok = true;
  std::vector<float> got(st.elements);
  for (const Local& l : st.locals) {
    MEMLAB_CUDA_CHECK(
        cudaMemcpy(got.data(), l.recv.get(), st.elements * sizeof(float), cudaMemcpyDeviceToHost));
    const std::size_t count = v == Variant::ReduceScatter ? chunk : st.elements;
    const auto r = static_cast<std::size_t>(l.rank);
    std::size_t wrong = 0, first = count;
    float want_first = 0;
    for (std::size_t i = 0; i < count; ++i) {
      float want = 0;
      switch (v) {
        case Variant::AllReduce:
          for (int q = 0; q < st.nranks; ++q) want += rank_input(st.seed, q, i);
          break;
        case Variant::AllGather:
          want = rank_input(st.seed, static_cast<int>(i / chunk), i % chunk);
          break;
        case Variant::ReduceScatter:
          for (int q = 0; q < st.nranks; ++q) want += rank_input(st.seed, q, r * chunk + i);
          break;
        case Variant::Broadcast:
          want = rank_input(st.seed, 0, i);
          break;
        case Variant::SendRecv:
          want = rank_input(st.seed, static_cast<int>((r + n - 1) % n), i);
          break;
      }
      if (got[i] != want) {
        if (wrong++ == 0) {
          first = i;
          want_first = want;
        }
      }
    }
    if (wrong > 0) {
      c.ok = false;
      c.error += static_cast<double>(wrong);
      c.detail +=
          fmt::format(" rank {} (GPU {}): {} of {} elements differ, first [{}] = {} (want {})",
                      l.rank, l.device, wrong, count, first, got[first], want_first);
    }
  }
  return c;
}

// The slowest NVLink rate along the ring 0 -> 1 -> ... -> n-1 -> 0 (one process only).
double ring_link_gbps() {
  if (multi_process()) return 0.0;
  static const double rate = [] {
    const int n = device_count_or_zero();
    if (n < 2) return 0.0;
    const Topology t = query_topology();
    double r = 0;
    for (int i = 0; i < n; ++i) {
      const PairTopology* p = t.pair(i, (i + 1) % n);
      const double g = p != nullptr ? p->nvlink_gbps_per_direction() : 0.0;
      if (!(g > 0)) return 0.0;
      r = i == 0 ? g : std::min(r, g);
    }
    return r;
  }();
  return rate;
}

double size_bytes(const Params& p) {
  const int n = std::max(ranks(), 1);
  return 4.0 * static_cast<double>(
                   call_count(Collective::AllReduce, static_cast<std::size_t>(p.n("size")), n));
}

void inspect(State& st, const Params& p, Variant v, bench::Extras& x) {
  // A short re-timing (every rank does the same, so MPI ranks stay in lockstep) for the busbw.
  Stream s;
  Event a, b;
  run(st, v, s);
  a.record(s);
  constexpr int kIters = 5;
  for (int i = 0; i < kIters; ++i) run(st, v, s);
  b.record(s);
  b.synchronize();
  const double ms = static_cast<double>(b.elapsed_ms_since(a)) / kIters;
  const Collective c = collective_of(v);
  x.figures.emplace_back("ranks", st.nranks);
  x.figures.emplace_back("bus_factor", bus_factor(c, st.nranks));
  x.figures.emplace_back("algbw_GBps", algbw_gbps(size_bytes(p), ms));
  x.figures.emplace_back("busbw_GBps", busbw_gbps(c, st.nranks, size_bytes(p), ms));
  if (ring_link_gbps() > 0) x.figures.emplace_back("link_GBps_per_dir", ring_link_gbps());
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "collectives", "NCCL collectives across GPUs: time, algbw, busbw (nccl-tests conventions)");
  b.bytes_convention(
       "nccl-tests' size: the largest buffer of one rank (all_gather: the gathered buffer; "
       "reduce_scatter: the send buffer); GB/s = algbw = size / time; busbw = algbw x "
       "2(n-1)/n (all_reduce), (n-1)/n (all_gather, reduce_scatter), 1 (broadcast, send_recv) "
       "in the figures. Ignore the % peak columns")
      .int_axis("size", {"8Ki", "1Mi", "64Mi", "1Gi"}, {"1Mi", "64Mi"}, 8, std::int64_t{1} << 34,
                "bytes per rank (nccl-tests' size), rounded down to 4 x ranks")
      .test_point({{"size", "4100"}})
      .test_point({{"size", "1000004"}})
      .default_suite(false)
      .bytes(size_bytes)
      .footprint([](const Params& p) { return 2.0 * size_bytes(p); })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(s));
        for (Local& l : st.locals) {
          DeviceGuard g(l.device);
          MEMLAB_CUDA_CHECK(cudaMemset(l.recv.get(), 0xFF, st.elements * sizeof(float)));
          MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
        }
      })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description,
              [id](State& st, const Params&, cudaStream_t s) { run(st, id, s); })
        .needs_device(
            runnable,
            fmt::format("{} (this process's, or one per mpirun rank) and NCCL "
                        "(libnccl.so.2 on LD_LIBRARY_PATH or the system paths, a Python "
                        "wheel's nvidia/nccl/lib, or MEMLAB_NCCL_LIBRARY); with --devices "
                        "only the first worker runs it",
                        kNeedsTwoGpus))
        .predict([id](const Params& p) -> std::optional<bench::Prediction> {
          const double link = ring_link_gbps();
          const int n = ranks();
          if (!(link > 0) || n < 2) return std::nullopt;
          bench::Prediction pr;
          pr.time_ms = link_time_ms(collective_of(id), n, size_bytes(p), link);
          pr.model = fmt::format("bus bytes x {:.2f} at {:.0f} GB/s per direction (NVLink)",
                                 bus_factor(collective_of(id), n), link);
          return pr;
        })
        .inspect([id](State& st, const Params& p, bench::Extras& x) { inspect(st, p, id, x); });
  }
  b.baseline(variant_name(kVariants, Variant::AllReduce));
  b.plot({.id = "busbw",
          .kind = bench::PlotKind::Curve,
          .title = "Bus bandwidth against the message size",
          .x = {"size", true, "bytes"},
          .y = {"figure:busbw_GBps", false, "GB/s"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::collectives
