// Exercise matmul_speedup, reference solution: seed 004's tiled kernel with 32 x 32 tiles. Each
// element of A and B loaded from global memory serves 32 multiply-adds from shared memory, so the
// global loads fall 32-fold; the time falls far less (docs/matmul.md: about 1.4x on the H200),
// because the L1 and L2 already served most of the naive kernel's re-reads and every product still
// costs shared-memory loads.
#define TILE 32
__global__ void matmul_speedup(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int phase = 0; phase < (k + TILE - 1) / TILE; ++phase) {
    const int ka = phase * TILE + tx, kb = phase * TILE + ty;
    As[ty][tx] = (row < m && ka < k) ? a[(size_t)row * k + ka] : 0.0f;
    Bs[ty][tx] = (kb < k && col < n) ? b[(size_t)kb * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < TILE; ++i) acc += As[ty][i] * Bs[i][tx];
    __syncthreads();
  }
  if (row < m && col < n) c[(size_t)row * n + col] = acc;
}
