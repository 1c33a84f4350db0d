// `memlab model banks` as an input struct, validate, compute and JSON (inputs.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "memlab/model/inputs.hpp"

namespace memlab::model {

using nlohmann::json;

const Fields<BanksInput>& banks_fields() {
  using In = BanksInput;
  static const Fields<In> fields = [] {
    Fields<In> f = {
        choice_field<In>("pattern", &In::pattern, {"stride", "column", "row", "broadcast"},
                         "stride|column|row|broadcast"),
        int_field<In>("elem-size", &In::elem_size, 4, 16, "bytes per element: 4, 8 or 16"),
        int_field<In>("stride", &In::stride, 1, kMaxIndex, "stride: elements between lanes (>= 1)"),
        int_field<In>("offset", &In::offset, 0, kMaxIndex, "stride/broadcast: first element"),
        int_field<In>("width", &In::width, 1, kMaxIndex,
                      "column/row: tile row width in elements (33 = padded)"),
        int_field<In>("col", &In::col, 0, kMaxIndex, "column: tile[lane][col]"),
        int_field<In>("row", &In::row, 0, kMaxIndex, "row: tile[row][lane]"),
    };
    ParamSpec spec{
        "indices", ParamType::kIntList, "32 element indices, one per lane (overrides pattern)",
        0,         kMaxIndex,           {}};
    f.push_back({spec, [spec](In& in, const json& v) { in.indices = parse_int_list(spec, v); },
                 [](const In& in) { return json(in.indices); }});
    return f;
  }();
  return fields;
}

namespace {

BankPattern pattern_of(const BanksInput& in) {
  BankPattern p;
  p.kind = parse_bank_pattern(in.pattern);
  p.stride = in.stride;
  p.offset = in.offset;
  p.width = in.width;
  p.col = in.col;
  p.row = in.row;
  return p;
}

}  // namespace

void validate(const BanksInput& in) {
  if (in.elem_size != 4 && in.elem_size != 8 && in.elem_size != 16) {
    fail("--elem-size", fmt::format("must be 4, 8 or 16 bytes (got {})", in.elem_size));
  }
  check_ranges(banks_fields(), in);
  if (!in.indices.empty()) {
    if (in.indices.size() != 32) {
      fail("--indices", fmt::format("must list 32 element indices (got {})", in.indices.size()));
    }
    return;  // each index is in [0, 2^48]: its bytes end below 2^53
  }
  const BankPattern p = pattern_of(in);
  double last = 0.0;  // the highest element index a lane reads (exact below 2^53)
  const char* flag = "--offset";
  switch (p.kind) {
    case BankPatternKind::kStride:
      last = static_cast<double>(in.offset) + 31.0 * static_cast<double>(in.stride);
      if (31.0 * static_cast<double>(in.stride) >= static_cast<double>(in.offset))
        flag = "--stride";
      break;
    case BankPatternKind::kColumn:
      if (in.col >= in.width) {
        fail("--col", fmt::format("must be in [0, {}] (got {})", in.width - 1, in.col));
      }
      last = 31.0 * static_cast<double>(in.width) + static_cast<double>(in.col);
      flag = "--width";
      break;
    case BankPatternKind::kRow:
      last = static_cast<double>(in.row) * static_cast<double>(in.width) + 31.0;
      flag = in.row >= in.width ? "--row" : "--width";
      break;
    case BankPatternKind::kBroadcast:
      last = static_cast<double>(in.offset);
      break;
  }
  const double end = (last + 1.0) * static_cast<double>(in.elem_size);
  if (end > kMaxAddress) {
    fail(flag, fmt::format("the highest byte a lane reads ({:.0f}) must be below 2^53", end - 1.0));
  }
}

BanksOutput compute(const BanksInput& in) {
  validate(in);
  BanksOutput out;
  std::array<std::int64_t, 32> indices{};
  if (!in.indices.empty()) {
    std::copy(in.indices.begin(), in.indices.end(), indices.begin());
    out.what = "custom indices";
  } else {
    const BankPattern p = pattern_of(in);
    indices = bank_indices(p);
    switch (p.kind) {
      case BankPatternKind::kStride:
        out.what = fmt::format("s[{} + lane * {}]", p.offset, p.stride);
        break;
      case BankPatternKind::kColumn:
        out.what = fmt::format("tile[lane][{}] of tile[32][{}]", p.col, p.width);
        break;
      case BankPatternKind::kRow:
        out.what = fmt::format("tile[{}][lane] of tile[..][{}]", p.row, p.width);
        break;
      case BankPatternKind::kBroadcast:
        out.what = fmt::format("s[{}] for every lane", p.offset);
        break;
    }
  }
  out.access = analyze_banks(indices, static_cast<int>(in.elem_size));
  return out;
}

json to_json(const BanksInput& in, const BanksOutput& out) {
  const BankAccess& b = out.access;
  json phases = json::array();
  for (const auto& ph : b.phases) {
    phases.push_back({{"first_lane", ph.first_lane}, {"lanes", ph.lanes}, {"passes", ph.passes}});
  }
  json params = {{"pattern", in.indices.empty() ? in.pattern : std::string("indices")},
                 {"elem_size", static_cast<int>(in.elem_size)}};
  if (in.indices.empty()) {
    params["stride"] = in.stride;
    params["offset"] = in.offset;
    params["width"] = in.width;
    params["col"] = in.col;
    params["row"] = in.row;
  }
  return {{"model", "banks"},
          {"params", params},
          {"result",
           {{"indices", b.indices},
            {"degree", b.degree},
            {"passes", b.passes},
            {"min_passes", b.min_passes},
            {"broadcast_lanes", b.broadcast_lanes},
            {"phases", phases}}}};
}

BanksInput banks_input(const json& params) {
  BanksInput in;
  assign(banks_fields(), "banks", params, in);
  validate(in);
  return in;
}

}  // namespace memlab::model
