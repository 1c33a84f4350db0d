// `memlab model timeline` as an input struct, validate, compute and JSON (inputs.hpp).
#include <fmt/format.h>

#include "memlab/model/inputs.hpp"

namespace memlab::model {

using nlohmann::json;

const Fields<TimelineInput>& timeline_fields() {
  using In = TimelineInput;
  static const Fields<In> fields = [] {
    Fields<In> f = {
        int_field<In>("segments", &In::segments, 1, kMaxSegments, "number of identical segments"),
        float_field<In>("h2d", &In::h2d, 0, kMaxDuration, "H2D copy duration per segment"),
        float_field<In>("kernel", &In::kernel, 0, kMaxDuration, "kernel duration per segment"),
        float_field<In>("d2h", &In::d2h, 0, kMaxDuration, "D2H copy duration per segment"),
    };
    ParamSpec spec{"segment",
                   ParamType::kSegmentList,
                   "H2D,KERNEL,D2H of one segment; repeat to list them all (replaces the above)",
                   0,
                   kMaxDuration,
                   {}};
    f.push_back({spec, [spec](In& in, const json& v) { in.segment = parse_segment_list(spec, v); },
                 [](const In& in) { return json(in.segment); }});
    f.push_back(int_field<In>("streams", &In::streams, 1, 1024,
                              "streams; segment i runs in stream i % streams"));
    f.push_back(int_field<In>("copy-engines", &In::copy_engines, 1, 64,
                              "1 = one engine for both directions; >= 2 = one per direction"));
    f.push_back(choice_field<In>("order", &In::order, {"depth", "breadth", "rounds"},
                                 "issue order: depth|breadth|rounds"));
    f.push_back(
        choice_field<In>("queues", &In::queues, {"inorder", "perstream"},
                         "inorder (one queue per engine, pre-Hyper-Q) | perstream (Hyper-Q)"));
    f.push_back(bool_field<In>("concurrent-kernels", &In::concurrent_kernels,
                               "kernels of different streams may overlap"));
    f.push_back(int_field<In>("width", &In::width, 10, 400,
                              "Gantt chart width in characters (10-400; text output only)"));
    return f;
  }();
  return fields;
}

void validate(const TimelineInput& in) {
  check_ranges(timeline_fields(), in);
  if (in.segment.size() > static_cast<std::size_t>(kMaxSegments)) {
    fail("--segment", fmt::format("at most {} segments (got {})", kMaxSegments, in.segment.size()));
  }
  double total = 0.0;
  if (in.segment.empty()) {
    total = static_cast<double>(in.segments) * (in.h2d + in.kernel + in.d2h);
  } else {
    for (const auto& s : in.segment) total += s[0] + s[1] + s[2];
  }
  if (!(total > 0.0)) {
    fail(in.segment.empty() ? "--segments" : "--segment", "the total duration must be > 0 (got 0)");
  }
}

TimelineOutput compute(const TimelineInput& in) {
  validate(in);
  TimelineOutput out;
  TimelineParams& p = out.params;
  if (in.segment.empty()) {
    p.segments = uniform_segments(static_cast<int>(in.segments), in.h2d, in.kernel, in.d2h);
  } else {
    for (const auto& s : in.segment) p.segments.push_back(Segment{s[0], s[1], s[2]});
  }
  p.streams = static_cast<int>(in.streams);
  p.copy_engines = static_cast<int>(in.copy_engines);
  p.order = parse_issue_order(in.order);
  p.queueing = parse_queueing(in.queues);
  p.concurrent_kernels = in.concurrent_kernels;
  out.result = simulate_timeline(p);
  return out;
}

json to_json(const TimelineOutput& out) {
  const TimelineParams& p = out.params;
  const TimelineResult& r = out.result;
  json ops = json::array();
  for (const auto& op : r.operations) {
    ops.push_back({{"segment", op.segment},
                   {"stream", op.stream},
                   {"stage", std::string(to_string(op.stage))},
                   {"engine", std::string(to_string(op.engine))},
                   {"issue_index", op.issue_index},
                   {"start", op.start},
                   {"end", op.end}});
  }
  json engines = json::array();
  for (const auto& e : r.engines) {
    engines.push_back({{"engine", std::string(to_string(e.engine))},
                       {"work", e.work},
                       {"serialized", e.serialized}});
  }
  json segments = json::array();
  for (const auto& s : p.segments) segments.push_back({s.h2d, s.kernel, s.d2h});
  return {{"model", "timeline"},
          {"params",
           {{"segments", segments},
            {"streams", p.streams},
            {"copy_engines", p.copy_engines},
            {"order", std::string(to_string(p.order))},
            {"queues", std::string(to_string(p.queueing))},
            {"concurrent_kernels", p.concurrent_kernels}}},
          {"result",
           {{"makespan", r.makespan},
            {"serial", r.serial},
            {"speedup", r.speedup},
            {"lower_bound", r.lower_bound},
            {"engines", engines},
            {"operations", ops}}}};
}

TimelineInput timeline_input(const json& params) {
  TimelineInput in;
  assign(timeline_fields(), "timeline", params, in);
  validate(in);
  return in;
}

}  // namespace memlab::model
