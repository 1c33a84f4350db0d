#include "tensor_cores/vendor.hpp"

#include "common/cublas.hpp"

namespace memlab::lessons::tensor_cores {
namespace {

void gemm_ex(cublasHandle_t h, const void* a, const void* b, float* c, const Gemm& g,
             cudaDataType_t type, cublasComputeType_t compute, cudaStream_t s) {
  const CublasApi& lib = require_cublas();
  const float one = 1.0f, zero = 0.0f;
  cublas_check(lib.set_stream(h, s), "cublasSetStream");
  cublas_check(lib.gemm_ex(h, CUBLAS_OP_N, CUBLAS_OP_N, g.n, g.m, g.k, &one, b, type, g.ldb, a,
                           type, g.lda, &zero, c, CUDA_R_32F, g.n, compute, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

}  // namespace

Cublas::Cublas() {
  cublas_check(require_cublas().create(&handle_), "cublasCreate");
}

Cublas::~Cublas() {
  if (handle_ != nullptr) cublas_api()->destroy(handle_);
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
