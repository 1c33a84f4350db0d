// cuBLAS SGEMM as the vendor line: pedantic FP32 math (no TF32, no tensor cores), row-major.
#pragma once

#include <cublas_v2.h>

#include "common/cublas.hpp"

namespace memlab::lessons::matmul {

// The math mode of the handle cublas_sgemm takes (a CublasHandle, common/cublas.hpp): pedantic
// FP32, no TF32 and no tensor cores.
inline constexpr cublasMath_t kSgemmMath = CUBLAS_PEDANTIC_MATH;

// Row-major C = A B through the column-major library: C^T = B^T A^T, i.e. sgemm(N, M, K) with B
// as the left operand. Binds the handle to `stream` first.
void cublas_sgemm(cublasHandle_t handle, const float* A, const float* B, float* C, int M, int N,
                  int K, cudaStream_t stream);

}  // namespace memlab::lessons::matmul
