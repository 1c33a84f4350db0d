// cuBLAS GEMM for the tensor-core lesson: BF16 or TF32 inputs, FP32 compute and output.
#pragma once

#include <cublas_v2.h>

#include "common/cublas.hpp"
#include "tensor_cores/kernels.cuh"

namespace memlab::lessons::tensor_cores {

// Row-major C = A B through the column-major library: C^T = B^T A^T (B as the left operand).
// `handle`: a CublasHandle (common/cublas.hpp), default math (the compute type picks TF32).
void cublas_gemm_bf16(cublasHandle_t handle, const void* a, const void* b, float* c, const Gemm& g,
                      cudaStream_t s);
void cublas_gemm_tf32(cublasHandle_t handle, const float* a, const float* b, float* c,
                      const Gemm& g, cudaStream_t s);

}  // namespace memlab::lessons::tensor_cores
