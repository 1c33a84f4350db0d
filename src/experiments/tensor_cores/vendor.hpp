// cuBLAS GEMM for the tensor-core lesson: BF16 or TF32 inputs, FP32 compute and output.
#pragma once

#include <cublas_v2.h>

#include "tensor_cores/kernels.cuh"

namespace memlab::lessons::tensor_cores {

class Cublas {
 public:
  Cublas();
  ~Cublas();
  Cublas(const Cublas&) = delete;
  Cublas& operator=(const Cublas&) = delete;

  // Row-major C = A B through the column-major library: C^T = B^T A^T (B as the left operand).
  void gemm_bf16(const void* a, const void* b, float* c, const Gemm& g, cudaStream_t s) const;
  void gemm_tf32(const float* a, const float* b, float* c, const Gemm& g, cudaStream_t s) const;

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace memlab::lessons::tensor_cores
