// Exercise aos_to_soa, reference solution: field x of particle i at in[0 * n + i]. A warp reads and
// writes 128 contiguous bytes: 4 sectors instead of 32.
__global__ void update_x(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = fmaf(1.0009765625f, in[i], 0.25f);
}
