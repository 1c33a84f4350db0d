// Exercise transpose_bank_conflict, reference solution: tile[32][33]. Word (r, c) is in bank
// (33 r + c) mod 32 = (r + c) mod 32, so the column read tile[lane][j] hits 32 banks.
__global__ void transpose_tile(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y0 = blockIdx.y * 32;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int y = y0 + j;
    if (x < cols && y < rows) tile[j][threadIdx.x] = in[(size_t)y * cols + x];
  }

  const int ox = blockIdx.y * 32 + threadIdx.x;
  const int oy0 = blockIdx.x * 32;
  for (int j = threadIdx.y; j < 32; j += 8) {
    const int oy = oy0 + j;
    if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][j];
  }
}
