// Exercise missing_syncthreads: one barrier is missing. Launch (fixed): grid = ceil(n / 4096),
// block = 256, dynamic shared memory = 16384 bytes.
__global__ void reverse_segments(const float* in, float* out, int n) {
  extern __shared__ float s[];
  const int seg = 4096;
  const int first = blockIdx.x * seg;
  const int len = min(seg, n - first);
  for (int t = threadIdx.x; t < len; t += blockDim.x) s[t] = in[first + t];
  for (int t = threadIdx.x; t < len; t += blockDim.x) out[n - first - len + t] = s[len - 1 - t];
}
