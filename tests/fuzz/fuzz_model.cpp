// libFuzzer harness: every model's parameters through the model API (include/memlab/model/api.hpp,
// branch arch-model). The first byte picks the model, the rest is the params JSON. Every input
// either returns a result or throws memlab::UsageError; -timeout catches runaway inputs.
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "memlab/common/error.hpp"
#include "memlab/model/api.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const char* const kModels[] = {"coalescing", "banks",    "tiling",
                                        "timeline",   "roofline", "occupancy"};
  if (size == 0) return 0;
  const std::string name = kModels[data[0] % 6];
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  const nlohmann::json params = nlohmann::json::parse(text, nullptr, false);
  if (params.is_discarded()) return 0;
  try {
    const nlohmann::json out = memlab::model::run(name, params);
    (void)out.dump();
  } catch (const memlab::UsageError&) {
  }
  return 0;
}
