// Registration of experiment `graphs_pipeline`: the streams pipeline (H2D, kernel, D2H per chunk,
// chunk c in stream c % 4) enqueued call by call or captured once into a CUDA graph.
#include <fmt/format.h>

#include <algorithm>
#include <vector>

#include "graphs/graph.hpp"
#include "graphs/kernels.cuh"
#include "graphs/model.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::lessons::graphs {
namespace {

using bench::Params;

enum class Variant { kStreams, kGraph };
struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};
constexpr VariantInfo kVariants[] = {
    {Variant::kStreams, "streams", "3 x chunks API calls (H2D, kernel, D2H) in 4 streams"},
    {Variant::kGraph, "graph", "the same work captured once into a graph: one cudaGraphLaunch"},
};

constexpr int kStreams = 4;
constexpr double kLinkGBps = 50.0;  // pinned PCIe gen5 x16, per direction (lesson transfers)

struct State {
  std::size_t n = 0;
  int chunks = 0;
  PinnedBuffer<float> h_in, h_out;
  DeviceBuffer<float> d_in, d_out;
  std::vector<Stream> streams;
  std::vector<Event> done;  // one per stream: the join back into the caller's stream
  Event fork;
  Stream capture_stream;
  CapturedGraph graph;
};

std::size_t chunk_begin(const State& st, int c) {
  return st.n * static_cast<std::size_t>(c) / static_cast<std::size_t>(st.chunks);
}

// Fork from `s` into the 4 streams, per chunk H2D, kernel, D2H, join back into `s`.
void enqueue_streams(const State& st, cudaStream_t s) {
  st.fork.record(s);
  for (const Stream& w : st.streams) MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(w, st.fork, 0));
  for (int c = 0; c < st.chunks; ++c) {
    const std::size_t b = chunk_begin(st, c), count = chunk_begin(st, c + 1) - b;
    cudaStream_t w = st.streams[static_cast<std::size_t>(c % kStreams)];
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(st.d_in.get() + b, st.h_in.get() + b, count * 4,
                                      cudaMemcpyHostToDevice, w));
    launch_affine(st.d_in.get() + b, st.d_out.get() + b, count, w);
    MEMLAB_CUDA_CHECK(cudaMemcpyAsync(st.h_out.get() + b, st.d_out.get() + b, count * 4,
                                      cudaMemcpyDeviceToHost, w));
  }
  for (int i = 0; i < kStreams; ++i) {
    st.done[static_cast<std::size_t>(i)].record(st.streams[static_cast<std::size_t>(i)]);
    MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, st.done[static_cast<std::size_t>(i)], 0));
  }
}

void enqueue(const State& st, Variant v, cudaStream_t s) {
  switch (v) {
    case Variant::kStreams:
      enqueue_streams(st, s);
      return;
    case Variant::kGraph:
      st.graph.launch(s);
      return;
  }
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.chunks = static_cast<int>(p.n("chunks"));
  st.h_in = PinnedBuffer<float>(st.n);
  st.h_out = PinnedBuffer<float>(st.n);
  st.d_in = DeviceBuffer<float>(st.n);
  st.d_out = DeviceBuffer<float>(st.n);
  for (std::size_t i = 0; i < st.n; ++i) st.h_in.get()[i] = random_uniform(seed, i, -1.0f, 1.0f);
  for (int i = 0; i < kStreams; ++i) {
    st.streams.emplace_back();
    st.done.emplace_back(cudaEventDisableTiming);
  }
  st.graph.capture(st.capture_stream, [&](cudaStream_t s) { enqueue_streams(st, s); });
  return st;
}

double link_ms(const Params& p) {
  return static_cast<double>(p.n("n")) * 4.0 / kLinkGBps / 1e6;
}

std::optional<bench::Prediction> predict(Variant v, const Params& p) {
  const double calls = 3.0 * static_cast<double>(p.n("chunks"));
  const double copy_ms = link_ms(p) * (1.0 + 1.0 / std::min<double>(kStreams, calls / 3.0));
  bench::Prediction pr;
  switch (v) {
    case Variant::kStreams:
      pr.time_ms = std::max(copy_ms, 1e-3 * calls * kHostCopyCallUs);
      pr.model = fmt::format("max(H2D at {} GB/s + last D2H, 3 x chunks x {} us host calls)",
                             kLinkGBps, kHostCopyCallUs);
      break;
    case Variant::kGraph:
      pr.time_ms = std::max(copy_ms, 1e-3 * (kGraphLaunchUs + calls * kGapGraphUs));
      pr.model = fmt::format("max(H2D at {} GB/s + last D2H, {} us + 3 x chunks x {} us nodes)",
                             kLinkGBps, kGraphLaunchUs, kGapGraphUs);
      break;
  }
  return pr;
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "graphs_pipeline", "The H2D/kernel/D2H pipeline in 4 streams: stream calls vs one graph");
  b.home("graphs");
  b.bytes_convention("n floats host->device and n floats device->host (PCIe bytes)")
      .int_axis("n", {"4194304"}, {"1048576"}, 1, std::int64_t{1} << 30, "floats in the array")
      .int_axis("chunks", {"4", "64", "256"}, {"64"}, 1, 4096,
                "chunks (each H2D, kernel, D2H), chunk c in stream c % 4")
      .test_point({{"n", "5"}, {"chunks", "5"}})
      .test_point({{"n", "4097"}, {"chunks", "64"}})
      .test_point({{"n", "1000003"}, {"chunks", "7"}})
      .validate([](const Params& p) {
        if (p.n("chunks") > p.n("n")) {
          throw UsageError(
              fmt::format("--chunks: {} chunks of {} floats: at most one chunk per "
                          "float",
                          p.n("chunks"), p.n("n")));
        }
      })
      .bytes([](const Params& p) { return 8.0 * static_cast<double>(p.n("n")); })
      .footprint([](const Params& p) { return 8.0 * static_cast<double>(p.n("n")); })
      .flush_l2(false)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(s));
        std::fill(st.h_out.get(), st.h_out.get() + st.n, -1.0f);
        st.d_out.fill_bytes(0xFF, s);
      })
      .check([](State& st, const Params&, const std::string&) {
        std::vector<float> want(st.n);
        for (std::size_t i = 0; i < st.n; ++i) want[i] = std::fma(st.h_in.get()[i], 2.0f, 1.0f);
        return bench::check_exact(st.h_out.get(), want.data(), st.n);
      });
  for (const VariantInfo& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description, [v](State& st, const Params&, cudaStream_t s) {
       enqueue(st, v, s);
     }).predict([v](const Params& p) { return predict(v, p); });
  }
  b.baseline("streams");
  b.plot({.id = "time",
          .kind = bench::PlotKind::Curve,
          .title = "The pipeline against the number of chunks",
          .x = {"chunks", true, ""},
          .y = {"median_ms", true, "ms"},
          .references = {"baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::graphs
