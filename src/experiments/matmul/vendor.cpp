#include "matmul/vendor.hpp"

#include <stdexcept>
#include <string>

namespace memlab::lessons::matmul {
namespace {

void cublas_check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": " + cublasGetStatusString(status));
  }
}

}  // namespace

CublasHandle::CublasHandle() {
  cublas_check(cublasCreate(&handle_), "cublasCreate");
  cublas_check(cublasSetMathMode(handle_, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
}

CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

void cublas_sgemm(cublasHandle_t handle, const float* A, const float* B, float* C, int M, int N,
                  int K, cudaStream_t stream) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSetStream(handle, stream), "cublasSetStream");
  cublas_check(
      cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, B, N, A, K, &zero, C, N),
      "cublasSgemm");
}

}  // namespace memlab::lessons::matmul
