#include <cuda_runtime.h>

#include "common/launch.hpp"
#include "constant_memory/kernels.cuh"

namespace memlab::lessons::constant_memory {
namespace {

__constant__ std::uint32_t c_table[kTableWords];

template <Variant v>
__device__ __forceinline__ std::uint32_t load(const std::uint32_t* table, std::uint32_t i) {
  if constexpr (v == Variant::Constant) return c_table[i];
  if constexpr (v == Variant::Ldg) return __ldg(table + i);
  return table[i];  // global (plain ld.global) or shared (the caller passes the shared copy)
}

// The chain: every lane of a warp reads x + 65 * (lane % distinct) and gets the same next x.
template <Variant v>
__global__ void chain_kernel(Args a) {
  __shared__ std::uint32_t s_table[kTableWords];
  const std::uint32_t* table = a.table;
  if constexpr (v == Variant::Shared) {
    for (int i = threadIdx.x; i < kTableWords; i += blockDim.x) s_table[i] = a.table[i];
    __syncthreads();
    table = s_table;
  }
  const unsigned lane = threadIdx.x % 32;
  const std::size_t gid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint32_t offset = kSpacing * (lane % a.distinct);
  std::uint32_t x = static_cast<std::uint32_t>(gid / 32) % kChain;
  std::uint32_t sum = 0;
  const long long c0 = clock64();
  for (std::uint32_t i = 0; i < a.steps; ++i) {
    x = load<v>(table, x + offset);
    sum += x;
  }
  const long long c1 = clock64();
  a.out[2 * gid] = x;
  a.out[2 * gid + 1] = sum;
  if (gid == 0) *a.cycles = static_cast<unsigned long long>(c1 - c0);
}

template <Variant v>
void launch_one(const Args& a, cudaStream_t s) {
  const unsigned blocks = a.throughput ? kThroughputBlocks : 1;
  const unsigned threads = a.throughput ? kThroughputThreads : 32;
  chain_kernel<v><<<blocks, threads, 0, s>>>(a);
}

}  // namespace

void upload_constant_table(const std::uint32_t* host_table, cudaStream_t s) {
  MEMLAB_CUDA_CHECK(
      cudaMemcpyToSymbolAsync(c_table, host_table, sizeof(c_table), 0, cudaMemcpyHostToDevice, s));
}

void launch(Variant v, const Args& a, cudaStream_t s) {
  switch (v) {
    case Variant::Constant:
      launch_one<Variant::Constant>(a, s);
      MEMLAB_CHECK_LAUNCH(chain_constant);
      return;
    case Variant::Global:
      launch_one<Variant::Global>(a, s);
      MEMLAB_CHECK_LAUNCH(chain_global);
      return;
    case Variant::Ldg:
      launch_one<Variant::Ldg>(a, s);
      MEMLAB_CHECK_LAUNCH(chain_ldg);
      return;
    case Variant::Shared:
      launch_one<Variant::Shared>(a, s);
      MEMLAB_CHECK_LAUNCH(chain_shared);
      return;
  }
}

}  // namespace memlab::lessons::constant_memory
