// execute: a validated plan on the GPU -> a RunReport.
#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "memlab/bench/distributed.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"

namespace memlab::bench {

RunReport execute(const Plan& plan, const ExecuteOptions& options, const ProgressFn& progress,
                  const std::atomic<bool>* cancel) {
  int count = 0;
  MEMLAB_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (plan.device >= count) {
    throw UsageError(
        fmt::format("--device: {} does not exist; accepted: 0..{}", plan.device, count - 1));
  }
  MEMLAB_CUDA_CHECK(cudaSetDevice(plan.device));
  const DeviceInfo device = query_device(plan.device);

  // Memory: the largest point of any experiment, plus the L2 flush buffer and the memcpy ceiling.
  std::size_t free_bytes = 0, total_bytes = 0;
  MEMLAB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double flush = plan.warm ? 0.0 : 2.0 * static_cast<double>(device.l2_bytes);
  const std::size_t ceiling_bytes = memcpy_ceiling_bytes(static_cast<double>(free_bytes), flush);
  check_device_memory(plan, static_cast<double>(free_bytes), flush);

  RunOptions run_options;
  run_options.measure.min_samples = plan.min_samples;
  run_options.measure.noise = plan.noise;
  run_options.measure.budget_s = plan.budget_s;
  run_options.measure.flush_l2 = !plan.warm && !plan.verify_only;
  // MPI ranks sharing a communicator (collectives): the same sample count on every rank.
  run_options.measure.fixed_samples = distributed().multi_process();
  run_options.verify_only = plan.verify_only;
  run_options.progress = progress;
  run_options.total = plan.measurement_count();
  run_options.cancel = cancel;
  run_options.counters = plan.counters;
  run_options.counters_cold = !plan.warm;
  run_options.on_counters_unavailable = options.on_counters_unavailable;

  RunReport report;
  report.context = make_context(plan, device, options.command_line);
  read_clocks_start(report.context);
  if (options.on_start) options.on_start(report.context);

  Runner runner(device, run_options);
  if (!plan.verify_only && !runner.cancelled()) {
    if (progress) progress({ProgressEvent::Stage::Ceiling, "", "", "", 0, run_options.total});
    report.memcpy_d2d = runner.measure_memcpy_ceiling(ceiling_bytes);
  }
  for (const ExperimentPlan& ep : plan.experiments) {
    if (runner.cancelled()) break;
    runner.run(ep, report.records);
  }
  report.cancelled = runner.cancelled();
  report.context.counters = runner.counters_status();
  read_clocks_end(report.context);
  return report;
}

}  // namespace memlab::bench
