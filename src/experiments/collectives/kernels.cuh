// collectives: NCCL's collectives across the GPUs of this process (one process, every GPU it
// sees, ncclCommInitAll) or across MPI ranks (one GPU per rank, ncclCommInitRank with the unique
// id broadcast through MPI). Time, algorithm and bus bandwidth by nccl-tests' conventions
// (conventions.hpp); every result checked against a CPU reference.
//
// Variants (enumerators of `Variant`): all_reduce, all_gather, reduce_scatter, broadcast,
// send_recv (a ring: rank r sends to r + 1 and receives from r - 1).
//
// Inputs: rank r's element i is a small integer (0..63) as a float, so sums over up to 2^18
// ranks stay exact and every reduction is checked bit for bit.
//
// Napkin math (2 x H200, NV18, 450 GB/s per direction): an all_reduce of 1 GiB moves
// 2 (n - 1) / n x 1 GiB = 1 GiB over each link: 2.4 ms at the link rate, busbw 450 GB/s;
// nccl-tests shows ~360-380 GB/s busbw there (NVLS off). Small sizes: ~10-20 us of latency.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "collectives/conventions.hpp"
#include "common/variants.hpp"

namespace memlab::lessons::collectives {

enum class Variant {
  // Every rank ends with the element-wise sum of all ranks' buffers (ring or tree inside NCCL).
  AllReduce,
  // Every rank ends with all ranks' chunks, rank r's at offset r x chunk.
  AllGather,
  // Rank r ends with chunk r of the element-wise sum.
  ReduceScatter,
  // Every rank ends with rank 0's buffer.
  Broadcast,
  // Rank r sends its buffer to rank r + 1 and receives rank r - 1's (mod n), all at once.
  SendRecv,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::AllReduce, "all_reduce", "ncclAllReduce (sum): every rank gets the sum"},
    {Variant::AllGather, "all_gather", "ncclAllGather: every rank gets every rank's chunk"},
    {Variant::ReduceScatter, "reduce_scatter", "ncclReduceScatter (sum): rank r gets chunk r"},
    {Variant::Broadcast, "broadcast", "ncclBroadcast from rank 0"},
    {Variant::SendRecv, "send_recv", "ncclSend/ncclRecv ring: r -> r + 1"},
};

inline Collective collective_of(Variant v) {
  switch (v) {
    case Variant::AllReduce:
      return Collective::AllReduce;
    case Variant::AllGather:
      return Collective::AllGather;
    case Variant::ReduceScatter:
      return Collective::ReduceScatter;
    case Variant::Broadcast:
      return Collective::Broadcast;
    case Variant::SendRecv:
      return Collective::SendRecv;
  }
  invalid_variant("collectives");
}

// Rank r's input element i: (random_u64(seed + r, i) & 63) as a float (host and device agree).
void fill_rank_input(float* data, std::size_t n, std::uint64_t seed, int rank, cudaStream_t stream);
float rank_input(std::uint64_t seed, int rank, std::size_t i);

}  // namespace memlab::lessons::collectives
