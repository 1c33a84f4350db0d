// Exercise letter_histogram, reference solution: seed 000's three phases. Shared atomics on 7
// words still serialize among a warp's lanes with equal letters, but stay inside the SM; only
// 7 global atomics per block reach L2.
__global__ void histogram_privatized(const unsigned char* in, int n, unsigned int* bins) {
  __shared__ unsigned int h[7];
  if (threadIdx.x < 7) h[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    const unsigned p = in[i] - 97u;
    if (p < 26u) atomicAdd(&h[p / 4], 1u);
  }
  __syncthreads();
  if (threadIdx.x < 7 && h[threadIdx.x] > 0) atomicAdd(&bins[threadIdx.x], h[threadIdx.x]);
}
