// Stream timeline model: copy/compute overlap of a segmented pipeline (seed 000 section 6, seed
// 001).
//
// Host-only. The input is split into segments; each segment is H2D copy -> kernel -> D2H copy in
// stream (segment % streams). The host issues every operation at time 0 in the chosen issue order.
// Engines (documented in docs/models.md):
//   * copy_engines == 1: one copy engine serves both directions (H2D and D2H serialize together);
//   * copy_engines >= 2: one H2D engine and one D2H engine. Extra engines (H200 has 3 or more) do
//     not speed up one direction: copies in the same direction still run one after the other.
//   * one compute engine: kernels of different streams serialize on it (default), or overlap
//     freely with concurrent_kernels (optimistic: assumes each kernel leaves room for the others).
// Queueing:
//   * kInOrder (default; pre-Hyper-Q, e.g. Fermi): each engine has ONE hardware queue filled in
//     issue order; an operation waiting for its stream predecessor blocks every operation queued
//     behind it on that engine. This reproduces seed 000's pitfall: with one copy engine and
//     depth-first issue the D2H of segment i blocks the H2D of segment i+1.
//   * kPerStream (Hyper-Q, Kepler GK110 and later, H200): each stream has its own queue; a free
//     engine takes the ready operation that was issued first.
// An operation starts when its stream predecessor has ended and its engine is free. Durations are
// in any unit (the seeds use abstract units; the lessons use milliseconds).
#pragma once

#include <string_view>
#include <vector>

namespace memlab::model {

enum class Stage { kH2D, kKernel, kD2H };
enum class EngineKind { kCopy, kH2D, kCompute, kD2H };  // kCopy: one engine for both directions
enum class IssueOrder {
  kDepthFirst,    // for each segment: H2D, kernel, D2H
  kBreadthFirst,  // all H2D, then all kernels, then all D2H
  kRounds,        // seed 000's loop: for each round of `streams` segments, breadth-first inside it
};
enum class Queueing { kInOrder, kPerStream };

std::string_view to_string(Stage stage);        // H2D, kernel, D2H
std::string_view to_string(EngineKind engine);  // copy, H2D, compute, D2H
std::string_view to_string(IssueOrder order);   // depth, breadth, rounds
std::string_view to_string(Queueing queueing);  // inorder, perstream
// Inverses; throw UsageError naming the parameter (order / queues) for an unknown name.
IssueOrder parse_issue_order(std::string_view name);
Queueing parse_queueing(std::string_view name);

struct Segment {
  double h2d = 0.0;     // duration of the host-to-device copy, >= 0
  double kernel = 0.0;  // duration of the kernel, >= 0
  double d2h = 0.0;     // duration of the device-to-host copy, >= 0
};

// `count` identical segments.
std::vector<Segment> uniform_segments(int count, double h2d, double kernel, double d2h);

struct TimelineParams {
  std::vector<Segment> segments;  // >= 1 segment, total duration > 0
  int streams = 4;                // >= 1; segment i runs in stream i % streams
  int copy_engines = 2;           // >= 1; 1 = shared, >= 2 = one per direction
  IssueOrder order = IssueOrder::kDepthFirst;
  Queueing queueing = Queueing::kInOrder;
  bool concurrent_kernels = false;
};

struct Operation {
  int segment = 0;
  int stream = 0;
  Stage stage = Stage::kH2D;
  EngineKind engine = EngineKind::kCopy;
  int issue_index = 0;  // position in the host's issue order
  double start = 0.0;
  double end = 0.0;
};

struct EngineLoad {
  EngineKind engine = EngineKind::kCopy;
  double work = 0.0;       // sum of the durations run on it
  bool serialized = true;  // false for the compute engine with concurrent kernels
};

struct TimelineResult {
  std::vector<Operation> operations;  // in issue order
  std::vector<EngineLoad> engines;    // the engines in use: copy|H2D, compute, [D2H]
  double makespan = 0.0;              // end of the last operation
  double serial = 0.0;                // everything one after the other (one stream, no overlap)
  double speedup = 1.0;               // serial / makespan
  double lower_bound = 0.0;  // max(busiest serialized engine's work, busiest stream's work)
};

// Throws UsageError for zero segments, negative or non-finite durations, an all-zero pipeline,
// streams < 1 or copy_engines < 1.
TimelineResult simulate_timeline(const TimelineParams& params);

}  // namespace memlab::model
