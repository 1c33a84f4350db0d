// bandwidth: streaming kernels (seed 002's C = A + B and its relatives), the ceilings they aim at.
//
// Every kernel here moves each byte once: what limits it is DRAM, and the question is how close to
// the device-to-device cudaMemcpy it gets. The variants, one step each:
//   elem_f1        one thread per 4-byte element (the seeds' vecAdd): coalesced, but each thread
//                  issues one small load and exits; many blocks to schedule.
//   gridstride_f1  a resident grid walks the array: fewer blocks, same 4-byte accesses.
//   elem_f4        one thread per float4: 16-byte accesses, a quarter of the instructions.
//   gridstride_f4  resident grid, 16-byte accesses.
//   f4_unroll4     each thread loads 4 independent float4 before it stores any: 64 bytes in flight
//                  per thread, which hides DRAM latency with fewer warps.
//   f4_unroll4_cs  the same with streaming cache hints (ld.global.cs / st.global.cs: evict first),
//                  so the output does not push the inputs out of L2.
// Napkin math (H200, one run): 2^28 floats copied = 2 GiB moved; at ~4.3 TB/s that is ~0.5 ms.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace memlab::lessons::bandwidth {

enum class Op { Copy, Scale, Add, Triad, Fill };

// The fill value: a float whose four bytes are all 0x41, so that cudaMemset(0x41) writes it too.
inline constexpr unsigned char kFillByte = 0x41;

struct Args {
  const float* a;
  const float* b;
  float* c;
  float s;
  std::size_t n;
  float fill;
};

void launch(Op op, const char* variant, const Args& args, cudaStream_t stream);

}  // namespace memlab::lessons::bandwidth
