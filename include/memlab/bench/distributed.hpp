// Who else runs this plan at the same time: the workers of `memlab run --devices` (one child
// process per GPU) or the ranks of `mpirun -np N memlab run`. Host-only, plain data plus two
// hooks; set once by the front end before make_plan, read by lessons that involve more than one
// GPU (p2p and multi_gpu_pipeline run once per node, on local rank 0; collectives bootstrap NCCL
// through `broadcast`).
#pragma once

#include <cstddef>
#include <functional>
#include <string>

namespace memlab::bench {

struct Distributed {
  enum class Mode { Single, Devices, Mpi };
  Mode mode = Mode::Single;
  int rank = 0, size = 1;              // this worker among all of them
  int local_rank = 0, local_size = 1;  // ... among those on this host
  std::string host;                    // empty: this host
  // MPI: some host runs more ranks than it has GPUs, so ranks share a GPU (the same on every
  // rank: fleet_mpi.cpp gathers it before the plan). Lessons that need a GPU per rank skip.
  bool shared_gpus = false;
  // MPI only (empty otherwise): copy `bytes` at `data` from rank `root` to every rank; wait for
  // every rank. Collective calls: every rank calls them in the same order.
  std::function<void(void* data, std::size_t bytes, int root)> broadcast;
  std::function<void()> barrier;

  bool node_leader() const { return local_rank == 0; }
  // Several processes take part and share a communicator (MPI with more than one rank).
  bool multi_process() const { return mode == Mode::Mpi && size > 1 && bool(broadcast); }
};

const Distributed& distributed();
void set_distributed(Distributed d);

}  // namespace memlab::bench
