// nccl-tests' conventions (NVIDIA/nccl-tests, doc/PERFORMANCE.md), host-only so the host tests
// check them. `size` is the largest buffer of one rank in bytes: all_reduce and broadcast count
// elements x type size; all_gather the gathered (receive) buffer; reduce_scatter the send
// buffer; send_recv the bytes each rank sends. Algorithm bandwidth algbw = size / time. Bus
// bandwidth busbw = algbw x factor: the rate each link must carry for that algbw with an optimal
// algorithm, so figures of different collectives and rank counts compare with the link's rate:
//   all_reduce      2 (n - 1) / n   (a reduce-scatter then an all-gather)
//   all_gather      (n - 1) / n     (each rank receives the n - 1 chunks it lacks)
//   reduce_scatter  (n - 1) / n
//   broadcast       1               (every byte crosses one link per rank, pipelined)
//   send_recv       1
#pragma once

#include <cstddef>

namespace memlab::lessons::collectives {

enum class Collective { AllReduce, AllGather, ReduceScatter, Broadcast, SendRecv };

inline double bus_factor(Collective c, int ranks) {
  const double n = ranks;
  if (ranks < 1) return 0.0;
  switch (c) {
    case Collective::AllReduce:
      return 2.0 * (n - 1.0) / n;
    case Collective::AllGather:
    case Collective::ReduceScatter:
      return (n - 1.0) / n;
    case Collective::Broadcast:
    case Collective::SendRecv:
      return 1.0;
  }
  return 0.0;
}

// GB/s (1e9 B/s) of `size` bytes in `ms` milliseconds.
inline double algbw_gbps(double size_bytes, double ms) {
  return ms > 0 ? size_bytes / (ms * 1e-3) / 1e9 : 0.0;
}
inline double busbw_gbps(Collective c, int ranks, double size_bytes, double ms) {
  return algbw_gbps(size_bytes, ms) * bus_factor(c, ranks);
}

// Elements per rank the NCCL call takes for `size` bytes of 4-byte floats (nccl-tests' count):
// all_gather's sendcount and reduce_scatter's recvcount are size / n; the rest size. `size` is
// rounded down to a multiple of 4 x n so that every rank's chunk is whole.
inline std::size_t call_count(Collective c, std::size_t size_bytes, int ranks) {
  const std::size_t n = ranks > 0 ? static_cast<std::size_t>(ranks) : 1;
  const std::size_t elements = size_bytes / 4 / n * n;
  switch (c) {
    case Collective::AllGather:
    case Collective::ReduceScatter:
      return elements / n;
    case Collective::AllReduce:
    case Collective::Broadcast:
    case Collective::SendRecv:
      return elements;
  }
  return 0;
}

// The time the links need at `link_gbps` per direction for the bus traffic of one call: the
// prediction the measurement is compared with (latency and protocol overhead left out).
inline double link_time_ms(Collective c, int ranks, double size_bytes, double link_gbps) {
  return link_gbps > 0 ? 1e3 * size_bytes * bus_factor(c, ranks) / (link_gbps * 1e9) : 0.0;
}

}  // namespace memlab::lessons::collectives
