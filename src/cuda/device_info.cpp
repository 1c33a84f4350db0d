// Host-only part of the device description (no CUDA headers): used by the reports.
#include <fmt/format.h>

#include "memlab/cuda/device_info.hpp"

namespace memlab {

std::string cuda_version_string(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace memlab
