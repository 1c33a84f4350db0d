// Exercise aos_to_soa: x' = 1.0009765625 x + 0.25 for n particles of 8 floats. Launch (fixed):
// grid = ceil(n / 256), block = 256. in and out are now structures of arrays.
__global__ void update_x(const float* in, float* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  // TODO: this indexes an array of structures (particle i at in[8 i]); use the SoA layout.
  if (i < n) out[8 * i] = fmaf(1.0009765625f, in[8 * i], 0.25f);
}
