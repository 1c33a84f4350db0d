// The worker process (`memlab exercise-worker DIR`): loads the learner's kernel, runs it on the
// lesson's inputs at every test point with a deadline per launch, checks it against the lesson's
// reference, then times it like a variant beside the lesson's own variants. Every step is
// appended to DIR/events.jsonl at once, so the parent can tell where a worker died. A CUDA error
// ends the worker: the context is lost, the parent's next check starts a fresh process.
#include <cuda_runtime_api.h>
#include <fmt/format.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include "exercise/measure_kernel.hpp"
#include "exercise/nvrtc.hpp"
#include "exercise/plan.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/stream.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

class Events {
 public:
  explicit Events(const std::string& path) : f_(std::fopen(path.c_str(), "a")) {}
  ~Events() {
    if (f_ != nullptr) std::fclose(f_);
  }
  void write(const json& j) {
    if (f_ == nullptr) return;
    const std::string line = j.dump() + "\n";
    std::fwrite(line.data(), 1, line.size(), f_);
    std::fflush(f_);
  }
  void phase(const std::string& what) { write({{"event", "phase"}, {"what", what}}); }
  void result(json r, const std::string& status, const std::string& message) {
    r["event"] = "result";
    r["status"] = status;
    r["message"] = message;
    write(r);
  }

 private:
  std::FILE* f_;
};

std::string timeout_message(double deadline_s, const std::string& where) {
  return fmt::format(
      "your kernel did not finish within {:g} s while {}: an endless loop, or threads waiting at "
      "a __syncthreads() that others never reach?",
      deadline_s, where);
}

// What a CUDA error from the learner's kernel means, in one sentence.
std::string explain(cudaError_t code) {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorInvalidAddressSpace:  // what a write far outside every buffer gives on the H200
      return "an illegal memory access: the kernel read or wrote outside its buffers (check the "
             "bounds test of every access, e.g. for the last partial block)";
    case cudaErrorMisalignedAddress:
      return "a misaligned access: a wide load/store (float4) at an address not a multiple of "
             "its size";
    case cudaErrorLaunchFailure:
      return "the kernel failed (an exception on the device)";
    case cudaErrorIllegalInstruction:
      return "an illegal instruction (e.g. a trap)";
    case cudaErrorAssert:
      return "a device-side assert failed";
    case cudaErrorHardwareStackError:
      return "a stack overflow or corrupted stack on the device";
    case cudaErrorInvalidConfiguration:
      return "invalid launch configuration (too many threads per block, or too much shared "
             "memory)";
    case cudaErrorLaunchOutOfResources:
      return "too many resources requested for launch (registers x threads per block exceed "
             "the SM's register file)";
    default:
      return cudaGetErrorString(code);
  }
}

bool is_launch_error(cudaError_t code) {
  return code == cudaErrorInvalidConfiguration || code == cudaErrorLaunchOutOfResources ||
         code == cudaErrorInvalidValue;
}

