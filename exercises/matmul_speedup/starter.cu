// Exercise matmul_speedup: C = A B, row-major; A is m x k, B is k x n, C is m x n.
// Launch (fixed): grid = (ceil(n / 32), ceil(m / 32)), block = (32, 32).
// The starter is the naive kernel of exercise matmul_naive: correct and coalesced, every operand
// from global memory (2 loads per multiply-add). Its speed-up over the lesson's naive is 1.
__global__ void matmul_speedup(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO: 32 x 32 tiles of A and B in shared memory, ceil(k / 32) phases (exercise
  //       matmul_phases); then compare your time with the naive kernel's.
  const int col = blockIdx.x * 32 + threadIdx.x;
  const int row = blockIdx.y * 32 + threadIdx.y;
  if (row >= m || col >= n) return;
  float acc = 0.0f;
  for (int i = 0; i < k; ++i) acc += a[(size_t)row * k + i] * b[(size_t)i * n + col];
  c[(size_t)row * n + col] = acc;
}
