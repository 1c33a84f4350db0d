#include "tensor_cores/vendor.hpp"

#include <stdexcept>
#include <string>

namespace memlab::lessons::tensor_cores {
namespace {

void cublas_check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(call) + ": " + cublasGetStatusString(status));
  }
}

void gemm_ex(cublasHandle_t h, const void* a, const void* b, float* c, const Gemm& g,
             cudaDataType_t type, cublasComputeType_t compute, cudaStream_t s) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasSetStream(h, s), "cublasSetStream");
  cublas_check(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.m, g.k, &one, b, type, g.ldb, a,
                            type, g.lda, &zero, c, CUDA_R_32F, g.n, compute, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

}  // namespace

Cublas::Cublas() {
  cublas_check(cublasCreate(&handle_), "cublasCreate");
}

Cublas::~Cublas() {
  if (handle_ != nullptr) cublasDestroy(handle_);
}

void Cublas::gemm_bf16(const void* a, const void* b, float* c, const Gemm& g,
                       cudaStream_t s) const {
  gemm_ex(handle_, a, b, c, g, CUDA_R_16BF, CUBLAS_COMPUTE_32F, s);
}

void Cublas::gemm_tf32(const float* a, const float* b, float* c, const Gemm& g,
                       cudaStream_t s) const {
  gemm_ex(handle_, a, b, c, g, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, s);
}

}  // namespace memlab::lessons::tensor_cores
