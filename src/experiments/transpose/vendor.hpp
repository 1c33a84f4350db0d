// cuBLAS's transpose as the vendor line: cublasSgeam, row-major in -> row-major out.
#pragma once

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include "common/cublas.hpp"

namespace memlab::lessons::transpose {

// `handle`: a CublasHandle (common/cublas.hpp), default math.
// out = in^T for a row-major rows x cols `in` (out: cols x rows, row-major), through the
// column-major library. Row-major `in` is the column-major cols x rows matrix A with lda = cols
// (A(c, r) = in[r cols + c]); row-major `out` is the column-major rows x cols matrix C with ldc =
// rows (C(r, c) = out[c rows + r]); out[c][r] = in[r][c] is C = A^T: geam(T, N, m = rows,
// n = cols, alpha = 1, A, cols, beta = 0, B, rows, C, rows). B (m x n, op N) is C itself with ldb
// = ldc, geam's documented in-place form C = alpha op(A) + beta C; with beta = 0 it is not read
// (if it were, the poisoned NaN output would fail the check). Binds the handle to `stream` first.
void cublas_transpose(cublasHandle_t handle, const float* in, float* out, int rows, int cols,
                      cudaStream_t stream);

}  // namespace memlab::lessons::transpose
