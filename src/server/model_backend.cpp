// The models behind /api/models and /api/model/<name>: memlab::model's own API, in process (the
// same C++ that `memlab model --json` and the WebAssembly build answer from).
#include "model_backend.hpp"

#include <fmt/format.h>

#include <array>

#include "api_error.hpp"
#include "memlab/common/error.hpp"
#include "memlab/model/api.hpp"

namespace memlab::server {
namespace {

constexpr std::array<const char*, 6> kModels = {"coalescing", "banks",    "tiling",
                                                "timeline",   "roofline", "occupancy"};

}  // namespace

bool is_model_name(const std::string& name) {
  for (const char* m : kModels) {
    if (name == m) return true;
  }
  return false;
}

nlohmann::json ModelBackend::catalog() const {
  return model::catalog();
}

nlohmann::json ModelBackend::run(const std::string& name, const nlohmann::json& params) const {
  if (!is_model_name(name)) {
    throw UsageError(
        fmt::format("model: '{}' is unknown; accepted: {}", name, fmt::join(kModels, ", ")));
  }
  try {
    return model::run(name, params);
  } catch (const UsageError& e) {
    // The message starts with the CLI flag (`--stride: ...`); error_json names it.
    const nlohmann::json err = model::error_json(e);
    throw ApiError(400, err.value("parameter", ""), err.value("error", std::string(e.what())));
  }
}

}  // namespace memlab::server
