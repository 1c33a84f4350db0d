// Stream timeline model: see include/memlab/model/timeline.hpp and docs/models.md.
#include "memlab/model/timeline.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <cmath>
#include <limits>

#include "memlab/common/error.hpp"

namespace memlab::model {

std::string_view to_string(Stage stage) {
  switch (stage) {
    case Stage::kH2D:
      return "H2D";
    case Stage::kKernel:
      return "kernel";
    case Stage::kD2H:
      return "D2H";
  }
  return "unknown";
}

std::string_view to_string(EngineKind engine) {
  switch (engine) {
    case EngineKind::kCopy:
      return "copy";
    case EngineKind::kH2D:
      return "H2D";
    case EngineKind::kCompute:
      return "compute";
    case EngineKind::kD2H:
      return "D2H";
  }
  return "unknown";
}

std::string_view to_string(IssueOrder order) {
  switch (order) {
    case IssueOrder::kDepthFirst:
      return "depth";
    case IssueOrder::kBreadthFirst:
      return "breadth";
    case IssueOrder::kRounds:
      return "rounds";
  }
  return "unknown";
}

std::string_view to_string(Queueing queueing) {
  return queueing == Queueing::kInOrder ? "inorder" : "perstream";
}

IssueOrder parse_issue_order(std::string_view name) {
  for (auto order : {IssueOrder::kDepthFirst, IssueOrder::kBreadthFirst, IssueOrder::kRounds}) {
    if (to_string(order) == name) return order;
  }
  throw UsageError(fmt::format("order: must be depth, breadth or rounds (got '{}')", name));
}

Queueing parse_queueing(std::string_view name) {
  for (auto q : {Queueing::kInOrder, Queueing::kPerStream}) {
    if (to_string(q) == name) return q;
  }
  throw UsageError(fmt::format("queues: must be inorder or perstream (got '{}')", name));
}

std::vector<Segment> uniform_segments(int count, double h2d, double kernel, double d2h) {
  if (count < 1) throw UsageError(fmt::format("segments: must be >= 1 (got {})", count));
  return std::vector<Segment>(static_cast<std::size_t>(count), Segment{h2d, kernel, d2h});
}

namespace {

void check_duration(const char* name, int segment, double value) {
  if (!std::isfinite(value) || value < 0.0) {
    throw UsageError(fmt::format("{}: must be a finite duration >= 0 (got {} for segment {})", name,
                                 value, segment));
  }
}

double duration(const Segment& s, Stage stage) {
  switch (stage) {
    case Stage::kH2D:
      return s.h2d;
    case Stage::kKernel:
      return s.kernel;
    case Stage::kD2H:
      return s.d2h;
  }
  return 0.0;
}

// The operations in the host's issue order (start/end not yet set).
std::vector<Operation> issue(const TimelineParams& p) {
  const int n = static_cast<int>(p.segments.size());
  const bool shared_copy = p.copy_engines == 1;
  auto make = [&](int seg, Stage stage) {
    Operation op;
    op.segment = seg;
    op.stream = seg % p.streams;
    op.stage = stage;
    op.engine = stage == Stage::kKernel ? EngineKind::kCompute
                : shared_copy           ? EngineKind::kCopy
                : stage == Stage::kH2D  ? EngineKind::kH2D
                                        : EngineKind::kD2H;
    return op;
  };
  constexpr Stage kStages[] = {Stage::kH2D, Stage::kKernel, Stage::kD2H};
  std::vector<Operation> ops;
  const int round = p.order == IssueOrder::kDepthFirst     ? 1
                    : p.order == IssueOrder::kBreadthFirst ? n
                                                           : p.streams;
  for (int first = 0; first < n; first += round) {
    const int last = std::min(n, first + round);
    for (Stage stage : kStages) {
      for (int seg = first; seg < last; ++seg) ops.push_back(make(seg, stage));
    }
  }
  // A round of one segment is depth-first; a round of all segments is breadth-first.
  for (int i = 0; i < static_cast<int>(ops.size()); ++i) ops[i].issue_index = i;
  return ops;
}

}  // namespace

TimelineResult simulate_timeline(const TimelineParams& p) {
  if (p.segments.empty()) throw UsageError("segments: must be >= 1 (got 0)");
  if (p.streams < 1) throw UsageError(fmt::format("streams: must be >= 1 (got {})", p.streams));
  if (p.copy_engines < 1) {
    throw UsageError(fmt::format("copy_engines: must be >= 1 (got {})", p.copy_engines));
  }
  double serial = 0.0;
  for (int i = 0; i < static_cast<int>(p.segments.size()); ++i) {
    const auto& s = p.segments[i];
    check_duration("h2d", i, s.h2d);
    check_duration("kernel", i, s.kernel);
    check_duration("d2h", i, s.d2h);
    serial += s.h2d + s.kernel + s.d2h;
  }
  if (!(serial > 0.0)) throw UsageError("segments: total duration must be > 0 (got 0)");

  TimelineResult r;
  r.operations = issue(p);
  auto& ops = r.operations;
  const int count = static_cast<int>(ops.size());
  for (auto& op : ops) op.end = op.start + duration(p.segments[op.segment], op.stage);

  // Engines in use, indexed by EngineKind.
  constexpr int kEngineKinds = 4;
  std::vector<bool> used(kEngineKinds, false);
  for (const auto& op : ops) used[static_cast<int>(op.engine)] = true;
  auto serialized = [&](EngineKind e) {
    return !(e == EngineKind::kCompute && p.concurrent_kernels);
  };

  // predecessor[i]: the previous operation of the same stream in issue order, or -1.
  std::vector<int> predecessor(count, -1);
  {
    std::vector<int> last_of_stream(p.streams, -1);
    for (int i = 0; i < count; ++i) {
      predecessor[i] = last_of_stream[ops[i].stream];
      last_of_stream[ops[i].stream] = i;
    }
  }

  std::vector<bool> scheduled(count, false);
  // engine_free: a serialized engine is free after its last operation ends. A concurrent compute
  // engine never blocks; with in-order queues it still launches in queue order (engine_free then
  // holds the last launch time).
  std::vector<double> engine_free(kEngineKinds, 0.0);
  // With per-stream queues, an engine that can start several streams' heads at the same time
  // keeps serving the stream it served last (the H200 drains one stream's copies back to back:
  // seen in the streams lesson's Gantt charts, docs/streams.md); otherwise the earliest issued.
  std::vector<int> engine_stream(kEngineKinds, -1);
  for (int done = 0; done < count; ++done) {
    int best = -1;
    double best_start = std::numeric_limits<double>::infinity();
    auto consider = [&](int i) {
      const int pred = predecessor[i];
      if (pred >= 0 && !scheduled[pred]) return;
      const double ready = pred >= 0 ? ops[pred].end : 0.0;
      const EngineKind e = ops[i].engine;
      double start = ready;
      if (serialized(e) || p.queueing == Queueing::kInOrder) {
        start = std::max(start, engine_free[static_cast<int>(e)]);
      }
      auto sticky = [&](int k) {
        return p.queueing == Queueing::kPerStream &&
               ops[k].stream == engine_stream[static_cast<int>(ops[k].engine)];
      };
      const bool better = start < best_start ||
                          (start == best_start &&
                           (sticky(i) != sticky(best) ? sticky(i) : i < ops[best].issue_index));
      if (better) {
        best = i;
        best_start = start;
      }
    };
    if (p.queueing == Queueing::kInOrder) {
      // Only the head of each engine's queue may start.
      for (int e = 0; e < kEngineKinds; ++e) {
        for (int i = 0; i < count; ++i) {
          if (!scheduled[i] && static_cast<int>(ops[i].engine) == e) {
            consider(i);
            break;
          }
        }
      }
    } else {
      // The head of each stream may start.
      std::vector<bool> seen(p.streams, false);
      for (int i = 0; i < count; ++i) {
        if (scheduled[i] || seen[ops[i].stream]) continue;
        seen[ops[i].stream] = true;
        consider(i);
      }
    }
    auto& op = ops[best];
    const double length = op.end - op.start;
    op.start = best_start;
    op.end = best_start + length;
    scheduled[best] = true;
    const int e = static_cast<int>(op.engine);
    engine_free[e] = serialized(op.engine) ? op.end : op.start;
    engine_stream[e] = op.stream;
  }

  for (int e = 0; e < kEngineKinds; ++e) {
    if (!used[e]) continue;
    EngineLoad load;
    load.engine = static_cast<EngineKind>(e);
    load.serialized = serialized(load.engine);
    for (const auto& op : ops) {
      if (static_cast<int>(op.engine) == e) load.work += op.end - op.start;
    }
    r.engines.push_back(load);
  }
  std::vector<double> stream_work(p.streams, 0.0);
  for (const auto& op : ops) {
    r.makespan = std::max(r.makespan, op.end);
    stream_work[op.stream] += op.end - op.start;
  }
  r.lower_bound = *std::max_element(stream_work.begin(), stream_work.end());
  for (const auto& load : r.engines) {
    if (load.serialized) r.lower_bound = std::max(r.lower_bound, load.work);
  }
  r.serial = serial;
  r.speedup = serial / r.makespan;
  return r;
}

}  // namespace memlab::model
