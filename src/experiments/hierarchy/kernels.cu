#include <cuda_runtime.h>

#include <stdexcept>

#include "common/launch.hpp"
#include "hierarchy/kernels.cuh"

namespace memlab::lessons::hierarchy {
namespace {

__device__ __forceinline__ std::uint64_t global_ns() {
  std::uint64_t t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

enum class Load { Ca, Cg, Volatile, Atomic };

template <Load kind>
__device__ __forceinline__ std::uint32_t next_of(std::uint32_t* chain, std::uint32_t j) {
  if constexpr (kind == Load::Ca) return chain[j];
  if constexpr (kind == Load::Cg) return __ldcg(chain + j);
  if constexpr (kind == Load::Volatile) return __ldcv(chain + j);
  return atomicAdd(chain + j, 0u);
}

// One thread follows the chain: warm_steps untimed, then steps timed. The sum of the visited
// indices lets the host check that the chase went where the chain says.
template <Load kind>
__global__ void chase_kernel(ChaseArgs a) {
  std::uint32_t j = a.start;
  for (std::uint32_t i = 0; i < a.warm_steps; ++i) j = next_of<kind>(a.chain, j);
  std::uint64_t sum = 0;
  const long long c0 = clock64();
  const std::uint64_t t0 = global_ns();
  for (std::uint32_t i = 0; i < a.steps; ++i) {
    j = next_of<kind>(a.chain, j);
    sum += j;
  }
  const long long c1 = clock64();
  const std::uint64_t t1 = global_ns();
  a.out[0] = j;
  a.out[1] = sum;
  a.out[2] = static_cast<std::uint64_t>(c1 - c0);
  a.out[3] = t1 - t0;
}

// The block copies the chain into shared memory; thread 0 chases it there (lds latency).
__global__ void chase_shared_kernel(ChaseArgs a) {
  extern __shared__ std::uint32_t s[];
  for (std::uint32_t i = threadIdx.x; i < a.shared_words; i += blockDim.x) s[i] = a.chain[i];
  __syncthreads();
  if (threadIdx.x != 0) return;
  volatile std::uint32_t* vs = s;  // every step a real shared load
  std::uint32_t j = a.start;
  for (std::uint32_t i = 0; i < a.warm_steps; ++i) j = vs[j];
  std::uint64_t sum = 0;
  const long long c0 = clock64();
  const std::uint64_t t0 = global_ns();
  for (std::uint32_t i = 0; i < a.steps; ++i) {
    j = vs[j];
    sum += j;
  }
  const long long c1 = clock64();
  const std::uint64_t t1 = global_ns();
  a.out[0] = j;
  a.out[1] = sum;
  a.out[2] = static_cast<std::uint64_t>(c1 - c0);
  a.out[3] = t1 - t0;
}

// A dependent chain of IMADs in registers (asm volatile: the compiler may not fold two steps).
__global__ void chase_register_kernel(ChaseArgs a) {
  std::uint32_t j = a.start;
  std::uint64_t sum = 0;
  const std::uint32_t mul = kMul, add = kAdd;
  const long long c0 = clock64();
  const std::uint64_t t0 = global_ns();
  for (std::uint32_t i = 0; i < a.steps; ++i) {
    asm volatile("mad.lo.u32 %0, %0, %1, %2;" : "+r"(j) : "r"(mul), "r"(add));
    sum += j;
  }
  const long long c1 = clock64();
  const std::uint64_t t1 = global_ns();
  a.out[0] = j;
  a.out[1] = sum;
  a.out[2] = static_cast<std::uint64_t>(c1 - c0);
  a.out[3] = t1 - t0;
}

__global__ void build_chain_kernel(std::uint32_t* chain, const std::uint32_t* perm,
                                   std::uint32_t lines, std::uint32_t stride) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= lines) return;
  const std::uint32_t next = perm[(i + 1) % lines];
  chain[static_cast<std::size_t>(perm[i]) * stride] = next * stride;
}

__device__ __forceinline__ std::uint32_t sum4(uint4 v) {
  return v.x + v.y + v.z + v.w;
}

// Every block reads the whole window (16-byte loads, L1-caching), `reps` times.
__global__ void read_ca_kernel(ReadArgs a) {
  const uint4* d = reinterpret_cast<const uint4*>(a.data);
  const std::size_t n = a.words / 4;
  std::uint32_t acc = 0;
  for (std::uint32_t r = 0; r < a.reps; ++r) {
    for (std::size_t i = threadIdx.x; i < n; i += blockDim.x) acc += sum4(d[i]);
  }
  a.partial[static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x] = acc;
}

// The grid splits the window (grid-stride, ld.global.cg: L2 and beyond), `reps` times.
__global__ void read_cg_kernel(ReadArgs a) {
  const uint4* d = reinterpret_cast<const uint4*>(a.data);
  const std::size_t n = a.words / 4;
  const std::size_t tid = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  std::uint32_t acc = 0;
  for (std::uint32_t r = 0; r < a.reps; ++r) {
    for (std::size_t i = tid; i < n; i += stride) acc += sum4(__ldcg(d + i));
  }
  a.partial[tid] = acc;
}

}  // namespace

void launch_chase(Variant v, const ChaseArgs& a, cudaStream_t s) {
  switch (v) {
    case Variant::ChaseCa:
      chase_kernel<Load::Ca><<<1, 1, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(chase_ca);
      return;
    case Variant::ChaseCg:
      chase_kernel<Load::Cg><<<1, 1, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(chase_cg);
      return;
    case Variant::ChaseHost:
      chase_kernel<Load::Volatile><<<1, 1, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(chase_host);
      return;
    case Variant::AtomicChain:
      chase_kernel<Load::Atomic><<<1, 1, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(atomic_chain);
      return;
    case Variant::ChaseShared:
      chase_shared_kernel<<<1, 256, a.shared_words * sizeof(std::uint32_t), s>>>(a);
      MEMLAB_CHECK_LAUNCH(chase_shared);
      return;
    case Variant::ChaseRegister:
      chase_register_kernel<<<1, 1, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(chase_register);
      return;
    case Variant::ReadCa:
    case Variant::ReadCg:
      throw std::logic_error("hierarchy: a read variant is not a chase");
  }
}

void launch_read(Variant v, const ReadArgs& a, cudaStream_t s) {
  switch (v) {
    case Variant::ReadCa:
      read_ca_kernel<<<kReadBlocks, kReadThreads, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(read_ca);
      return;
    case Variant::ReadCg:
      read_cg_kernel<<<kReadBlocks, kReadThreads, 0, s>>>(a);
      MEMLAB_CHECK_LAUNCH(read_cg);
      return;
    case Variant::ChaseCa:
    case Variant::ChaseCg:
    case Variant::ChaseShared:
    case Variant::ChaseRegister:
    case Variant::AtomicChain:
    case Variant::ChaseHost:
      throw std::logic_error("hierarchy: a chase variant is not a read");
  }
}

void build_chain(std::uint32_t* chain, const std::uint32_t* perm, std::uint32_t lines,
                 std::uint32_t stride_words, cudaStream_t s) {
  build_chain_kernel<<<blocks_for(lines, 256), 256, 0, s>>>(chain, perm, lines, stride_words);
  MEMLAB_CHECK_LAUNCH(build_chain_kernel);
}

}  // namespace memlab::lessons::hierarchy
