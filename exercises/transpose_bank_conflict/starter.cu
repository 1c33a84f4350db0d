// Exercise transpose_bank_conflict: correct, but the column read of the tile is a 32-way bank
// conflict. Launch (fixed): grid = (ceil(cols / 32), ceil(rows / 32)), block = (32, 8).
__global__ void transpose_tile(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][32];  // TODO: the conflict lives here
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int y = y0 + j;
    if (x < cols && y < rows) tile[j][threadIdx.x] = in[(size_t)y * cols + x];
  }
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x;  // column of out = row of in
  const int oy0 = blockIdx.x * 32;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int oy = oy0 + j;
    if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][j];
  }
}
