// Exercise strided_read: out[i] = in[i * stride + offset] for i < n (floats).
// Launch (fixed): grid = min(ceil(n / 256), 1056), block = 256: fewer threads than elements, so
// each thread copies several.
// The starter is correct, but it hands each thread one contiguous chunk of the output: at the
// measuring point the chunks are 249 floats long, so the 32 lanes of a warp are ~1 KB apart and
// every warp request touches 32 sectors in 32 different lines, even where stride = 1.
__global__ void gather_strided(const float* in, float* out, int n, int stride, int offset) {
  const int threads = gridDim.x * blockDim.x;
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int chunk = (n + threads - 1) / threads;
  // TODO: let neighbouring lanes take neighbouring elements: i = t, t + threads, t + 2 threads, ...
  for (int i = t * chunk; i < n && i < (t + 1) * chunk; ++i) {
    out[i] = in[(size_t)i * stride + offset];
  }
}
