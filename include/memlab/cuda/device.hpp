// Device query. Throws CudaError; `device_count_or_zero` maps "no driver / no device" to 0.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "memlab/cuda/device_info.hpp"

namespace memlab {

// Number of CUDA devices; 0 when there is no driver or no device (with the reason in `why`).
int device_count_or_zero(std::string* why = nullptr);

DeviceInfo query_device(int ordinal = 0);

// Current clocks and PCIe link from NVML (loaded at run time; absent -> nullopt).
struct LiveClocks {
  int sm_mhz = 0;
  int mem_mhz = 0;
  int pcie_gen = 0;
  int pcie_width = 0;
  int pcie_max_gen = 0;
  int pcie_max_width = 0;
};
std::optional<LiveClocks> read_live_clocks(const DeviceInfo& device);

// The processes with a compute context on the device, as NVML lists them (pids in the driver's
// view); nullopt when NVML cannot tell. Used to flag a timing taken while another process may
// have used the GPU.
std::optional<std::vector<unsigned>> compute_processes(const DeviceInfo& device);

}  // namespace memlab
