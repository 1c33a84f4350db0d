// The streams pipeline: every order's output against the reference, and the recorded intervals:
// within one stream each operation starts after the previous one ended. default_stream: the
// legacy default stream serialises the three kernels.
#include <gtest/gtest.h>

#include "gpu_test.hpp"

#include <cstring>
#include <vector>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/fill.hpp"
#include "streams/pipeline.hpp"
#include "streams/reference.hpp"

namespace memlab::lessons::streams {
namespace {

using memlab::gpu_test::have_device;

struct Buffers {
  explicit Buffers(std::size_t count, bool pinned)
      : n(count),
        pa(pinned ? count : 0),
        pb(pinned ? count : 0),
        pc(pinned ? count : 0),
        va(pinned ? 0 : count),
        vb(pinned ? 0 : count),
        vc(pinned ? 0 : count),
        da(count),
        db(count),
        dc(count) {
    for (std::size_t i = 0; i < n; ++i) {
      a(i) = random_uniform(7, i, -1.0f, 1.0f);
      b(i) = random_uniform(8, i, -1.0f, 1.0f);
    }
  }
  float& a(std::size_t i) { return pa.size() ? pa[i] : va[i]; }
  float& b(std::size_t i) { return pb.size() ? pb[i] : vb[i]; }
  float* c() { return pc.size() ? pc.get() : vc.data(); }
  Pipeline pipeline(int segments, int work) {
    return {&a(0), &b(0), c(), da.get(), db.get(), dc.get(), n, segments, work};
  }
  std::size_t n;
  PinnedBuffer<float> pa, pb, pc;
  std::vector<float> va, vb, vc;
  DeviceBuffer<float> da, db, dc;
};

void expect_output(Buffers& buf, int work, const char* what) {
  std::size_t bad = 0;
  for (std::size_t i = 0; i < buf.n; ++i) {
    bad += buf.c()[i] != add_work_reference(buf.a(i), buf.b(i), work);
  }
  EXPECT_EQ(bad, 0u) << what;
}

TEST(Streams, EveryOrderComputesThePipelineAndKeepsStreamOrder) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  const std::size_t n = 300007;  // not a multiple of the segments or the block
  const int segments = 7, streams = 3, work = 50;
  for (bool pinned : {true, false}) {
    Buffers buf(n, pinned);
    PipelineRunner runner(streams);
    Stream origin;
    for (Order order : {Order::kSerial, Order::kDepthFirst, Order::kBreadthFirst, Order::kRounds}) {
      std::memset(buf.c(), 0xFF, n * sizeof(float));
      buf.dc.fill_bytes(0xFF, origin);
      runner.enqueue(buf.pipeline(segments, work), order, origin);
      origin.synchronize();
      expect_output(buf, work, "enqueue");

      std::memset(buf.c(), 0xFF, n * sizeof(float));
      buf.dc.fill_bytes(0xFF, origin);
      const auto ops = runner.run_instrumented(buf.pipeline(segments, work), order, origin);
      expect_output(buf, work, "instrumented");
      const std::size_t expected_ops = order == Order::kSerial ? 3u : 3u * segments;
      ASSERT_EQ(ops.size(), expected_ops);
      EXPECT_TRUE(streams_in_order(ops));
      // The same check spelled out: per stream, in issue order.
      for (int s = 0; s < streams; ++s) {
        double last_end = -1.0;
        for (const auto& op : ops) {
          if (op.stream != s) continue;
          EXPECT_GE(op.ready + 1e-3, last_end) << "stream " << s << " segment " << op.segment;
          EXPECT_GE(op.end, op.ready);
          last_end = op.end;
        }
      }
      if (order == Order::kSerial) {
        for (const auto& op : ops) EXPECT_EQ(op.stream, 0);
      }
    }
  }
}

TEST(Streams, PlanIssuesDepthAndBreadthFirst) {
  // Host logic, but it lives with the GPU pipeline: the issue orders of the seeds.
  const auto depth = plan(Order::kDepthFirst, 2, 2);
  ASSERT_EQ(depth.size(), 6u);
  EXPECT_EQ(depth[1].kind, OpKind::kKernel);
  EXPECT_EQ(depth[1].segment, 0);
  EXPECT_EQ(depth[3].segment, 1);
  EXPECT_EQ(depth[3].stream, 1);
  const auto breadth = plan(Order::kBreadthFirst, 3, 2);
  ASSERT_EQ(breadth.size(), 9u);
  EXPECT_EQ(breadth[2].kind, OpKind::kH2D);
  EXPECT_EQ(breadth[2].stream, 0);  // segment 2 in stream 2 % 2
  EXPECT_EQ(breadth[3].kind, OpKind::kKernel);
  // Rounds of 2 segments: H2D 0, H2D 1, K 0, K 1, D2H 0, D2H 1, then segment 2's round.
  const auto rounds = plan(Order::kRounds, 3, 2);
  ASSERT_EQ(rounds.size(), 9u);
  EXPECT_EQ(rounds[1].kind, OpKind::kH2D);
  EXPECT_EQ(rounds[1].segment, 1);
  EXPECT_EQ(rounds[2].kind, OpKind::kKernel);
  EXPECT_EQ(rounds[2].segment, 0);
  EXPECT_EQ(rounds[5].kind, OpKind::kD2H);
  EXPECT_EQ(rounds[6].kind, OpKind::kH2D);
  EXPECT_EQ(rounds[6].segment, 2);
  EXPECT_EQ(rounds[8].kind, OpKind::kD2H);
}

TEST(DefaultStream, LegacyDefaultStreamSerialisesTheKernels) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  const bench::Experiment* e = bench::find_experiment("default_stream");
  ASSERT_NE(e, nullptr);
  bench::Params p(std::vector<std::pair<std::string, std::string>>{{"work", "20000"}});
  auto inst = e->setup(p, 99);
  Stream s;
  for (const char* name : {"legacy", "per_thread"}) {
    const bench::Variant* v = e->find_variant(name);
    ASSERT_NE(v, nullptr);
    EXPECT_TRUE(bench::verify_variant(*e, *inst, p, *v, s).ok) << name;
    bench::Extras x;
    v->inspect(*inst, p, x);
    double overlap = -1;
    for (const auto& [k, val] : x.figures) {
      if (k == "overlap") overlap = val;
    }
    ASSERT_GE(overlap, 0.0) << name;
    // Legacy: kernel 0 waits for stream 1, stream 2 waits for kernel 0: never two at once.
    if (std::string(name) == "legacy") {
      EXPECT_LT(overlap, 1e-3) << x.text;
    }
  }
}

}  // namespace
}  // namespace memlab::lessons::streams
