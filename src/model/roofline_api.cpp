// `memlab model roofline` as an input struct, validate, compute and JSON (inputs.hpp).
#include <cmath>

#include "memlab/model/inputs.hpp"

namespace memlab::model {

using nlohmann::json;

const Fields<RooflineInput>& roofline_fields() {
  using In = RooflineInput;
  static const Fields<In> fields = {
      float_field<In>("bytes", &In::bytes, 0, 1e30, "bytes moved to/from DRAM"),
      float_field<In>("flops", &In::flops, 0, 1e30, "floating-point operations"),
      float_field<In>("peak-bandwidth", &In::peak_bandwidth, 1, 1e30, "B/s (default: H200 HBM3e)"),
      float_field<In>("peak-flops", &In::peak_flops, 1, 1e30, "flop/s (default: H200 FP32)"),
  };
  return fields;
}

void validate(const RooflineInput& in) {
  check_ranges(roofline_fields(), in);
  // Below one byte and one flop the times underflow; 0 bytes is fine (intensity: null).
  if (in.bytes < 1.0 && in.flops < 1.0) {
    fail("--bytes", "--bytes or --flops must be >= 1 (got both below 1)");
  }
}

RooflineOutput compute(const RooflineInput& in) {
  validate(in);
  RooflineOutput out;
  out.params = RooflineParams{in.bytes, in.flops, in.peak_bandwidth, in.peak_flops};
  out.result = analyze_roofline(out.params);
  return out;
}

json to_json(const RooflineOutput& out) {
  const RooflineParams& p = out.params;
  const RooflineResult& r = out.result;
  return {{"model", "roofline"},
          {"params",
           {{"bytes", p.bytes},
            {"flops", p.flops},
            {"peak_bandwidth", p.peak_bandwidth},
            {"peak_flops", p.peak_flops}}},
          {"result",
           {{"intensity", std::isinf(r.intensity) ? json(nullptr) : json(r.intensity)},
            {"ridge", r.ridge},
            {"bound", to_string(r.bound)},
            {"memory_time_s", r.memory_time},
            {"compute_time_s", r.compute_time},
            {"attainable_time_s", r.attainable_time},
            {"attainable_flops", r.attainable_flops},
            {"attainable_bandwidth", r.attainable_bandwidth}}}};
}

RooflineInput roofline_input(const json& params) {
  RooflineInput in;
  assign(roofline_fields(), "roofline", params, in);
  validate(in);
  return in;
}

}  // namespace memlab::model