int run(const std::string& dir) {
  Events ev(dir + "/events.jsonl");
  std::ifstream in(dir + "/request.json");
  const json req = json::parse(in, nullptr, false);
  if (req.is_discarded()) {
    ev.result(json::object(), "internal", "worker: request.json unreadable");
    return 4;
  }
  const Exercise& e = get(req.at("exercise").get<std::string>());
  const bench::Experiment* x = bench::find_experiment(e.lesson());
  json r = json::object();
  std::string where = "start-up";
  try {
    std::string why;
    if (device_count_or_zero(&why) == 0) {
      ev.result(r, "no_device", "no CUDA device (" + why + ")");
      return 0;
    }
    MEMLAB_CUDA_CHECK(cudaSetDevice(0));
    // Bounds on what one kernel may take: 1 MiB device heap, 64 KiB of printf output.
    MEMLAB_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, std::size_t{1} << 20));
    MEMLAB_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, std::size_t{64} << 10));
    const DeviceInfo dev = query_device(0);
    LearnerKernel k = load_learner_kernel(e, req.at("source").get<std::string>(),
                                          req.value("file_name", std::string("kernel.cu")), dev);
    ev.write({{"event", "start"}, {"device", dev.name}, {"kernel", k.info}});
    r["kernel"] = k.info;
    const double deadline_s = req.value("kernel_timeout_s", 10.0);
    set_timeout_hook([&ev, &r, &where, deadline_s] {
      ev.result(r, "timeout", timeout_message(deadline_s, where));
      std::fflush(nullptr);
      _exit(0);  // the driver ends the running kernel with the process; no cudaFree waits for it
    });
    const Plan plan =
        only_points(make_plan(e), req.value("points", json()));  // all, or those named
    Stream stream;
    const std::uint64_t seed = 0x5eedULL;
    json points = json::array();
    auto verify_at = [&](const PlannedPoint& pp, bench::Instance& inst) -> bench::Check {
      where = fmt::format("running your kernel at {} (launch {})", pp.params.label(),
                          launch_json(pp.launch).dump());
      launch_learner(k, e, *x, inst, pp, stream.get(), deadline_s, /*poison=*/true);
      return x->check(inst, pp.params, e.spec.at("check_as").get<std::string>());
    };
    for (const PlannedPoint& pp : plan.points) {
      ev.phase("verifying at " + pp.params.label());
      auto inst = x->setup(pp.params, bench::point_seed(seed, x->name, pp.params));
      const bench::Check c = verify_at(pp, *inst);
      const json pj = {
          {"event", "point"}, {"point", pp.params.label()}, {"launch", launch_json(pp.launch)},
          {"ok", c.ok},       {"error", c.error},           {"detail", c.detail}};
      ev.write(pj);
      points.push_back(pj);
      if (!c.ok) {
        ev.result(r, "wrong_result",
                  fmt::format("wrong result at {}: {}", pp.params.label(), c.detail));
        return 0;
      }
    }
    r["verified_points"] = points.size();
    if (!req.value("measure", true)) {
      ev.result(r, "passed",
                fmt::format("correct at all {} test points (not timed)", points.size()));
      return 0;
    }
    where = "measuring at " + plan.measure.params.label();
    r["measure"] = measure_learner(e, *x, k, plan.measure, dev, stream.get(), seed, deadline_s,
                                   [&](const std::string& what) { ev.phase(what); });
    const json& m = r["measure"];
    if (m.contains("skipped_work") || m.value("impossible", false)) {
      ev.result(r, "skipped_work",
                fmt::format("at the measuring point {}: {}", plan.measure.params.label(),
                            m.value("detail", "")));
      return 0;
    }
    if (!m.value("verified", false)) {
      ev.result(r, "wrong_result",
                fmt::format("wrong result at the measuring point {}: {}",
                            plan.measure.params.label(), m.value("detail", "")));
      return 0;
    }
    const bool met = m.at("target").value("met", false);
    std::string message = fmt::format("correct at {} test points; {}", points.size(),
                                      m.at("target").value("summary", ""));
    if (m.contains("gpu_shared")) message += "; " + m["gpu_shared"].value("note", "");
    ev.result(r, met ? "passed" : "target_missed", message);
    return 0;
  } catch (const LearnerError& ex) {
    if (ex.status() == "timeout") {
      ev.result(r, "timeout", timeout_message(req.value("kernel_timeout_s", 10.0), where));
      std::fflush(nullptr);
      _exit(0);  // the driver ends the running kernel with the process
    }
    ev.result(r, ex.status(), ex.what());
  } catch (const CudaError& ex) {
    const std::string status = is_launch_error(ex.code()) ? "launch_error" : "cuda_error";
    ev.result(r, status, fmt::format("{} while {} ({})", explain(ex.code()), where, ex.what()));
  } catch (const UsageError& ex) {
    ev.result(r, "internal", fmt::format("exercise {}: {}", e.name, ex.what()));
  } catch (const std::exception& ex) {
    ev.result(r, "internal", fmt::format("{} while {}", ex.what(), where));
  }
  return 0;
}

}  // namespace

int worker_main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "memlab exercise-worker: internal subcommand (DIR)\n");
    return kExitUsage;
  }
  return run(argv[2]);
}

}  // namespace memlab::exercise
