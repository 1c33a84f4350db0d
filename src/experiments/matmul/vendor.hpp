// cuBLAS SGEMM as the vendor line: pedantic FP32 math (no TF32, no tensor cores), row-major.
#pragma once

#include <cublas_v2.h>

namespace memlab::lessons::matmul {

// Owns a cuBLAS handle with CUBLAS_PEDANTIC_MATH (cuBLAS opened at run time: common/cublas.hpp;
// throws bench::SkipPoint where it is not installed).
class CublasHandle {
 public:
  CublasHandle();
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

// Row-major C = A B through the column-major library: C^T = B^T A^T, i.e. sgemm(N, M, K) with B
// as the left operand. Binds the handle to `stream` first.
void cublas_sgemm(cublasHandle_t handle, const float* A, const float* B, float* C, int M, int N,
                  int K, cudaStream_t stream);

}  // namespace memlab::lessons::matmul
