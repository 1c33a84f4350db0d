// Exercise matmul_phases, reference solution (seed 004's third lesson): ceil(k / 32) phases of
// load - barrier - 32 products from shared memory - barrier. The last phase of a k that is not a
// multiple of 32 loads 0 beyond column k - 1 of A and row k - 1 of B, so its extra products add
// nothing; rows and columns outside C load 0 too and store nothing. The second barrier keeps the
// next phase from overwriting a tile that a slower warp is still reading.
#define TILE 32
__global__ void matmul_phases(const float* a, const float* b, float* c, int m, int n, int k) {
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
