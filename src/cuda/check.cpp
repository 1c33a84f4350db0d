#include "memlab/cuda/check.hpp"

#include <fmt/format.h>

namespace memlab {

CudaError::CudaError(cudaError_t code, const std::string& call, const char* file, int line)
    : std::runtime_error(fmt::format("CUDA error {} ({}) in {} at {}:{}: {}",
                                     static_cast<int>(code), cudaGetErrorName(code), call, file,
                                     line, cudaGetErrorString(code))),
      code_(code) {}

void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) {
    // Clear the error from the runtime's last-error slot (it stays only if sticky), so that the
    // next launch check does not report this call's failure as its own.
    cudaGetLastError();
    throw CudaError(code, call, file, line);
  }
}

void cuda_check_launch(const char* kernel, const char* file, int line) {
  const cudaError_t code = cudaGetLastError();
  if (code != cudaSuccess) {
    throw CudaError(code, fmt::format("launch of {}", kernel), file, line);
  }
}

bool is_no_device_error(cudaError_t code) noexcept {
  return code == cudaErrorNoDevice || code == cudaErrorInsufficientDriver ||
         code == cudaErrorInitializationError || code == cudaErrorDevicesUnavailable ||
         code == cudaErrorSystemDriverMismatch || code == cudaErrorCompatNotSupportedOnDevice;
}

}  // namespace memlab
