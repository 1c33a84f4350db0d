// The l2_persistence lesson's kernel and its launcher (which sets the stream's access policy).
#include "common/launch.hpp"
#include "l2_persistence/kernels.cuh"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::l2_persistence {
namespace {

constexpr unsigned kBlock = 256;

// One thread per group of 8 cold floats: two 16-byte loads and stores when the group is whole
// and aligned, scalar otherwise (the tail). EvictFirst: the cold stream's loads and stores carry
// the evict-first hint (ld.global.cs / st.global.cs), the software way to spare the table.
template <bool EvictFirst>
__global__ void gather(const float* __restrict__ cold, const float* __restrict__ table,
                       float* __restrict__ out, std::size_t n, std::size_t table_n) {
  const std::size_t j = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  const std::size_t first = j * kGroup;
  if (first >= n) return;
  const float g = table[table_index(j, table_n)];
  if (first + kGroup <= n) {
    const float4* c4 = reinterpret_cast<const float4*>(cold + first);
    float4* o4 = reinterpret_cast<float4*>(out + first);
    float4 a = EvictFirst ? __ldcs(c4) : c4[0];
    float4 b = EvictFirst ? __ldcs(c4 + 1) : c4[1];
    a.x += g, a.y += g, a.z += g, a.w += g;
    b.x += g, b.y += g, b.z += g, b.w += g;
    if (EvictFirst) {
      __stcs(o4, a);
      __stcs(o4 + 1, b);
    } else {
      o4[0] = a;
      o4[1] = b;
    }
  } else {
    for (std::size_t i = first; i < n; ++i) out[i] = cold[i] + g;
  }
}

cudaAccessProperty hit_property(Policy p) {
  switch (p) {
    case Policy::kNone:
      return cudaAccessPropertyNormal;
    case Policy::kPersisting:
      return cudaAccessPropertyPersisting;
    case Policy::kStreaming:
      return cudaAccessPropertyStreaming;
  }
  return cudaAccessPropertyNormal;
}

void set_window(cudaStream_t stream, const void* base, std::size_t bytes, float hit_ratio,
                cudaAccessProperty hit) {
  cudaStreamAttrValue attr{};
  attr.accessPolicyWindow.base_ptr = const_cast<void*>(base);
  attr.accessPolicyWindow.num_bytes = bytes;
  attr.accessPolicyWindow.hitRatio = hit_ratio;
  attr.accessPolicyWindow.hitProp = hit;
  attr.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
  MEMLAB_CUDA_CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &attr));
}

}  // namespace

void launch_gather(const float* cold, const float* table, float* out, std::size_t n,
                   std::size_t table_n, const Window& window, bool evict_first_cold,
                   cudaStream_t stream) {
  const bool windowed = window.policy != Policy::kNone && window.bytes > 0;
  if (windowed) {
    set_window(stream, table, window.bytes, window.hit_ratio, hit_property(window.policy));
  }
  const std::size_t groups = (n + kGroup - 1) / kGroup;
  if (evict_first_cold) {
    gather<true><<<blocks_for(groups, kBlock), kBlock, 0, stream>>>(cold, table, out, n, table_n);
  } else {
    gather<false><<<blocks_for(groups, kBlock), kBlock, 0, stream>>>(cold, table, out, n, table_n);
  }
  MEMLAB_CHECK_LAUNCH(gather);
  if (windowed) set_window(stream, nullptr, 0, 0.0f, cudaAccessPropertyNormal);
}

}  // namespace memlab::lessons::l2_persistence
