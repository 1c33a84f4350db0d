// What memlab knows about a GPU: a plain struct (no CUDA headers) so that reports and models,
// which are host-only, can use it.
#pragma once

#include <cstdint>
#include <string>

namespace memlab {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi -L prints it
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;   // maximum (boost) SM clock
  int mem_clock_khz = 0;  // maximum memory clock
  int bus_width_bits = 0;
  std::int64_t global_mem_bytes = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t smem_per_block = 0;        // default limit (48 KiB)
  std::int64_t smem_per_block_optin = 0;  // with cudaFuncSetAttribute
  std::int64_t smem_per_sm = 0;
  std::int64_t const_mem_bytes = 0;
  int regs_per_sm = 0;
  int max_threads_per_sm = 0;
  int max_blocks_per_sm = 0;
  int copy_engines = 0;  // asyncEngineCount
  int pci_bus = 0;
  int pci_device = 0;
  int pci_domain = 0;
  int driver_version = 0;   // e.g. 13000
  int runtime_version = 0;  // e.g. 13000
  int fp32_lanes_per_sm = 0;

  // 2 x memory clock x bus width / 8 (double data rate), in bytes per second.
  double peak_bandwidth_bytes_per_s() const {
    return 2.0 * mem_clock_khz * 1e3 * bus_width_bits / 8.0;
  }
  // SMs x FP32 lanes x 2 (an FMA is two flops) x SM clock, in flop per second.
  double peak_fp32_flops() const { return 2.0 * sm_count * fp32_lanes_per_sm * sm_clock_khz * 1e3; }
};

// FP32 lanes per SM for a compute capability (0 when unknown).
int fp32_lanes_per_sm(int cc_major, int cc_minor);

// "GPU-" + the 16 bytes of cudaDeviceProp::uuid in nvidia-smi's 8-4-4-4-12 grouping.
std::string format_gpu_uuid(const unsigned char (&bytes)[16]);

// "13.0" from 13000.
std::string cuda_version_string(int version);

}  // namespace memlab
