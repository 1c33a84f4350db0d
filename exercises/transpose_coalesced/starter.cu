// Exercise transpose_coalesced. Launch (fixed): grid = (ceil(cols / 32), ceil(rows / 32)),
// block = (32, 32). out (cols x rows) = transpose of in (rows x cols), both row-major.
__global__ void transpose(const float* in, float* out, int rows, int cols) {
  // TODO: stage a 32x32 tile in shared memory so that the writes to out are coalesced too.
  const int x = blockIdx.x * 32 + threadIdx.x;
  const int y = blockIdx.y * 32 + threadIdx.y;
  if (x < cols && y < rows) out[(size_t)x * rows + y] = in[(size_t)y * cols + x];  // column writes
}
