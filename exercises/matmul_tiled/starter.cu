// Exercise matmul_tiled: C = A B, row-major. Launch (fixed): grid = (ceil(n / 16), ceil(m / 16)),
// block = (16, 16). The starter is seed 004's naive kernel: correct, every operand from global.
__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  const int row = blockIdx.y * 16 + threadIdx.y;
  const int col = blockIdx.x * 16 + threadIdx.x;
  // TODO: __shared__ float As[16][16], Bs[16][16]; loop over phases p = 0 .. ceil(k / 16) - 1:
  //       load one element of each tile (0 outside), __syncthreads(), 16 products,
  //       __syncthreads().
  if (row < m && col < n) {
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) acc += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = acc;
  }
}
