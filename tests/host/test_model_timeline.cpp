// Stream timeline model: seed 001's 100 -> 55 example, seed 000's one-copy-engine pitfall,
// Hyper-Q and concurrent kernels, schedule invariants over random pipelines, bad inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>

#include "memlab/common/error.hpp"
#include "memlab/model/timeline.hpp"

namespace m = memlab::model;

namespace {

m::TimelineParams pipeline(int segments, double h2d, double kernel, double d2h, int streams,
                           int copy_engines, m::IssueOrder order = m::IssueOrder::kDepthFirst) {
  m::TimelineParams p;
  p.segments = m::uniform_segments(segments, h2d, kernel, d2h);
  p.streams = streams;
  p.copy_engines = copy_engines;
  p.order = order;
  return p;
}

const m::Operation& find(const m::TimelineResult& r, int segment, m::Stage stage) {
  for (const auto& op : r.operations) {
    if (op.segment == segment && op.stage == stage) return op;
  }
  throw std::logic_error("operation not found");
}

std::string usage_message(const m::TimelineParams& p) {
  try {
    m::simulate_timeline(p);
  } catch (const memlab::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// Seed 001: four parts, H2D / kernel / D2H on separate engines, serial 100, streams 55, 1.82x.
// The seed gives no stage durations; 4 x (h + k + d) = 100 and, for identical segments on three
// engines, makespan = (h + k + d) + 3 * max(h, k, d) = 55, so the slowest stage is 10. We use
// H2D 10, kernel 10, D2H 5 (and check that other splits with the same sum and maximum agree).
TEST(TimelineModel, Seed001FourStreamsTwoCopyEngines) {
  const auto r = m::simulate_timeline(pipeline(4, 10, 10, 5, 4, 2));
  EXPECT_DOUBLE_EQ(r.serial, 100.0);
  EXPECT_DOUBLE_EQ(r.makespan, 55.0);
  EXPECT_NEAR(r.speedup, 1.82, 0.005);
  EXPECT_DOUBLE_EQ(r.speedup, 100.0 / 55.0);
  // The staircase of the seed's picture.
  for (int s = 0; s < 4; ++s) {
    EXPECT_DOUBLE_EQ(find(r, s, m::Stage::kH2D).start, 10.0 * s);
    EXPECT_DOUBLE_EQ(find(r, s, m::Stage::kKernel).start, 10.0 * s + 10.0);
    EXPECT_DOUBLE_EQ(find(r, s, m::Stage::kD2H).start, 10.0 * s + 20.0);
    EXPECT_EQ(find(r, s, m::Stage::kH2D).engine, m::EngineKind::kH2D);
    EXPECT_EQ(find(r, s, m::Stage::kD2H).engine, m::EngineKind::kD2H);
    EXPECT_EQ(find(r, s, m::Stage::kKernel).stream, s);
  }
  for (auto split : {std::array<double, 3>{8, 10, 7}, {5, 10, 10}, {10, 7.5, 7.5}}) {
    auto p = pipeline(4, split[0], split[1], split[2], 4, 2);
    EXPECT_DOUBLE_EQ(m::simulate_timeline(p).makespan, 55.0);
    p.order = m::IssueOrder::kBreadthFirst;
    EXPECT_DOUBLE_EQ(m::simulate_timeline(p).makespan, 55.0);
    p.queueing = m::Queueing::kPerStream;
    EXPECT_DOUBLE_EQ(m::simulate_timeline(p).makespan, 55.0);
  }
  // H200 has more than two copy engines; one direction still serializes: same answer.
  EXPECT_DOUBLE_EQ(m::simulate_timeline(pipeline(4, 10, 10, 5, 4, 3)).makespan, 55.0);
}

// Seed 000 / seed 001: with ONE copy engine and depth-first issue, the D2H of part i sits in the
// copy queue before the H2D of part i+1 and blocks it until kernel i is done: no overlap at all.
// Breadth-first ("first all copies in") restores the overlap.
TEST(TimelineModel, OneCopyEngineDepthFirstPitfall) {
  auto r = m::simulate_timeline(pipeline(4, 10, 10, 5, 4, 1));
  EXPECT_DOUBLE_EQ(r.makespan, 100.0);
  EXPECT_DOUBLE_EQ(r.speedup, 1.0);
  EXPECT_DOUBLE_EQ(find(r, 0, m::Stage::kD2H).end, 25.0);
  EXPECT_DOUBLE_EQ(find(r, 1, m::Stage::kH2D).start, 25.0);  // blocked behind D2H 0
  EXPECT_EQ(find(r, 1, m::Stage::kH2D).engine, m::EngineKind::kCopy);

  r = m::simulate_timeline(pipeline(4, 10, 10, 5, 4, 1, m::IssueOrder::kBreadthFirst));
  EXPECT_DOUBLE_EQ(r.makespan, 60.0);  // copy engine busy 4 x 15 = 60 without a gap
  EXPECT_DOUBLE_EQ(r.lower_bound, 60.0);
  EXPECT_DOUBLE_EQ(find(r, 1, m::Stage::kH2D).start, 10.0);
  EXPECT_DOUBLE_EQ(find(r, 3, m::Stage::kKernel).end, 50.0);
  EXPECT_DOUBLE_EQ(find(r, 0, m::Stage::kD2H).start, 40.0);

  // With Hyper-Q (one queue per stream) the copy engine skips the waiting D2H: 65, not 100.
  auto p = pipeline(4, 10, 10, 5, 4, 1);
  p.queueing = m::Queueing::kPerStream;
  r = m::simulate_timeline(p);
  EXPECT_DOUBLE_EQ(find(r, 1, m::Stage::kH2D).start, 10.0);
  EXPECT_DOUBLE_EQ(find(r, 0, m::Stage::kD2H).start, 20.0);
  EXPECT_DOUBLE_EQ(r.makespan, 65.0);
}

// Seed 000's vecAdd loop: two streams, per segment two H2D copies (A and B: 2 units), a kernel
// (1 unit) and one D2H copy (1 unit), on an old GPU with one copy engine. Issuing stream by
// stream serializes everything; the seed's better loop (all copies in of both streams, both
// kernels, both copies back: IssueOrder::kRounds) lets kernel 0 run during the H2D of segment 1.
TEST(TimelineModel, Seed000VecAddLoop) {
  auto depth = m::simulate_timeline(pipeline(2, 2, 1, 1, 2, 1, m::IssueOrder::kDepthFirst));
  EXPECT_DOUBLE_EQ(depth.serial, 8.0);
  EXPECT_DOUBLE_EQ(depth.makespan, 8.0);
  auto rounds = m::simulate_timeline(pipeline(2, 2, 1, 1, 2, 1, m::IssueOrder::kRounds));
  EXPECT_DOUBLE_EQ(rounds.makespan, 6.0);
  EXPECT_DOUBLE_EQ(find(rounds, 0, m::Stage::kKernel).start, 2.0);
  EXPECT_DOUBLE_EQ(find(rounds, 1, m::Stage::kH2D).start, 2.0);
  // Two iterations of the loop (four segments).
  depth = m::simulate_timeline(pipeline(4, 2, 1, 1, 2, 1, m::IssueOrder::kDepthFirst));
  EXPECT_DOUBLE_EQ(depth.makespan, 16.0);
  rounds = m::simulate_timeline(pipeline(4, 2, 1, 1, 2, 1, m::IssueOrder::kRounds));
  EXPECT_DOUBLE_EQ(rounds.makespan, 12.0);
  EXPECT_DOUBLE_EQ(find(rounds, 2, m::Stage::kH2D).start, 6.0);
  EXPECT_EQ(rounds.operations[2].stage, m::Stage::kKernel);  // issue order H,H,K,K,D,D,...
  EXPECT_EQ(rounds.operations[6].segment, 2);
}

// Per-stream queues: an engine that can serve several streams at once keeps draining the stream
// it served last (seen on the H200: docs/streams.md). Breadth-first, 4 unit segments, 2 streams:
// H0 H2 (stream 0) go first, so K0 starts at 2 and the pipeline ends at 8; serving the streams
// round-robin (H0 H1 H2 H3) would delay K0 to 3 and end at 9.
TEST(TimelineModel, PerStreamEnginesDrainOneStreamFirst) {
  auto p = pipeline(4, 1, 1, 1, 2, 3, m::IssueOrder::kBreadthFirst);
  p.queueing = m::Queueing::kPerStream;
  const auto r = m::simulate_timeline(p);
  EXPECT_DOUBLE_EQ(find(r, 2, m::Stage::kH2D).start, 1.0);
  EXPECT_DOUBLE_EQ(find(r, 1, m::Stage::kH2D).start, 2.0);
  EXPECT_DOUBLE_EQ(find(r, 0, m::Stage::kKernel).start, 2.0);
  EXPECT_DOUBLE_EQ(r.makespan, 8.0);
}

TEST(TimelineModel, OneStreamIsSerial) {
  for (int engines : {1, 2}) {
    for (auto order : {m::IssueOrder::kDepthFirst, m::IssueOrder::kBreadthFirst}) {
      auto p = pipeline(5, 3, 4, 2, 1, engines, order);
      const auto r = m::simulate_timeline(p);
      EXPECT_DOUBLE_EQ(r.makespan, 45.0);
      EXPECT_DOUBLE_EQ(r.speedup, 1.0);
    }
  }
}

TEST(TimelineModel, ConcurrentKernels) {
  auto p = pipeline(4, 1, 10, 1, 4, 2);
  EXPECT_DOUBLE_EQ(m::simulate_timeline(p).makespan, 42.0);  // kernels one after the other
  p.concurrent_kernels = true;
  auto r = m::simulate_timeline(p);
  EXPECT_DOUBLE_EQ(r.makespan, 15.0);
  EXPECT_DOUBLE_EQ(find(r, 3, m::Stage::kKernel).start, 4.0);
  EXPECT_FALSE(r.engines[1].serialized);
  p.queueing = m::Queueing::kPerStream;
  EXPECT_DOUBLE_EQ(m::simulate_timeline(p).makespan, 15.0);
}

TEST(TimelineModel, UnevenSegments) {
  m::TimelineParams p;
  p.segments = {{4, 1, 1}, {1, 6, 1}, {1, 1, 4}};
  p.streams = 3;
  p.copy_engines = 2;
  const auto r = m::simulate_timeline(p);
  // H2D: 0-4, 4-5, 5-6. K: 4-5, 5-11, 11-12. D2H: 5-6, 11-12, 12-16.
  EXPECT_DOUBLE_EQ(find(r, 1, m::Stage::kKernel).end, 11.0);
  EXPECT_DOUBLE_EQ(find(r, 2, m::Stage::kD2H).start, 12.0);
  EXPECT_DOUBLE_EQ(r.makespan, 16.0);
  EXPECT_DOUBLE_EQ(r.serial, 20.0);
}

TEST(TimelineModel, InvariantsOverRandomPipelines) {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> dur(0.0, 10.0);
  for (int trial = 0; trial < 400; ++trial) {
    m::TimelineParams p;
    const int n = 1 + static_cast<int>(rng() % 8);
    for (int i = 0; i < n; ++i) p.segments.push_back({dur(rng), dur(rng), dur(rng)});
    p.streams = 1 + static_cast<int>(rng() % 5);
    p.copy_engines = 1 + static_cast<int>(rng() % 3);
    p.order = static_cast<m::IssueOrder>(rng() % 3);
    p.queueing = static_cast<m::Queueing>(rng() % 2);
    p.concurrent_kernels = rng() % 2 == 0;
    const auto r = m::simulate_timeline(p);
    SCOPED_TRACE(testing::Message() << "trial " << trial);
    constexpr double eps = 1e-9;
    EXPECT_GE(r.makespan + eps, r.lower_bound);
    EXPECT_LE(r.makespan, r.serial + eps);
    EXPECT_GE(r.speedup, 1.0 - eps);
    for (const auto& e : r.engines) {
      if (e.serialized) {
        EXPECT_GE(r.makespan + eps, e.work);
      }
    }
    ASSERT_EQ(r.operations.size(), 3u * n);
    for (const auto& a : r.operations) {
      const auto& seg = p.segments[a.segment];
      const double d = a.stage == m::Stage::kH2D      ? seg.h2d
                       : a.stage == m::Stage::kKernel ? seg.kernel
                                                      : seg.d2h;
      EXPECT_NEAR(a.end - a.start, d, eps);
      EXPECT_GE(a.start, 0.0);
      EXPECT_EQ(a.stream, a.segment % p.streams);
      for (const auto& b : r.operations) {
        if (a.issue_index >= b.issue_index) continue;
        // Stream order: a later operation of the same stream starts after the earlier ends.
        if (a.stream == b.stream) {
          EXPECT_GE(b.start + eps, a.end);
        }
        // A serialized engine runs one operation at a time.
        const bool serial_engine = !(a.engine == m::EngineKind::kCompute && p.concurrent_kernels);
        if (a.engine == b.engine && serial_engine && a.end - a.start > eps &&
            b.end - b.start > eps) {
          EXPECT_TRUE(a.end <= b.start + eps || b.end <= a.start + eps);
        }
      }
    }
  }
}

TEST(TimelineModel, BadInputsNameTheParameter) {
  m::TimelineParams p;
  EXPECT_EQ(usage_message(p), "segments: must be >= 1 (got 0)");
  p = pipeline(4, 10, 10, 5, 0, 2);
  EXPECT_EQ(usage_message(p), "streams: must be >= 1 (got 0)");
  p = pipeline(4, 10, 10, 5, 4, 0);
  EXPECT_EQ(usage_message(p), "copy_engines: must be >= 1 (got 0)");
  p = pipeline(4, 10, 10, 5, 4, 2);
  p.segments[2].kernel = -1.0;
  EXPECT_EQ(usage_message(p), "kernel: must be a finite duration >= 0 (got -1 for segment 2)");
  p.segments[2].kernel = std::nan("");
  EXPECT_THROW(m::simulate_timeline(p), memlab::UsageError);
  p = pipeline(3, 0, 0, 0, 2, 2);
  EXPECT_EQ(usage_message(p), "segments: total duration must be > 0 (got 0)");
  EXPECT_THROW(m::uniform_segments(0, 1, 1, 1), memlab::UsageError);
  EXPECT_THROW(m::parse_issue_order("sideways"), memlab::UsageError);
  EXPECT_THROW(m::parse_queueing("magic"), memlab::UsageError);
  EXPECT_EQ(m::parse_issue_order("rounds"), m::IssueOrder::kRounds);
  EXPECT_EQ(m::parse_queueing("perstream"), m::Queueing::kPerStream);
}
