// One entry point to the six models: see include/memlab/model/api.hpp.
#include "memlab/model/api.hpp"

#include <fmt/format.h>

#include "memlab/common/error.hpp"
#include "memlab/model/inputs.hpp"

namespace memlab::model {
namespace {

using nlohmann::json;

struct Entry {
  const char* name;
  const char* summary;
  json (*run)(const json& params);
  json (*describe)();
  std::vector<ParamSpec> (*specs)();
};

template <class In>
std::vector<ParamSpec> specs_of(const Fields<In>& fields) {
  std::vector<ParamSpec> out;
  for (const auto& f : fields) out.push_back(f.spec);
  return out;
}

const Entry kEntries[] = {
    {"coalescing", "Sectors and lines one warp load touches (seed 001: stride 1, 4 B -> 100 %)",
     [](const json& p) { return to_json(compute(coalescing_input(p))); },
     [] { return describe_all(coalescing_fields()); },
     [] { return specs_of(coalescing_fields()); }},
    {"banks", "Conflict degree of one warp's shared-memory access (default: tile[32][32] column)",
     [](const json& p) {
       const BanksInput in = banks_input(p);
       return to_json(in, compute(in));
     },
     [] { return describe_all(banks_fields()); }, [] { return specs_of(banks_fields()); }},
    {"tiling", "Input tile, halo, idle threads and reuse of a tiled convolution (seed 000)",
     [](const json& p) { return to_json(compute(tiling_input(p))); },
     [] { return describe_all(tiling_fields()); }, [] { return specs_of(tiling_fields()); }},
    {"timeline",
     "Copy/compute overlap of a segmented pipeline in streams (seed 001: 100 -> 55, 1.82x)",
     [](const json& p) { return to_json(compute(timeline_input(p))); },
     [] { return describe_all(timeline_fields()); }, [] { return specs_of(timeline_fields()); }},
    {"roofline", "Memory or compute bound, and the attainable time (default: SAXPY, 2^28)",
     [](const json& p) { return to_json(compute(roofline_input(p))); },
     [] { return describe_all(roofline_fields()); }, [] { return specs_of(roofline_fields()); }},
    {"occupancy", "Blocks and warps per SM and the limiting resource (default limits: H200)",
     [](const json& p) { return to_json(compute(occupancy_input(p))); },
     [] { return describe_all(occupancy_fields()); }, [] { return specs_of(occupancy_fields()); }},
};

std::string names() {
  std::string out;
  for (const auto& e : kEntries) out += fmt::format("{}{}", out.empty() ? "" : ", ", e.name);
  return out;
}

}  // namespace

json run(const std::string& name, const json& params) {
  for (const auto& e : kEntries) {
    if (name == e.name) return e.run(params);
  }
  throw UsageError(fmt::format("model: unknown model '{}' (accepted: {})", name, names()));
}

json catalog() {
  json list = json::array();
  for (const auto& e : kEntries) {
    list.push_back({{"name", e.name}, {"summary", e.summary}, {"params", e.describe()}});
  }
  return {{"models", list}};
}

const std::vector<ModelInfo>& models() {
  static const std::vector<ModelInfo> infos = [] {
    std::vector<ModelInfo> out;
    for (const auto& e : kEntries) out.push_back({e.name, e.summary, e.specs()});
    return out;
  }();
  return infos;
}

json error_json(const std::exception& error) {
  const std::string message = error.what();
  json out = {{"error", message}};
  const auto colon = message.find(": ");
  if (dynamic_cast<const UsageError*>(&error) != nullptr && colon != std::string::npos &&
      message.find(' ') >= colon) {
    out["parameter"] = message.substr(0, colon);
  }
  return out;
}

std::string run_text(const std::string& name, const std::string& params_json) {
  try {
    json params = json::object();
    if (!params_json.empty()) {
      params = json::parse(params_json, nullptr, /*allow_exceptions=*/false);
      if (params.is_discarded())
        throw UsageError("params: must be a JSON object (got invalid JSON)");
    }
    return run(name, params).dump();
  } catch (const std::exception& e) {
    return error_json(e).dump();
  } catch (...) {
    return json{{"error", "internal error: unknown exception"}}.dump();
  }
}

}  // namespace memlab::model
