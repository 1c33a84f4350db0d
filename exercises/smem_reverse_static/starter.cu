// Exercise smem_reverse_static: out[n - 1 - i] = in[i] through a static shared segment.
// Launch (fixed): grid = ceil(n / 1024), block = 1024.
__global__ void reverse_static(const float* in, float* out, int n) {
  // TODO: declare the block's segment: __shared__ float s[1024];
  const int first = blockIdx.x * 1024;
  const int len = min(1024, n - first);
  const int t = threadIdx.x;
  // TODO: load in[first + t] into s[t] (threads t < len), wait for the whole block,
  //       then write the segment reversed to out, starting at n - first - len.
  if (t < len) out[first + t] = in[first + t];  // copies, does not reverse yet
}
