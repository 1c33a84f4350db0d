// Exercise matmul_tiled, reference solution (seed 004's tiled kernel): each A and B element
// loaded from global memory is used 16 times from shared memory. As[ty][i] is a broadcast within
// a half-warp row; Bs[i][tx] is 16 consecutive words: conflict-free.
__global__ void matmul_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float As[16][16];
  __shared__ float Bs[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * 16 + ty;
  const int col = blockIdx.x * 16 + tx;
  float acc = 0.0f;
  for (int p = 0; p < (k + 15) / 16; ++p) {
    const int ka = p * 16 + tx, kb = p * 16 + ty;
    As[ty][tx] = (row < m && ka < k) ? a[(size_t)row * k + ka] : 0.0f;
    Bs[ty][tx] = (kb < k && col < n) ? b[(size_t)kb * n + col] : 0.0f;

    for (int i = 0; i < 16; ++i) acc += As[ty][i] * Bs[i][tx];
  }
  if (row < m && col < n) c[(size_t)row * n + col] = acc;
}
