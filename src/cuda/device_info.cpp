// Host-only part of the device description (no CUDA headers): used by the reports.
#include <fmt/format.h>

#include "memlab/cuda/device_info.hpp"

namespace memlab {

std::string format_gpu_uuid(const unsigned char (&b)[16]) {
  std::string out = "GPU-";
  for (int i = 0; i < 16; ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += fmt::format("{:02x}", b[i]);
  }
  return out;
}

std::string cuda_version_string(int version) {
  return fmt::format("{}.{}", version / 1000, (version % 1000) / 10);
}

}  // namespace memlab
