#include <cuda_runtime.h>

#include <algorithm>

#include "bank_conflicts/kernels.cuh"
#include "common/launch.hpp"

namespace memlab::lessons::bank_conflicts {
namespace {

__device__ __forceinline__ long long global_ns() {
  long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// Thread 0 brackets the timed loop of the whole block (one block per SM).
struct Timer {
  long long c0 = 0, t0 = 0;
  __device__ void start() {
    __syncthreads();
    if (threadIdx.x == 0) {
      c0 = clock64();
      t0 = global_ns();
    }
  }
  __device__ void stop(long long* cycles, long long* nanoseconds) const {
    __syncthreads();
    if (threadIdx.x == 0) {
      cycles[blockIdx.x] = clock64() - c0;
      nanoseconds[blockIdx.x] = global_ns() - t0;
    }
  }
};

// The timed loops: `iters` volatile shared accesses of type T per thread to one element, in groups
// of kUnroll independent accesses (8 LDS or 8 STS back to back). Shared traffic only.
template <class T>
__device__ __forceinline__ T read_loop(volatile T* p, int iters) {
  T acc = 0;
  for (int k = 0; k < iters; k += kUnroll) {
    T v[kUnroll];
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) v[j] = *p;
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) acc += v[j];
  }
  return acc;
}

template <class T>
__device__ __forceinline__ void write_loop(volatile T* p, T x, int iters) {
  for (int k = 0; k < iters; k += kUnroll) {
    const T v = x + static_cast<T>(k);
#pragma unroll
    for (int j = 0; j < kUnroll; ++j) *p = v;
  }
}

// The block loads its shared region from `in`, times the loop, then reports: reads, each
// thread's sum; writes, the whole region.
template <class T, bool Write>
__global__ void __launch_bounds__(kThreads)
    bank_kernel(const T* __restrict__ in, T* __restrict__ out, long long* cycles,
                long long* nanoseconds, Layout layout, int region, int iters) {
  extern __shared__ unsigned long long raw[];
  T* sm = reinterpret_cast<T*>(raw);
  const int tid = static_cast<int>(threadIdx.x);
  for (int i = tid; i < region; i += kThreads) sm[i] = in[i];
  const auto e = static_cast<int>(layout.element(tid / 32, tid % 32));
  Timer timer;
  if constexpr (Write) {
    const T x = in[e];
    timer.start();
    write_loop<T>(sm + e, x, iters);
    timer.stop(cycles, nanoseconds);
    T* o = out + static_cast<std::size_t>(blockIdx.x) * static_cast<std::size_t>(region);
    for (int i = tid; i < region; i += kThreads) o[i] = sm[i];
  } else {
    timer.start();
    const T acc = read_loop<T>(sm + e, iters);
    timer.stop(cycles, nanoseconds);
    out[static_cast<std::size_t>(blockIdx.x) * kThreads + static_cast<std::size_t>(tid)] = acc;
  }
}

template <class T, bool Write>
void run(const Args& a, cudaStream_t s) {
  auto kernel = bank_kernel<T, Write>;
  MEMLAB_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         static_cast<int>(kSmemRequest)));
  kernel<<<static_cast<unsigned>(a.blocks), kThreads, kSmemRequest, s>>>(
      static_cast<const T*>(a.in), static_cast<T*>(a.out), a.cycles, a.nanoseconds, a.layout,
      static_cast<int>(a.layout.region()), a.iters);
  MEMLAB_CHECK_LAUNCH(bank_kernel);
}

}  // namespace

int sm_count() {
  int device = 0, sms = 0;
  MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
  MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

void launch(const Args& a, cudaStream_t s) {
  if (a.word == 4) {
    a.write ? run<std::uint32_t, true>(a, s) : run<std::uint32_t, false>(a, s);
  } else {
    a.write ? run<std::uint64_t, true>(a, s) : run<std::uint64_t, false>(a, s);
  }
}

}  // namespace memlab::lessons::bank_conflicts
