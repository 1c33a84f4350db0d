// hierarchy: every level of the memory hierarchy, measured (seed 000 §1, seed 001's level table).
//
// Latency is measured with a pointer chase: one thread follows a random cyclic chain of 4-byte
// "next" indices, one per line of `line` bytes, over a working set of `ws` bytes. Each load's
// address depends on the previous load's value, so nothing overlaps: cycles / load is the latency
// of the level the working set fits in (L1, L2, HBM; beyond the TLB reach every load also walks
// the page tables). clock64 gives cycles, %globaltimer nanoseconds, over the same timed steps.
// Before each chase all SMs read the ring once (as much as fits stays in L2: the steady state of
// random accesses over ws), and each run continues the ring where the last one stopped, so a
// timed path never re-reads lines the previous run left in L2 (a fixed path would: 8192 lines of
// 128 B fit in L2 whatever the working set).
// The variants, one per level:
//   chase_ca        default loads (cached in L1): the L1 plateau, then L2, then HBM, then TLB.
//   chase_cg        ld.global.cg (L2 only): the L2 latency even for tiny working sets.
//   chase_shared    the chain copied into shared memory (ws <= 32 KiB): shared-memory latency.
//   chase_register  a dependent chain of integer multiply-adds in registers: the ~1-cycle claim.
//   atomic_chain    next = atomicAdd(&chain[j], 0): a dependent chain of global atomics (at L2).
//   chase_host      the chain in mapped pinned host memory (ld.volatile): a PCIe round trip.
//   read_ca         bandwidth: every block reads the whole window with L1-caching 16-byte loads
//                   (ws <= 8 MiB): the per-SM L1 plateau, then L2.
//   read_cg         bandwidth: the grid splits the window, L1 bypassed: L2 plateau, then HBM.
// Napkin math (H200): L1 ~30-40 cycles, L2 ~200-300, HBM ~500-700; 4096 steps at ~0.4 us = 2 ms.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace memlab::lessons::hierarchy {

enum class Variant {
  ChaseCa,
  ChaseCg,
  ChaseShared,
  ChaseRegister,
  AtomicChain,
  ChaseHost,
  ReadCa,
  ReadCg
};

struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};

inline constexpr VariantInfo kVariants[] = {
    {Variant::ChaseCa, "chase_ca", "pointer chase, default (L1-caching) loads"},
    {Variant::ChaseCg, "chase_cg", "pointer chase, ld.global.cg (L2, L1 bypassed)"},
    {Variant::ChaseShared, "chase_shared", "pointer chase in shared memory (ws <= 32 KiB)"},
    {Variant::ChaseRegister, "chase_register", "dependent multiply-add chain in registers"},
    {Variant::AtomicChain, "atomic_chain", "dependent chain of global atomicAdd (at L2)"},
    {Variant::ChaseHost, "chase_host", "pointer chase in mapped pinned host memory (PCIe)"},
    {Variant::ReadCa, "read_ca", "all SMs: every block reads the window, L1-caching (ws<=8MiB)"},
    {Variant::ReadCg, "read_cg", "all SMs: the grid splits the window, L1 bypassed"},
};

// The register chain: j = j * kMul + kAdd (mod 2^32), one dependent IMAD per step.
inline constexpr std::uint32_t kMul = 1664525u;
inline constexpr std::uint32_t kAdd = 1013904223u;

// Read-bandwidth launch shape (fixed, so that the useful bytes are known before the launch).
inline constexpr unsigned kReadBlocks = 1024;
inline constexpr unsigned kReadThreads = 256;

struct ChaseArgs {
  std::uint32_t* chain;  // device, or mapped host memory (chase_host); indices in 4-byte words
  std::uint32_t start;
  std::uint32_t warm_steps;    // untimed steps first (fill the caches and TLBs)
  std::uint32_t steps;         // timed steps
  std::uint32_t shared_words;  // chase_shared: words copied into shared memory
  std::uint64_t* out;          // [final index, sum of visited indices, cycles, nanoseconds]
};

struct ReadArgs {
  const std::uint32_t* data;
  std::size_t words;  // window, in 4-byte words (a multiple of 4)
  std::uint32_t reps;
  std::uint32_t* partial;  // kReadBlocks * kReadThreads sums (mod 2^32)
};

void launch_chase(Variant v, const ChaseArgs& args, cudaStream_t stream);
void launch_read(Variant v, const ReadArgs& args, cudaStream_t stream);
// Writes chain[perm[i] * stride] = perm[(i + 1) % lines] * stride on the device.
void build_chain(std::uint32_t* chain, const std::uint32_t* perm, std::uint32_t lines,
                 std::uint32_t stride_words, cudaStream_t stream);

}  // namespace memlab::lessons::hierarchy
