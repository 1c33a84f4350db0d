// Exercise conv2d_tiled, reference solution (seed 000's input-tile design in 2D): each warp loads
// one 128-byte row of the tile; the O x O output threads read K^2 taps from shared memory
// (stride 1 across a warp row: conflict-free) and the mask from constant memory (broadcast).
__constant__ float c_mask[15 * 15];

__global__ void conv2d_tiled(const float* in, float* out, int height, int width, int k) {
  __shared__ float tile[32][32];
  const int o = 33 - k, r = k / 2;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int x = blockIdx.x * o + tx, y = blockIdx.y * o + ty;
  const int xi = x - r, yi = y - r;
  tile[ty][tx] =
      (xi >= 0 && xi < width && yi >= 0 && yi < height) ? in[(size_t)yi * width + xi] : 0.0f;
  __syncthreads();
  if (tx < o && ty < o && x < width && y < height) {
    float acc = 0.0f;
    for (int i = 0; i < k; ++i) {
      for (int j = 0; j < k; ++j) acc += c_mask[i * k + j] * tile[ty + i][tx + j];
    }
    out[(size_t)y * width + x] = acc;
  }
}
