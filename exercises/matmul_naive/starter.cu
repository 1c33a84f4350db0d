// Exercise matmul_naive: C = A B, row-major; A is m x k, B is k x n, C is m x n.
// Launch (fixed): grid = (ceil(n / 32), ceil(m / 32)), block = (32, 32).
// The starter is correct, but inside its 32 x 32 tile of C threadIdx.x walks the ROWS: the 32 lanes
// of a warp read A in 32 different rows (32 sectors per request) and store C 32 rows apart.
__global__ void matmul_naive(const float* a, const float* b, float* c, int m, int n, int k) {
  // TODO: one thread per C element with threadIdx.x along the columns (col from x, row from y),
  //       so that a warp reads one A element (a broadcast) and 32 consecutive B elements.
  const int row = blockIdx.y * 32 + threadIdx.x;
  const int col = blockIdx.x * 32 + threadIdx.y;
  if (row < m && col < n) {
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) acc += a[(size_t)row * k + i] * b[(size_t)i * n + col];
    c[(size_t)row * n + col] = acc;
  }
}
