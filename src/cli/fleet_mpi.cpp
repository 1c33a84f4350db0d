// `mpirun -np N memlab run`: one rank per GPU, rank 0 gathers. Every rank plans the same run
// (rank 0's seed broadcast first), runs it on GPU local_rank % GPUs and sends its run JSON (or,
// when it failed, its error) to rank 0, so that one rank's CUDA error never leaves the others
// waiting in the gather.
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "fleet_run.hpp"
#include "memlab/bench/distributed.hpp"
#include "memlab/cli/errors.hpp"
#include "memlab/cli/mpi.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/fleet.hpp"
#include "memlab/report/lessons.hpp"
#include "memlab/report/report.hpp"

namespace memlab::cli {

int run_mpi(bench::RunRequest request, bool seed_given, report::OutputFile& json,
            const std::string& command_line) {
  if (!mpi::available()) {
    throw UsageError(
        "mpirun: this memlab was built without MPI (configure with -DMEMLAB_MPI=ON and "
        "libopenmpi-dev installed); run it without mpirun, or with --devices");
  }
  const mpi::Session s = mpi::init();
  bench::Distributed d;
  d.mode = bench::Distributed::Mode::Mpi;
  d.rank = s.rank;
  d.size = s.size;
  d.local_rank = s.local_rank;
  d.local_size = s.local_size;
  d.host = s.host;
  d.broadcast = [](void* data, std::size_t bytes, int root) { mpi::broadcast(data, bytes, root); };
  d.barrier = [] { mpi::barrier(); };
  std::string why;
  const int count = device_count_or_zero(&why);  // never throws, never selects a device
  // Ranks share a GPU where a host runs more ranks than it has GPUs (mpirun -np 2 on one GPU):
  // NCCL refuses that, so collectives must skip, on every rank alike (rank 0 decides for all,
  // before any rank plans).
  const std::vector<std::string> own = mpi::gather_strings(s.local_size <= count ? "1" : "0", 0);
  std::uint8_t shared = 0;
  if (s.rank == 0) {
    const bool any =
        std::any_of(own.begin(), own.end(), [](const std::string& f) { return f != "1"; });
    shared = any ? 1 : 0;
  }
  mpi::broadcast(&shared, sizeof shared, 0);
  d.shared_gpus = shared != 0;
  bench::set_distributed(d);

  int code = kExitOk;
  std::string mine, error;
  try {
    request.device = count > 0 ? s.local_rank % count : 0;
    bench::Plan plan = bench::make_plan(request);
    if (!seed_given) {  // every rank draws the same inputs: rank 0's seed
      std::uint64_t seed = plan.seed;
      mpi::broadcast(&seed, sizeof seed, 0);
      request.seed = seed;
      plan = bench::make_plan(request);
    }
    if (count == 0) {
      code = kExitCuda;
      error = fmt::format("no CUDA device ({})", why);
    } else {
      bench::ExecuteOptions options;
      options.command_line = command_line;
      const bench::RunReport report = bench::execute(plan, options);
      mine = report::render_json(report);
      if (s.rank == 0)
        std::cout << report::render_device(report.context.device, &report.context)
                  << report::render_table(report, false);
      if (report.any_failed()) code = kExitVerificationFailed;
    }
  } catch (...) {
    std::ostringstream err;
    code = report_error(std::current_exception(), err);
    error = err.str();
    while (!error.empty() && error.back() == '\n') error.pop_back();
    std::cerr << fmt::format("memlab rank {} ({}): {}\n", s.rank, s.host, error);
  }
  const nlohmann::json packet = {
      {"json", mine}, {"error", error}, {"exit", code}, {"host", s.host}};
  const std::vector<std::string> all = mpi::gather_strings(packet.dump(), 0);
  int worst = code;
  if (s.rank == 0) {
    std::vector<report::WorkerRun> runs;
    for (std::size_t r = 0; r < all.size(); ++r) {
      const nlohmann::json p = nlohmann::json::parse(all[r]);
      report::WorkerRun w;
      w.rank = static_cast<int>(r);
      w.json = p.value("json", "");
      w.error = p.value("error", "");
      w.exit_code = p.value("exit", 0);
      w.host = p.value("host", "");
      worst = worse_exit(worst, w.exit_code);
      runs.push_back(std::move(w));
    }
    const std::string merged = report::merge_runs(runs, "mpi", command_line);
    std::cout << "\n" << report::render_fleet_table(merged);
    if (json.is_open()) json.write(report::with_lessons_text(merged));
  }
  mpi::finalize();
  return worst;
}

}  // namespace memlab::cli
