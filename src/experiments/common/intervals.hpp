// Per-operation intervals of a stream pipeline, measured with CUDA events, and the arithmetic on
// them: which engine ran what when, the achieved overlap, an ASCII Gantt chart and the raw JSON.
// Host-only and header-only (the host tests include it directly).
//
// An event recorded before an operation completes when its stream reaches the operation, not
// when the operation's engine takes it: an H2D copy queued behind the copies of other streams
// "starts" early. `engine_serialize` infers the engine start: on each engine (H2D, kernel, D2H)
// operations run one after the other, so an operation starts at max(its ready time, the end of
// the engine's previous operation) with the operations taken in the order they ended.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace memlab::lessons {

enum class OpKind { kH2D = 0, kKernel = 1, kD2H = 2 };

inline const char* op_name(OpKind k) {
  return k == OpKind::kH2D ? "H2D" : k == OpKind::kKernel ? "kernel" : "D2H";
}

struct Interval {
  int segment = 0;
  int stream = 0;
  OpKind kind = OpKind::kH2D;
  double ready = 0;  // ms: the event before the operation completed (its stream reached it)
  double start = 0;  // ms: when its engine started it (engine_serialize), initially = ready
  double end = 0;    // ms: the event after the operation completed
};

// Sets `start` of every interval: max(ready, end of the previous operation on the same engine),
// operations on one engine ordered by their end. Never moves a start after its end.
inline void engine_serialize(std::vector<Interval>& ops) {
  for (int kind = 0; kind < 3; ++kind) {
    std::vector<Interval*> on;
    for (auto& op : ops) {
      if (static_cast<int>(op.kind) == kind) on.push_back(&op);
    }
    std::sort(on.begin(), on.end(), [](const Interval* a, const Interval* b) {
      return a->end < b->end || (a->end == b->end && a->ready < b->ready);
    });
    double free_at = -INFINITY;
    for (Interval* op : on) {
      op->start = std::min(op->end, std::max(op->ready, free_at));
      free_at = op->end;
    }
  }
}

struct OverlapStats {
  double makespan = 0;      // last end - first start
  double busy = 0;          // sum of all durations (end - start)
  double engine_busy[3]{};  // per engine: H2D, kernel, D2H
  double concurrency = 0;   // busy / makespan: 1 = no overlap, 3 = all three engines always busy
  double overlap = 0;       // fraction of the makespan with two or more operations running
  double covered = 0;       // fraction of the makespan with at least one operation running
};

// Sweep over the start/end points of [start, end) intervals.
inline OverlapStats overlap_stats(const std::vector<Interval>& ops) {
  OverlapStats s;
  if (ops.empty()) return s;
  std::vector<std::pair<double, int>> points;
  double first = INFINITY, last = -INFINITY;
  for (const auto& op : ops) {
    const double d = std::max(0.0, op.end - op.start);
    s.busy += d;
    s.engine_busy[static_cast<int>(op.kind)] += d;
    first = std::min(first, op.start);
    last = std::max(last, op.end);
    if (d > 0) {
      points.emplace_back(op.start, +1);
      points.emplace_back(op.end, -1);
    }
  }
  s.makespan = last - first;
  if (!(s.makespan > 0)) return s;
  std::sort(points.begin(), points.end());  // at equal times, ends (-1) before starts (+1)
  int active = 0;
  double t = first, two = 0, one = 0;
  for (const auto& [time, delta] : points) {
    if (active >= 1) one += time - t;
    if (active >= 2) two += time - t;
    active += delta;
    t = time;
  }
  s.concurrency = s.busy / s.makespan;
  s.overlap = two / s.makespan;
  s.covered = one / s.makespan;
  return s;
}

// True when, within every stream, each operation (in the order given: issue order) starts at or
// after the end of the previous one of that stream, using the recorded (ready) times.
inline bool streams_in_order(const std::vector<Interval>& ops, double tolerance_ms = 1e-3) {
  std::vector<std::pair<int, double>> last_end;  // stream -> end of its last operation
  for (const auto& op : ops) {
    auto it = std::find_if(last_end.begin(), last_end.end(),
                           [&](const auto& p) { return p.first == op.stream; });
    if (it == last_end.end()) {
      last_end.emplace_back(op.stream, op.end);
      continue;
    }
    if (op.ready + tolerance_ms < it->second) return false;
    it->second = op.end;
  }
  return true;
}

// One row per stream, `width` columns spanning the makespan: H (H2D), K (kernel), D (D2H),
// '.' idle; where two operations of a row share a column the later one wins.
inline std::string gantt(const std::vector<Interval>& ops, int width = 72) {
  if (ops.empty()) return "";
  double first = INFINITY, last = -INFINITY;
  int streams = 0;
  for (const auto& op : ops) {
    first = std::min(first, op.start);
    last = std::max(last, op.end);
    streams = std::max(streams, op.stream + 1);
  }
  const double span = std::max(last - first, 1e-9);
  std::vector<std::string> rows(static_cast<std::size_t>(streams),
                                std::string(static_cast<std::size_t>(width), '.'));
  for (const auto& op : ops) {
    const char mark = op.kind == OpKind::kH2D ? 'H' : op.kind == OpKind::kKernel ? 'K' : 'D';
    auto col = [&](double t) {
      return std::clamp(static_cast<int>((t - first) / span * width), 0, width - 1);
    };
    const int a = col(op.start);
    const int b = std::max(a, col(op.end - 1e-12));
    for (int c = a; c <= b; ++c) rows[static_cast<std::size_t>(op.stream)][c] = mark;
  }
  std::string out =
      fmt::format("    timeline 0 .. {:.3f} ms (H = H2D, K = kernel, D = D2H)\n", span);
  for (int s = 0; s < streams; ++s) {
    out += fmt::format("    stream {:>2} |{}|\n", s, rows[static_cast<std::size_t>(s)]);
  }
  return out;
}

// The raw intervals as a JSON array (milliseconds from the first event).
inline std::string intervals_json(const std::vector<Interval>& ops) {
  std::string out = "[";
  for (std::size_t i = 0; i < ops.size(); ++i) {
    const auto& op = ops[i];
    out += fmt::format(
        "{}{{\"segment\":{},\"stream\":{},\"op\":\"{}\",\"ready_ms\":{:.6f},\"start_ms\":{:.6f},"
        "\"end_ms\":{:.6f}}}",
        i == 0 ? "" : ",", op.segment, op.stream, op_name(op.kind), op.ready, op.start, op.end);
  }
  return out + "]";
}

}  // namespace memlab::lessons
