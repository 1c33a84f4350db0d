// What a lesson declares about its result, beside its axes and variants (docs/lessons-json.md):
// the plots its records are drawn as, the axis values each variant applies to, and the findings
// hook that concludes from its records. Plain data, host and device compilers alike (no JSON
// library here: the findings hook sees JSON only through nlohmann/json_fwd.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace memlab::bench {

// One chart per kind in every front end (the web lab, the report).
enum class PlotKind { Curve, Bars, Ladder, Heatmap, Gantt, Roofline, Stacked };

inline const char* plot_kind_name(PlotKind k) {
  switch (k) {
    case PlotKind::Curve:
      return "curve";
    case PlotKind::Bars:
      return "bars";
    case PlotKind::Ladder:
      return "ladder";
    case PlotKind::Heatmap:
      return "heatmap";
    case PlotKind::Gantt:
      return "gantt";
    case PlotKind::Roofline:
      return "roofline";
    case PlotKind::Stacked:
      return "stacked";
  }
  return "curve";
}

// x: an axis name or "variant". y: a record key (gbps, gflops, pct_memcpy, pct_peak_bandwidth,
// pct_fp32_peak), median_ms, speedup, slowdown, figure:NAME or counter:NAME.
struct PlotAxis {
  std::string field{};
  bool log = false;
  std::string unit{};
};

struct PlotHeat {
  std::string row{}, col{};  // kind heatmap: the two axes
};

// One plot of a lesson, exactly the JSON of docs/lessons-json.md ("Plot"). Declared with
// designated initializers in the lesson's experiment.cpp:
//   b.plot({.id = "gbps", .title = "Bandwidth against the stride",
//           .x = {"stride", true, ""}, .y = {"gbps", false, "GB/s"}, .facet = "elem",
//           .references = {"memcpy"}, .model = true});
struct Plot {
  std::string id{};  // unique in the lesson
  PlotKind kind = PlotKind::Curve;
  std::string title{};  // English
  PlotAxis x{};
  PlotAxis y{};
  std::string series = "variant";  // "variant", an axis name, or "" (one series)
  std::string facet{};             // optional axis: one panel per value
  std::vector<std::pair<std::string, std::string>> where{};  // records whose params match
  std::vector<std::string> variants{};                       // subset; empty: every variant
  // memcpy, peak_bandwidth, peak_fp32, l1_bytes, l2_bytes, vendor, baseline, findings
  std::vector<std::string> references{};
  bool model = false;                // the prediction as a dashed line
  std::vector<std::string> stack{};  // kind stacked: the parts of y (y fields)
  PlotHeat heat{};                   // kind heatmap
};

// What a lesson concludes from its records (docs/lessons-json.md "Finding"), e.g. hierarchy's
// latency levels: {"level.L2", "L2", 286.4, "cycles", 2097152, 33554432}.
struct Finding {
  std::string key{};  // stable: explainers read findings by key ("level.L1", "latency.shared")
  std::string label{};
  double value = 0;
  std::string unit{};
  std::optional<double> x_from{}, x_to{};  // the range of the plot's x it holds over, if any
};

// The findings hook of an experiment (host-only: it is called by report::lessons_json, never by
// the runner). `records`: the JSON array of this lesson's records of one run (schema 1 or 2, as
// written by report::render_json); `context`: that run's "context" object (device sizes, clocks).
// Define it in experiment.cpp (g++), which may include <nlohmann/json.hpp>.
using FindingsFn = std::function<std::vector<Finding>(const nlohmann::json& records,
                                                      const nlohmann::json& context)>;

// The values of one axis a variant applies to: a list of values (canonical spelling) or an
// inclusive range of an integer axis. The plan crosses the variant only with points it admits.
struct VariantAxis {
  std::string axis;
  std::vector<std::string> values;  // non-empty: these values only
  std::optional<std::int64_t> min;  // a range: min <= value <= max (either may be open)
  std::optional<std::int64_t> max;
};

}  // namespace memlab::bench
