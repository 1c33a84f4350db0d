// Exercise transpose_coalesced, reference solution: tile[32][33] (conflict-free column read),
// rows of in read and rows of out written by consecutive lanes.
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  __shared__ float tile[32][33];
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y = blockIdx.y * 32 + threadIdx.y;
  if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
  __syncthreads();
  const int ox = blockIdx.y * 32 + threadIdx.x;  // column of out
  const int oy = blockIdx.x * 32 + threadIdx.y;  // row of out
  if (ox < rows && oy < cols) out[(size_t)oy * rows + ox] = tile[threadIdx.x][threadIdx.y];
}
