// Exercise smem_reverse_static, reference solution.
// Block b: segment [first, first + len) of in; its mirror in out starts at n - first - len.
// Global loads ascending and stores ascending (the reversal happens in shared memory): both
// coalesced. Shared reads s[len - 1 - t]: consecutive words, conflict-free.
__global__ void reverse_static(const float* in, float* out, int n) {
  __shared__ float s[1024];
  const int first = blockIdx.x * 1024;
  const int len = min(1024, n - first);
  const int t = threadIdx.x;
  if (t < len) s[t] = in[first + t];
  __syncthreads();
  if (t < len) out[n - first - len + t] = s[len - 1 - t];
}
