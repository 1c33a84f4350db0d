// Exercise strided_read, reference solution: a grid-stride loop, thread t takes elements t,
// t + T, t + 2 T, ... (T = all threads of the grid). In every step the 32 lanes of a warp write 32
// consecutive floats (4 sectors, one 128-byte line) and read in[i * stride + offset]: at stride 1
// that is 4-5 sectors per request (5 when the offset leaves the line boundary), at stride s the
// request spans s times the bytes, and from stride 8 on every lane costs a sector of its own
// (12.5% of the fetched bytes used).
__global__ void gather_strided(const float* in, float* out, int n, int stride, int offset) {
  const int threads = gridDim.x * blockDim.x;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += threads) {
    out[i] = in[(size_t)i * stride + offset];
  }
}
