// Exercise missing_syncthreads, reference solution: the barrier between the shared writes and
// the shared reads (each thread reads elements another warp wrote).
__global__ void reverse_segments(const float* in, float* out, int n) {
  extern __shared__ float s[];
  const int seg = 4096;
  const int first = blockIdx.x * seg;
  const int len = min(seg, n - first);
  for (int t = threadIdx.x; t < len; t += blockDim.x) s[t] = in[first + t];
  __syncthreads();
  for (int t = threadIdx.x; t < len; t += blockDim.x) out[n - first - len + t] = s[len - 1 - t];
}
