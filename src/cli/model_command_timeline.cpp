// Text output of `memlab model timeline`: figures, a Gantt chart and the operations.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "memlab/model/inputs.hpp"
#include "model_command_text.hpp"

namespace memlab::cli::model_text {
namespace {

namespace m = memlab::model;

std::string engine_label(m::EngineKind e) {
  switch (e) {
    case m::EngineKind::kCopy:
      return "copy engine";
    case m::EngineKind::kH2D:
      return "H2D engine";
    case m::EngineKind::kCompute:
      return "compute";
    case m::EngineKind::kD2H:
      return "D2H engine";
  }
  return "?";
}

void print_gantt(const m::TimelineParams& p, const m::TimelineResult& r, int width) {
  const double scale = width / r.makespan;
  auto cell = [&](double t) {
    const double x = t * scale;  // a tiny makespan makes scale infinite: 0 * inf is NaN
    if (!(x > 0.0)) return 0;
    if (x >= width) return width;
    return std::clamp(static_cast<int>(std::lround(x)), 0, width);
  };
  auto digit = [](int segment) {
    constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
    return kDigits[static_cast<std::size_t>(segment) % kDigits.size()];
  };
  struct Row {
    std::string label;
    std::string cells;
  };
  std::vector<Row> rows;
  for (const auto& load : r.engines) {
    if (load.engine == m::EngineKind::kCompute && !load.serialized) {
      for (int s = 0; s < p.streams; ++s) {
        Row row{fmt::format("kernels s{}", s), std::string(static_cast<std::size_t>(width), '.')};
        for (const auto& op : r.operations) {
          if (op.engine != load.engine || op.stream != s) continue;
          for (int c = cell(op.start); c < cell(op.end); ++c) row.cells[c] = digit(op.segment);
        }
        rows.push_back(row);
      }
      continue;
    }
    Row row{engine_label(load.engine), std::string(static_cast<std::size_t>(width), '.')};
    Row dir{"  direction", std::string(static_cast<std::size_t>(width), ' ')};
    for (const auto& op : r.operations) {
      if (op.engine != load.engine) continue;
      for (int c = cell(op.start); c < cell(op.end); ++c) {
        row.cells[c] = digit(op.segment);
        dir.cells[c] = op.stage == m::Stage::kH2D ? '>' : '<';
      }
    }
    rows.push_back(row);
    if (load.engine == m::EngineKind::kCopy) rows.push_back(dir);
  }
  fmt::print("Gantt chart (one character = {:.3g} time units; digit = segment):\n",
             r.makespan / width);
  for (const auto& row : rows) fmt::print("  {:<12}|{}|\n", row.label, row.cells);
  if (p.copy_engines == 1) fmt::print("  (direction: > = H2D, < = D2H)\n");
  fmt::print("  {:<12}0{}{:g}\n", "", std::string(static_cast<std::size_t>(width), ' '),
             r.makespan);
}

}  // namespace

void print_timeline(const nlohmann::json& params) {
  const m::TimelineInput in = m::timeline_input(params);
  const auto out = m::compute(in);
  const m::TimelineParams& p = out.params;
  const m::TimelineResult& r = out.result;
  fmt::print(
      "Stream timeline model: {} segments, {} stream(s), {} copy engine(s), {} issue, {} "
      "queues{}\n\n",
      p.segments.size(), p.streams, p.copy_engines, m::to_string(p.order), m::to_string(p.queueing),
      p.concurrent_kernels ? ", concurrent kernels" : "");
  fmt::print("  {:<22}{:g}\n", "serial", r.serial);
  fmt::print("  {:<22}{:g}\n", "with streams", r.makespan);
  fmt::print("  {:<22}{:.2f}x\n", "speed-up", r.speedup);
  fmt::print("  {:<22}{:g}\n\n", "lower bound", r.lower_bound);
  print_gantt(p, r, static_cast<int>(in.width));
  fmt::print("\n  {:>5} {:>7} {:>6} {:<7} {:<8} {:>10} {:>10}\n", "issue", "segment", "stream",
             "stage", "engine", "start", "end");
  for (const auto& op : r.operations) {
    fmt::print("  {:>5} {:>7} {:>6} {:<7} {:<8} {:>10g} {:>10g}\n", op.issue_index, op.segment,
               op.stream, m::to_string(op.stage), m::to_string(op.engine), op.start, op.end);
  }
}

}  // namespace memlab::cli::model_text
