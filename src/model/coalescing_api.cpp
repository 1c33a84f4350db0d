// `memlab model coalescing` as an input struct, validate, compute and JSON (inputs.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "memlab/model/inputs.hpp"

namespace memlab::model {

using nlohmann::json;

const Fields<CoalescingInput>& coalescing_fields() {
  using In = CoalescingInput;
  static const Fields<In> fields = {
      choice_field<In>("pattern", &In::pattern,
                       {"linear", "strided", "offset", "random", "aos", "row", "column"},
                       "linear|strided|offset|random|aos|row|column"),
      int_field<In>("elem-size", &In::elem_size, 1, 16, "bytes per element: 1, 2, 4, 8 or 16"),
      int_field<In>("stride", &In::stride, 1, kMaxIndex, "strided: elements between lanes (>= 1)"),
      int_field<In>("offset", &In::offset, 0, kMaxIndex, "elements added to every index (>= 0)"),
      uint_field<In>("seed", &In::seed, 0u, UINT64_MAX, "random: generator seed"),
      int_field<In>("range", &In::range, 1, kMaxIndex, "random: indices in [0, range)"),
      int_field<In>("fields", &In::fields, 1, kMaxIndex, "aos: fields per structure"),
      int_field<In>("field", &In::field, 0, kMaxIndex, "aos: the field read"),
      int_field<In>("width", &In::width, 1, kMaxIndex,
                    "row/column: row width of the 2D array (elements)"),
      int_field<In>("row", &In::row, 0, kMaxIndex, "row: the row read"),
      int_field<In>("col", &In::col, 0, kMaxIndex, "column: the column read"),
      choice_field<In>("kernel", &In::kernel, {"read", "copy"},
                       "time: read (resident grid, 4 loads in flight) or copy (1 per thread)"),
      int_field<In>("bytes", &In::bytes, 32, kMaxIndex, "time: useful bytes read by the pass"),
      int_field<In>("sms", &In::sms, 1, 1024, "time: streaming multiprocessors"),
      float_field<In>("clock-mhz", &In::clock_mhz, 1.0, 10000.0, "time: SM clock in MHz"),
      int_field<In>("threads-per-sm", &In::threads_per_sm, 32, 4096,
                    "time: resident threads per SM"),
      float_field<In>("memcpy-gbps", &In::memcpy_gbps, 1.0, 1e6,
                      "time: measured memcpy bandwidth (GB/s) for the DRAM bound"),
  };
  return fields;
}

namespace {

Pattern pattern_of(const CoalescingInput& in) {
  Pattern p;
  p.kind = parse_access_kind(in.pattern);
  p.stride = in.stride;
  p.offset = in.offset;
  p.seed = in.seed;
  p.range = in.range;
  p.fields = in.fields;
  p.field = in.field;
  p.width = in.width;
  p.row_or_col = p.kind == AccessKind::kColumn ? in.col : in.row;
  return p;
}

}  // namespace

void validate(const CoalescingInput& in) {
  if (in.elem_size != 1 && in.elem_size != 2 && in.elem_size != 4 && in.elem_size != 8 &&
      in.elem_size != 16) {
    fail("--elem-size", fmt::format("must be 1, 2, 4, 8 or 16 bytes (got {})", in.elem_size));
  }
  check_ranges(coalescing_fields(), in);
  const Pattern p = pattern_of(in);
  if (p.kind == AccessKind::kAosField && in.field >= in.fields) {
    fail("--field", fmt::format("must be in [0, {}] (got {})", in.fields - 1, in.field));
  }
  if (p.kind == AccessKind::kColumn && in.col >= in.width) {
    fail("--col", fmt::format("must be in [0, {}] (got {})", in.width - 1, in.col));
  }
  // The highest element a lane of the pass reads, without the offset, and the flag that sets it.
  // In doubles: exact below 2^53, and the same on every platform (WebAssembly included).
  double reach = 0.0;
  const char* flag = "--offset";
  switch (p.kind) {
    case AccessKind::kLinear:
    case AccessKind::kOffset:
      reach = 31.0;
      break;
    case AccessKind::kStrided:
      reach = 31.0 * static_cast<double>(in.stride);
      flag = "--stride";
      break;
    case AccessKind::kRandom:
      reach = static_cast<double>(in.range) - 1.0;
      flag = "--range";
      break;
    case AccessKind::kAosField:
      reach = 31.0 * static_cast<double>(in.fields) + static_cast<double>(in.field);
      flag = "--fields";
      break;
    case AccessKind::kRow:
      reach = static_cast<double>(in.row) * static_cast<double>(in.width) + 31.0;
      flag = "--row";
      break;
    case AccessKind::kColumn:
      reach = 31.0 * static_cast<double>(in.width) + static_cast<double>(in.col);
      flag = "--width";
      break;
  }
  const double e = static_cast<double>(in.elem_size);
  const double end = (reach + static_cast<double>(in.offset) + 1.0) * e;
  if (end > kMaxAddress) {
    if ((reach + 1.0) * e <= kMaxAddress) flag = "--offset";
    fail(flag, fmt::format("the warp's highest byte address ({:.0f}) must be below 2^53", end - e));
  }
}

CoalescingOutput compute(const CoalescingInput& in) {
  validate(in);
  CoalescingOutput out;
  out.pattern = pattern_of(in);
  out.elem_size = static_cast<int>(in.elem_size);
  out.warp = analyze_warp(out.pattern, out.elem_size);
  out.array_pass_efficiency = coalescing_efficiency(out.pattern, out.elem_size);
  out.kernel = parse_kernel_shape(in.kernel);
  out.bytes = static_cast<double>(in.bytes);
  out.device.sm_count = static_cast<int>(in.sms);
  out.device.sm_clock_mhz = in.clock_mhz;
  out.device.max_threads_per_sm = static_cast<int>(in.threads_per_sm);
  out.device.memcpy_gbps = in.memcpy_gbps;
  out.time = pass_time(out.pattern, out.elem_size, out.bytes, out.kernel, out.device);
  return out;
}

namespace {

json time_json(const CoalescingOutput& out) {
  const PassTime& t = out.time;
  return {{"kernel", std::string(to_string(out.kernel))},
          {"bytes", out.bytes},
          {"device",
           {{"sms", out.device.sm_count},
            {"clock_mhz", out.device.sm_clock_mhz},
            {"threads_per_sm", out.device.max_threads_per_sm},
            {"memcpy_gbps", out.device.memcpy_gbps}}},
          {"bound", std::string(to_string(t.bound))},
          {"time_ms", t.time_ms},
          {"bounds_ms", {{"dram", t.dram_ms}, {"latency", t.latency_ms}, {"lsu", t.lsu_ms}}},
          {"dram_bytes", t.dram_bytes},
          {"units_per_chunk", t.units_per_chunk},
          {"chunk_factor", t.chunk_factor},
          {"requests", t.requests},
          {"resident_warps", t.resident_warps},
          {"loads_in_flight", t.loads_in_flight},
          {"bytes_in_flight_per_sm", t.bytes_in_flight_per_sm},
          {"constants",
           {{"loaded_latency_cycles", kLoadedLatencyCycles},
            {"block_turnaround_cycles", kBlockTurnaroundCycles},
            {"dram_chunk_overhead_units", kDramChunkOverheadUnits},
            {"wavefronts_per_cycle", kWavefrontsPerCycle}}}};
}

}  // namespace

json to_json(const CoalescingOutput& out) {
  const Pattern& p = out.pattern;
  const WarpAccess& w = out.warp;
  json params = {{"pattern", std::string(to_string(p.kind))},
                 {"elem_size", out.elem_size},
                 {"offset", p.offset}};
  switch (p.kind) {
    case AccessKind::kStrided:
      params["stride"] = p.stride;
      break;
    case AccessKind::kRandom:
      params["seed"] = p.seed;
      params["range"] = p.range;
      break;
    case AccessKind::kAosField:
      params["fields"] = p.fields;
      params["field"] = p.field;
      break;
    case AccessKind::kRow:
      params["width"] = p.width;
      params["row"] = p.row_or_col;
      break;
    case AccessKind::kColumn:
      params["width"] = p.width;
      params["col"] = p.row_or_col;
      break;
    case AccessKind::kLinear:
    case AccessKind::kOffset:
      break;
  }
  return {{"model", "coalescing"},
          {"params", params},
          {"result",
           {{"addresses", w.addresses},
            {"sectors", w.sectors.size()},
            {"lines", w.lines.size()},
            {"sector_ids", w.sectors},
            {"line_ids", w.lines},
            {"min_sectors", w.min_sectors},
            {"bytes_moved", w.bytes_moved},
            {"bytes_needed", w.bytes_needed},
            {"efficiency", w.efficiency},
            {"array_pass_efficiency", out.array_pass_efficiency},
            {"time", time_json(out)}}}};
}

CoalescingInput coalescing_input(const json& params) {
  CoalescingInput in;
  assign(coalescing_fields(), "coalescing", params, in);
  validate(in);
  return in;
}

}  // namespace memlab::model
