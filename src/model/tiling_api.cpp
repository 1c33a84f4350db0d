// `memlab model tiling` as an input struct, validate, compute and JSON (inputs.hpp).
#include <fmt/format.h>

#include "memlab/model/inputs.hpp"

namespace memlab::model {

using nlohmann::json;

const Fields<TilingInput>& tiling_fields() {
  using In = TilingInput;
  static const Fields<In> fields = {
      int_field<In>("output-tile", &In::output_tile, 1, 1 << 20,
                    "O_TILE_WIDTH: outputs per tile side"),
      int_field<In>("mask", &In::mask, 1, 1 << 20, "mask width (odd)"),
      int_field<In>("dims", &In::dims, 1, 2, "1 or 2"),
      int_field<In>("elem-size", &In::elem_size, 1, 1024, "bytes per element"),
      int_field<In>("shared-limit", &In::shared_limit, 1, std::int64_t{1} << 40,
                    "shared bytes a block may use"),
      int_field<In>("max-threads-per-block", &In::max_threads_per_block, 1, 1 << 20,
                    "device limit"),
  };
  return fields;
}

namespace {

TilingParams params_of(const TilingInput& in) {
  TilingParams p;
  p.output_tile = static_cast<int>(in.output_tile);
  p.mask = static_cast<int>(in.mask);
  p.dims = static_cast<int>(in.dims);
  p.elem_size = static_cast<int>(in.elem_size);
  p.shared_limit = in.shared_limit;
  p.max_threads_per_block = static_cast<int>(in.max_threads_per_block);
  return p;
}

}  // namespace

void validate(const TilingInput& in) {
  check_ranges(tiling_fields(), in);
  if (in.mask % 2 == 0) fail("--mask", fmt::format("must be an odd width >= 1 (got {})", in.mask));
  if (in.mask > in.output_tile) {
    fail("--mask",
         fmt::format("must be <= the output tile width {} (got {})", in.output_tile, in.mask));
  }
  // At most (2^21)^2 x 1024 B = 2^52 B: no overflow; the shared-memory limit is checked here so
  // the message names the flag.
  const std::int64_t input_tile = in.output_tile + in.mask - 1;
  const std::int64_t bytes = (in.dims == 2 ? input_tile * input_tile : input_tile) * in.elem_size;
  if (bytes > in.shared_limit) {
    fail("--output-tile",
         fmt::format("input tile {}^{} x {} B = {} B of shared memory must be <= {} B "
                     "(--shared-limit)",
                     input_tile, in.dims, in.elem_size, bytes, in.shared_limit));
  }
}

TilingOutput compute(const TilingInput& in) {
  validate(in);
  TilingOutput out;
  out.params = params_of(in);
  out.result = analyze_tiling(out.params);
  return out;
}

json to_json(const TilingOutput& out) {
  const TilingParams& p = out.params;
  const TilingResult& r = out.result;
  return {{"model", "tiling"},
          {"params",
           {{"output_tile", p.output_tile},
            {"mask", p.mask},
            {"dims", p.dims},
            {"elem_size", p.elem_size},
            {"shared_limit", p.shared_limit}}},
          {"result",
           {{"input_tile", r.input_tile},
            {"halo", r.halo},
            {"block_threads", r.block_threads},
            {"output_threads", r.output_threads},
            {"idle_threads", r.idle_threads},
            {"idle_fraction", r.idle_fraction},
            {"block_is_warp_multiple", r.block_is_warp_multiple},
            {"block_fits", r.block_fits},
            {"shared_bytes", r.shared_bytes},
            {"inputs_per_output_untiled", r.inputs_per_output_untiled},
            {"inputs_per_output_tiled", r.inputs_per_output_tiled},
            {"reuse", r.reuse},
            {"reuse_limit", r.reuse_limit}}}};
}

TilingInput tiling_input(const json& params) {
  TilingInput in;
  assign(tiling_fields(), "tiling", params, in);
  validate(in);
  return in;
}

}  // namespace memlab::model
