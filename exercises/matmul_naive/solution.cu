// Exercise matmul_naive, reference solution (seed 004's naive kernel): thread (ty, tx) of block
// (by, bx) computes C[32 by + ty][32 bx + tx], the dot product of a row of A and a column of B,
// every operand from global memory. Per k a warp loads one A element (a broadcast) and 32
// consecutive B elements (one 128-byte line); its C store is one line. Threads outside C (m, n
// not multiples of 32) return before loading anything.
__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  const int col = blockIdx.x * 32 + threadIdx.x;
  const int row = blockIdx.y * 32 + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc += a[(size_t)row * k + i] * b[(size_t)i * n + col];
  c[(size_t)row * n + col] = acc;
}
