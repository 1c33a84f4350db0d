// Exercise smem_reverse_dynamic. Launch (fixed): grid = ceil(n / 4096), block = 256,
// dynamic shared memory = 16384 bytes (4096 floats).
__global__ void reverse_dynamic(const float* in, float* out, int n) {
  // TODO: extern __shared__ float s[];
  const int seg = 4096;
  const int first = blockIdx.x * seg;
  const int len = min(seg, n - first);
  // TODO: block-stride loop: s[t] = in[first + t] for t = threadIdx.x; t < len; t += blockDim.x
  // TODO: __syncthreads(), then out[n - first - len + t] = s[len - 1 - t] in the same loop shape.
  for (int t = threadIdx.x; t < len; t += blockDim.x) out[first + t] = in[first + t];
}
