#include "memlab/cuda/device.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "memlab/cuda/check.hpp"

namespace memlab {

int fp32_lanes_per_sm(int cc_major, int cc_minor) {
  switch (cc_major) {
    case 6:
      return cc_minor == 0 ? 64 : 128;
    case 7:
      return 64;
    case 8:
      return cc_minor == 0 ? 64 : 128;
    case 9:
    case 10:
    case 11:
    case 12:
      return 128;
    default:
      return 0;
  }
}

int device_count_or_zero(std::string* why) {
  int count = 0;
  const cudaError_t code = cudaGetDeviceCount(&count);
  if (code != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error state
    if (why != nullptr)
      *why = fmt::format("{}: {}", cudaGetErrorName(code), cudaGetErrorString(code));
    if (is_no_device_error(code)) return 0;
    throw CudaError(code, "cudaGetDeviceCount(&count)", __FILE__, __LINE__);
  }
  if (count == 0 && why != nullptr) *why = "cudaGetDeviceCount returned 0";
  return count;
}

DeviceInfo query_device(int ordinal) {
  cudaDeviceProp prop{};
  MEMLAB_CUDA_CHECK(cudaGetDeviceProperties(&prop, ordinal));
  DeviceInfo d;
  d.ordinal = ordinal;
  d.name = prop.name;
  unsigned char uuid[16];
  for (int i = 0; i < 16; ++i) uuid[i] = static_cast<unsigned char>(prop.uuid.bytes[i]);
  d.uuid = format_gpu_uuid(uuid);
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, ordinal));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&d.mem_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  d.bus_width_bits = prop.memoryBusWidth;
  d.global_mem_bytes = static_cast<std::int64_t>(prop.totalGlobalMem);
  d.l2_bytes = prop.l2CacheSize;
  d.smem_per_block = static_cast<std::int64_t>(prop.sharedMemPerBlock);
  d.smem_per_block_optin = static_cast<std::int64_t>(prop.sharedMemPerBlockOptin);
  d.smem_per_sm = static_cast<std::int64_t>(prop.sharedMemPerMultiprocessor);
  d.const_mem_bytes = static_cast<std::int64_t>(prop.totalConstMem);
  d.regs_per_sm = prop.regsPerMultiprocessor;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.max_blocks_per_sm = prop.maxBlocksPerMultiProcessor;
  d.copy_engines = prop.asyncEngineCount;
  d.pci_bus = prop.pciBusID;
  d.pci_device = prop.pciDeviceID;
  d.pci_domain = prop.pciDomainID;
  MEMLAB_CUDA_CHECK(cudaDriverGetVersion(&d.driver_version));
  MEMLAB_CUDA_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  d.fp32_lanes_per_sm = fp32_lanes_per_sm(d.cc_major, d.cc_minor);
  return d;
}

}  // namespace memlab
