// `memlab run --devices` and `mpirun ... memlab run`: the parts of `memlab run` that involve
// more than one worker (src/cli/fleet_run.cpp, fleet_mpi.cpp). Internal to src/cli/.
#pragma once

#include <string>
#include <vector>

#include "memlab/bench/plan.hpp"
#include "memlab/report/output_file.hpp"

namespace memlab::cli {

// The environment variable that makes a `memlab run` child a --devices worker: "RANK,SIZE".
inline constexpr const char* kWorkerEnv = "MEMLAB_FLEET_WORKER";

// In a --devices worker: the distributed state from kWorkerEnv (else nothing).
void adopt_worker_environment();

// The arguments of this process after "run" (from /proc/self/cmdline), without --devices,
// -d/--device and the output options (--json, --csv, --md) and their values.
std::vector<std::string> worker_arguments(const std::vector<std::string>& run_args);

// Runs `plan` once per GPU in `devices` (one child process each, all at once), prints each
// worker's table and the fleet summary, writes the merged JSON to `json` (if open).
// Returns the exit code (the worst of the workers').
int run_devices(const std::vector<int>& devices, const bench::Plan& plan, report::OutputFile& json,
                const std::string& command_line);

// The worse of two exit codes: internal (4) > usage (2) > CUDA (3) > verification (1) > ok (0).
int worse_exit(int a, int b);

// `mpirun -np N memlab run`: this rank runs `request` on GPU local_rank % GPUs; rank 0 gathers
// every rank's run JSON, prints its table and the fleet summary and writes the merged JSON.
// Returns this rank's exit code (rank 0: the worst of all ranks).
int run_mpi(bench::RunRequest request, bool seed_given, report::OutputFile& json,
            const std::string& command_line);

}  // namespace memlab::cli
