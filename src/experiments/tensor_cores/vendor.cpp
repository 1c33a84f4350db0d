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

void cublas_gemm_bf16(cublasHandle_t handle, const void* a, const void* b, float* c, const Gemm& g,
                      cudaStream_t s) {
  gemm_ex(handle, a, b, c, g, CUDA_R_16BF, CUBLAS_COMPUTE_32F, s);
}

void cublas_gemm_tf32(cublasHandle_t handle, const float* a, const float* b, float* c,
                      const Gemm& g, cudaStream_t s) {
  gemm_ex(handle, a, b, c, g, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, s);
}

}  // namespace memlab::lessons::tensor_cores
