// `memlab model occupancy` as an input struct, validate, compute and JSON (inputs.hpp).
#include <fmt/format.h>

#include "memlab/model/inputs.hpp"

namespace memlab::model {

using nlohmann::json;

namespace {

using In = OccupancyInput;

Field<In> limit(std::string key, std::int64_t DeviceLimits::*member, std::int64_t min,
                std::int64_t max, std::string help) {
  ParamSpec spec{std::move(key), ParamType::kInt, std::move(help), min, max, {}};
  return {spec, [spec, member](In& in, const json& v) { in.limits.*member = parse_int(spec, v); },
          [member](const In& in) { return json(in.limits.*member); }};
}

}  // namespace

const Fields<OccupancyInput>& occupancy_fields() {
  constexpr std::int64_t k1 = 1;
  static const Fields<In> fields = {
      int_field<In>("threads", &In::threads, 1, k1 << 20, "threads per block"),
      int_field<In>("regs", &In::regs, 0, k1 << 16, "registers per thread"),
      int_field<In>("smem", &In::smem, 0, k1 << 40, "shared bytes per block (static + dynamic)"),
      limit("regs-per-sm", &DeviceLimits::regs_per_sm, 1, k1 << 30, "registers per SM"),
      limit("max-regs-per-thread", &DeviceLimits::max_regs_per_thread, 1, k1 << 16,
            "registers a thread may use"),
      limit("reg-alloc-unit", &DeviceLimits::reg_alloc_unit, 1, k1 << 16,
            "registers, allocated per warp"),
      limit("sub-partitions", &DeviceLimits::sub_partitions, 1, 64,
            "register file split (SM sub-partitions)"),
      limit("smem-per-sm", &DeviceLimits::smem_per_sm, 1, k1 << 40, "shared bytes per SM"),
      limit("max-smem-per-block", &DeviceLimits::max_smem_per_block, 1, k1 << 40,
            "shared bytes a block may use"),
      limit("smem-alloc-unit", &DeviceLimits::smem_alloc_unit, 1, k1 << 20,
            "shared-memory allocation unit (bytes)"),
      limit("reserved-smem", &DeviceLimits::reserved_smem_per_block, 0, k1 << 30,
            "bytes reserved per block"),
      limit("max-threads-per-sm", &DeviceLimits::max_threads_per_sm, 1, k1 << 20, "threads per SM"),
      limit("max-threads-per-block", &DeviceLimits::max_threads_per_block, 1, k1 << 20,
            "threads per block"),
      limit("max-blocks-per-sm", &DeviceLimits::max_blocks_per_sm, 1, 4096, "blocks per SM"),
      limit("max-warps-per-sm", &DeviceLimits::max_warps_per_sm, 1, 4096, "warps per SM"),
  };
  return fields;
}

void validate(const OccupancyInput& in) {
  check_ranges(occupancy_fields(), in);
  const DeviceLimits& d = in.limits;
  auto within = [](const char* flag, std::int64_t value, std::int64_t lo, std::int64_t hi) {
    if (value < lo || value > hi) {
      fail(flag, fmt::format("must be in [{}, {}] (got {})", lo, hi, value));
    }
  };
  within("--threads", in.threads, 1, d.max_threads_per_block);
  within("--regs", in.regs, 0, d.max_regs_per_thread);
  within("--smem", in.smem, 0, d.max_smem_per_block);
}

OccupancyOutput compute(const OccupancyInput& in) {
  validate(in);
  OccupancyOutput out;
  out.params = OccupancyParams{in.threads, in.regs, in.smem};
  out.limits = in.limits;
  out.result = analyze_occupancy(out.params, out.limits);
  return out;
}

json to_json(const OccupancyOutput& out) {
  const OccupancyParams& p = out.params;
  const DeviceLimits& d = out.limits;
  const OccupancyResult& r = out.result;
  return {{"model", "occupancy"},
          {"params",
           {{"threads_per_block", p.threads_per_block},
            {"regs_per_thread", p.regs_per_thread},
            {"smem_per_block", p.smem_per_block},
            {"limits",
             {{"regs_per_sm", d.regs_per_sm},
              {"max_regs_per_thread", d.max_regs_per_thread},
              {"reg_alloc_unit", d.reg_alloc_unit},
              {"sub_partitions", d.sub_partitions},
              {"smem_per_sm", d.smem_per_sm},
              {"max_smem_per_block", d.max_smem_per_block},
              {"smem_alloc_unit", d.smem_alloc_unit},
              {"reserved_smem_per_block", d.reserved_smem_per_block},
              {"max_threads_per_sm", d.max_threads_per_sm},
              {"max_threads_per_block", d.max_threads_per_block},
              {"max_blocks_per_sm", d.max_blocks_per_sm},
              {"max_warps_per_sm", d.max_warps_per_sm}}}}},
          {"result",
           {{"warps_per_block", r.warps_per_block},
            {"blocks_by_warps", r.blocks_by_warps},
            {"blocks_by_registers", r.blocks_by_registers},
            {"blocks_by_smem", r.blocks_by_smem},
            {"blocks_by_blocks", r.blocks_by_blocks},
            {"regs_per_warp", r.regs_per_warp},
            {"smem_per_block_allocated", r.smem_per_block_allocated},
            {"blocks_per_sm", r.blocks_per_sm},
            {"warps_per_sm", r.warps_per_sm},
            {"threads_per_sm", r.threads_per_sm},
            {"occupancy", r.occupancy},
            {"limit", std::string(to_string(r.limit))}}}};
}

OccupancyInput occupancy_input(const json& params) {
  OccupancyInput in;
  assign(occupancy_fields(), "occupancy", params, in);
  validate(in);
  return in;
}

}  // namespace memlab::model
