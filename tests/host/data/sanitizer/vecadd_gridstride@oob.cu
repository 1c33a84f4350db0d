// Exercise vecadd_gridstride, reference solution: grid-stride over float4 quads, then the tail.
__global__ void vec_add(const float* a, const float* b, float* c, int n) {
  const int stride = gridDim.x * blockDim.x;
  const int quads = n / 4;
  const float4* a4 = reinterpret_cast<const float4*>(a);
  const float4* b4 = reinterpret_cast<const float4*>(b);
  float4* c4 = reinterpret_cast<float4*>(c);
  for (int q = blockIdx.x * blockDim.x + threadIdx.x; q < quads; q += stride) {
    const float4 x = a4[q], y = b4[q];
    c4[q] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
  for (int i = 4 * quads + blockIdx.x * blockDim.x + threadIdx.x; i < n + 4096; i += stride) {
    c[i + 4096] = a[i] + b[i];
  }
}
