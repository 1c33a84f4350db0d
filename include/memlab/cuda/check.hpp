// MEMLAB_CUDA_CHECK: every CUDA runtime call goes through it. A failure throws memlab::CudaError
// carrying the call as written, the file, the line and CUDA's own message.
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace memlab {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const std::string& call, const char* file, int line);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

// Throws CudaError when `code` is not cudaSuccess.
void cuda_check(cudaError_t code, const char* call, const char* file, int line);

// After a kernel launch: the launch error (bad configuration, too much shared memory, ...).
void cuda_check_launch(const char* kernel, const char* file, int line);

// True when the error means "there is no usable CUDA device here" (no driver, no device).
bool is_no_device_error(cudaError_t code) noexcept;

}  // namespace memlab

#define MEMLAB_CUDA_CHECK(call) ::memlab::cuda_check((call), #call, __FILE__, __LINE__)
#define MEMLAB_CHECK_LAUNCH(kernel) ::memlab::cuda_check_launch(#kernel, __FILE__, __LINE__)
