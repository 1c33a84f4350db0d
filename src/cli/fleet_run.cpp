// `memlab run --devices`: one child process per GPU. A child is this binary re-executed with the
// same run arguments plus `--device K --json DIR/worker-K.json` and kWorkerEnv, so every worker
// is an ordinary one-GPU `memlab run`: own CUDA context, own memory, own crash. Threads with
// cudaSetDevice would share the lessons' static caches, the NVML handle and the CPU reference
// pool of one process, and one worker's CUDA error (sticky for the context) or abort would end
// them all; the child process costs ~0.2 s of start-up per GPU, nothing against a run.
#include "fleet_run.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include "memlab/bench/distributed.hpp"
#include "memlab/common/error.hpp"
#include "memlab/report/fleet.hpp"
#include "memlab/report/lessons.hpp"

namespace memlab::cli {

void adopt_worker_environment() {
  const char* env = std::getenv(kWorkerEnv);
  if (env == nullptr) return;
  int rank = 0, size = 1;
  if (std::sscanf(env, "%d,%d", &rank, &size) != 2 || rank < 0 || size < 1 || rank >= size) return;
  bench::Distributed d;
  d.mode = bench::Distributed::Mode::Devices;
  d.rank = rank;
  d.size = size;
  d.local_rank = rank;
  d.local_size = size;
  bench::set_distributed(std::move(d));
}

std::vector<std::string> worker_arguments(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  const char* with_value[] = {"--devices", "--json", "--csv", "--md", "-d", "--device"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    bool drop = false;
    for (const char* o : with_value) {
      const std::string opt(o);
      if (a == opt) {
        drop = true;
        ++i;  // and its value
        break;
      }
      if (a.rfind(opt + "=", 0) == 0 ||
          (opt == "-d" && a.size() > 2 && a.rfind("-d", 0) == 0 && a[2] != '-')) {
        drop = true;
        break;
      }
    }
    if (!drop) out.push_back(a);
  }
  return out;
}

namespace {

std::vector<std::string> own_run_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> all;
  std::string item;
  while (std::getline(in, item, '\0')) all.push_back(item);
  std::vector<std::string> after;
  bool seen = false;
  for (std::size_t i = 1; i < all.size(); ++i) {
    if (seen) after.push_back(all[i]);
    if (!seen && all[i] == "run") seen = true;
  }
  return after;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string last_line(const std::string& text) {
  std::string t = text;
  while (!t.empty() && (t.back() == '\n' || t.back() == '\r')) t.pop_back();
  const std::size_t nl = t.rfind('\n');
  return nl == std::string::npos ? t : t.substr(nl + 1);
}

}  // namespace

int worse_exit(int a, int b) {
  auto severity = [](int c) {
    return c == kExitOk                   ? 0
           : c == kExitVerificationFailed ? 1
           : c == kExitCuda               ? 2
           : c == kExitUsage              ? 3
                                          : 4;
  };
  const int worst = severity(a) >= severity(b) ? a : b;
  return severity(worst) == 4 ? kExitInternal : worst;
}

int run_devices(const std::vector<int>& devices, const bench::Plan& plan, report::OutputFile& json,
                const std::string& command_line) {
  char dir_template[] = "/tmp/memlab-devices-XXXXXX";
  if (mkdtemp(dir_template) == nullptr) throw std::runtime_error("mkdtemp failed");
  const std::string dir = dir_template;
  std::vector<std::string> base = worker_arguments(own_run_arguments());
  bool seed_given = false;
  for (const std::string& a : base)
    seed_given = seed_given || a == "--seed" || a.rfind("--seed=", 0) == 0;
  if (!seed_given) {  // every GPU gets the same inputs
    base.push_back("--seed");
    base.push_back(std::to_string(plan.seed));
  }
  std::cout << fmt::format("memlab: {} workers, one per GPU ({}), all at once; seed {}\n",
                           devices.size(), fmt::join(devices, ","), plan.seed)
            << std::flush;
  std::vector<pid_t> pids;
  for (std::size_t k = 0; k < devices.size(); ++k) {
    std::vector<std::string> argv = {"/proc/self/exe", "run"};
    argv.insert(argv.end(), base.begin(), base.end());
    for (const std::string& s : {std::string("--device"), std::to_string(devices[k]),
                                 std::string("--json"), fmt::format("{}/worker-{}.json", dir, k)})
      argv.push_back(s);
    const std::string log = fmt::format("{}/worker-{}.log", dir, k);
    const std::string env = fmt::format("{},{}", k, devices.size());
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error("fork failed");
    if (pid == 0) {
      const int fd = open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        dup2(fd, STDERR_FILENO);
        close(fd);
      }
      setenv(kWorkerEnv, env.c_str(), 1);
      std::vector<char*> cargv;
      for (std::string& s : argv) cargv.push_back(s.data());
      cargv.push_back(nullptr);
      execv("/proc/self/exe", cargv.data());
      _exit(127);
    }
    pids.push_back(pid);
  }
  std::vector<report::WorkerRun> runs;
  int worst = kExitOk;
  for (std::size_t k = 0; k < pids.size(); ++k) {
    int status = 0;
    while (waitpid(pids[k], &status, 0) < 0 && errno == EINTR) {
    }
    const int code = WIFEXITED(status) ? WEXITSTATUS(status) : kExitInternal;
    const std::string log = read_file(fmt::format("{}/worker-{}.log", dir, k));
    std::cout << fmt::format("\n== worker {}: GPU {} (exit {}) ==\n", k, devices[k], code) << log;
    report::WorkerRun w;
    w.rank = static_cast<int>(k);
    w.exit_code = code;
    w.json = read_file(fmt::format("{}/worker-{}.json", dir, k));
    if (w.json.empty()) w.error = last_line(log);
    worst = worse_exit(worst, code);
    runs.push_back(std::move(w));
  }
  const std::string merged = report::merge_runs(runs, "devices", command_line);
  std::cout << "\n" << report::render_fleet_table(merged);
  if (json.is_open()) json.write(report::with_lessons_text(merged));
  for (std::size_t k = 0; k < devices.size(); ++k) {
    std::remove(fmt::format("{}/worker-{}.json", dir, k).c_str());
    std::remove(fmt::format("{}/worker-{}.log", dir, k).c_str());
  }
  rmdir(dir.c_str());
  return worst;
}

}  // namespace memlab::cli
