// Exercise matmul_phases: C = A B, row-major; A is m x k, B is k x n, C is m x n.
// Launch (fixed): grid = (ceil(n / 32), ceil(m / 32)), block = (32, 32).
// The starter is seed 004's second lesson as it stands: it loads ONE tile of A and one of B
// (phase 0), synchronises and multiplies them, so it covers only the first 32 terms of each dot
// product, and it reads past the end of a row of A and a column of B where k < 32.
#define TILE 32
__global__ void matmul_phases(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int row = blockIdx.y * TILE + ty;
  const int col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  // TODO: repeat load - __syncthreads() - compute - __syncthreads() for every phase
  //       p = 0 .. ceil(k / TILE) - 1, and load 0 where p * TILE + tx or p * TILE + ty >= k.
  const int phase = 0;
  As[ty][tx] = row < m ? a[(size_t)row * k + phase * TILE + tx] : 0.0f;
  Bs[ty][tx] = col < n ? b[(size_t)(phase * TILE + ty) * n + col] : 0.0f;
  __syncthreads();
  for (int i = 0; i < TILE; ++i) acc += As[ty][i] * Bs[i][tx];
  if (row < m && col < n) c[(size_t)row * n + col] = acc;
}
