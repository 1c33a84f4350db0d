// Exercise smem_reverse_dynamic, reference solution: the seeds' dynamicReverse per block, the
// segment sized by the launch. Block-stride loops keep each warp's 32 accesses adjacent
// (coalesced in global memory, conflict-free in shared memory).
__global__ void reverse_dynamic(const float* in, float* out, int n) {
  extern __shared__ float s[];
  const int seg = 4096;
  const int first = blockIdx.x * seg;
  const int len = min(seg, n - first);
  for (int t = threadIdx.x; t < len; t += blockDim.x) s[t] = in[first + t];
  __syncthreads();
  for (int t = threadIdx.x; t < len; t += blockDim.x) out[n - first - len + t] = s[len - 1 - t];
}
