// Interval arithmetic of the streams lesson: engine inference, overlap, in-order check, chart.
#include <gtest/gtest.h>

#include "common/intervals.hpp"

namespace memlab::lessons::streams {
namespace {

Interval op(int stream, OpKind kind, double ready, double end, int segment = 0) {
  Interval i;
  i.segment = segment;
  i.stream = stream;
  i.kind = kind;
  i.ready = i.start = ready;
  i.end = end;
  return i;
}

TEST(StreamsIntervals, EngineSerializeStartsEachCopyAfterThePreviousOnItsEngine) {
  // Two H2D copies both "ready" at 0 (two streams reached them at once); the engine ran them one
  // after the other: 0..2 and 2..4. The kernel of stream 0 was ready at 2.
  std::vector<Interval> ops = {op(0, OpKind::kH2D, 0, 2), op(1, OpKind::kH2D, 0, 4),
                               op(0, OpKind::kKernel, 2, 5)};
  engine_serialize(ops);
  EXPECT_DOUBLE_EQ(ops[0].start, 0.0);
  EXPECT_DOUBLE_EQ(ops[1].start, 2.0);  // not 0: the engine was busy until 2
  EXPECT_DOUBLE_EQ(ops[2].start, 2.0);  // another engine: unaffected
}

TEST(StreamsIntervals, OverlapStatsOfAThreeStagePipeline) {
  // H2D 0..4, kernel 2..6, D2H 5..8: makespan 8, busy 4 + 4 + 3 = 11.
  // Two or more running: 2..4 (H2D + kernel) and 5..6 (kernel + D2H) = 3.
  const std::vector<Interval> ops = {op(0, OpKind::kH2D, 0, 4), op(1, OpKind::kKernel, 2, 6),
                                     op(2, OpKind::kD2H, 5, 8)};
  const OverlapStats s = overlap_stats(ops);
  EXPECT_DOUBLE_EQ(s.makespan, 8.0);
  EXPECT_DOUBLE_EQ(s.busy, 11.0);
  EXPECT_DOUBLE_EQ(s.engine_busy[0], 4.0);
  EXPECT_DOUBLE_EQ(s.engine_busy[1], 4.0);
  EXPECT_DOUBLE_EQ(s.engine_busy[2], 3.0);
  EXPECT_DOUBLE_EQ(s.concurrency, 11.0 / 8.0);
  EXPECT_DOUBLE_EQ(s.overlap, 3.0 / 8.0);
  EXPECT_DOUBLE_EQ(s.covered, 1.0);
}

TEST(StreamsIntervals, SerialOperationsHaveNoOverlapAndGapsAreNotCovered) {
  // Back to back (an end equal to the next start is not overlap), then a gap of 1.
  const std::vector<Interval> ops = {op(0, OpKind::kH2D, 0, 2), op(0, OpKind::kKernel, 2, 3),
                                     op(0, OpKind::kD2H, 4, 5)};
  const OverlapStats s = overlap_stats(ops);
  EXPECT_DOUBLE_EQ(s.makespan, 5.0);
  EXPECT_DOUBLE_EQ(s.overlap, 0.0);
  EXPECT_DOUBLE_EQ(s.covered, 4.0 / 5.0);
  EXPECT_DOUBLE_EQ(s.concurrency, 4.0 / 5.0);
}

TEST(StreamsIntervals, InOrderCheckCatchesAnOperationStartingBeforeItsPredecessorEnded) {
  std::vector<Interval> ok = {op(0, OpKind::kH2D, 0, 2), op(1, OpKind::kH2D, 0, 3),
                              op(0, OpKind::kKernel, 2, 4), op(1, OpKind::kKernel, 3.5, 5)};
  EXPECT_TRUE(streams_in_order(ok));
  ok[3].ready = 2.5;  // stream 1's kernel "ready" before its H2D (ends at 3) finished
  EXPECT_FALSE(streams_in_order(ok));
}

TEST(StreamsIntervals, GanttDrawsOneRowPerStream) {
  const std::vector<Interval> ops = {op(0, OpKind::kH2D, 0, 5), op(1, OpKind::kKernel, 5, 10)};
  const std::string g = gantt(ops, 10);
  EXPECT_NE(g.find("stream  0 |HHHHH.....|"), std::string::npos) << g;
  EXPECT_NE(g.find("stream  1 |.....KKKKK|"), std::string::npos) << g;
}

TEST(StreamsIntervals, JsonHoldsEveryInterval) {
  const std::vector<Interval> ops = {op(2, OpKind::kD2H, 1, 3, 7)};
  EXPECT_EQ(intervals_json(ops),
            "[{\"segment\":7,\"stream\":2,\"op\":\"D2H\",\"ready_ms\":1.000000,\"start_ms\":1."
            "000000,\"end_ms\":3.000000}]");
}

}  // namespace
}  // namespace memlab::lessons::streams
