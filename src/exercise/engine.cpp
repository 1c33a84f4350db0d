// `check`: compile here (NVRTC, no GPU needed), then verify and measure in a worker process.
#include <fmt/format.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "exercise/compiler_view.hpp"
#include "exercise/diagnose.hpp"
#include "exercise/nvrtc.hpp"
#include "exercise/plan.hpp"
#include "exercise/process.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t kOutputLimit = 16 * 1024;

std::string self_exe() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : p.string();
}

json diagnostics_json(const Compiled& c) {
  json d = json::array();
  for (const Diagnostic& x : c.diagnostics) {
    d.push_back({{"line", x.line}, {"severity", x.severity}, {"message", x.message}});
  }
  return d;
}

// Reads the worker's events: each line one JSON object; the last "result" wins.
json read_events(const fs::path& file, json& result) {
  json events = json::array();
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const json j = json::parse(line, nullptr, false);
    if (j.is_discarded()) continue;
    if (j.value("event", "") == "result") {
      result = j;
    } else {
      events.push_back(j);
    }
  }
  return events;
}

int exit_code_of(const std::string& status) {
  if (status == "passed") return kExitOk;
  if (status == "compile_error" || status == "usage") return kExitUsage;
  if (status == "no_device") return kExitCuda;
  if (status == "internal") return 4;
  return kExitVerificationFailed;
}

}  // namespace

json compile_json(const Exercise& e, const std::string& source, const std::string& file_name) {
  if (source.size() > kMaxSourceBytes) {
    throw UsageError(fmt::format("{}: {} bytes; accepted: at most {} bytes (64 KiB)", file_name,
                                 source.size(), kMaxSourceBytes));
  }
  const Compiled c = nvrtc_compile(source, file_name, e.kernel_expr(), "sm_90");
  json j = {
      {"ok", c.ok}, {"log", c.log}, {"diagnostics", diagnostics_json(c)}, {"ms", c.compile_ms}};
  if (c.ok) j["compiler"] = compiler_json(c, source, file_name);
  return j;
}

CheckResult check(const std::string& name, const std::string& source, const CheckOptions& options) {
  const Exercise& e = get(name);  // UsageError for an unknown name
  json r = {{"exercise", e.name},
            {"lesson", e.lesson()},
            {"file", options.file_name},
            {"signature", e.signature()}};
  auto finish = [&r](const std::string& status, const std::string& message) {
    r["status"] = status;
    r["message"] = message;
    r["exit_code"] = exit_code_of(status);
    return CheckResult{exit_code_of(status), r};
  };
  if (source.size() > kMaxSourceBytes) {
    r["parameter"] = options.file_name;
    return finish("usage", fmt::format("{}: {} bytes; accepted: at most {} bytes (64 KiB)",
                                       options.file_name, source.size(), kMaxSourceBytes));
  }
  // 1. Compile here: errors are the learner's, with their line numbers, GPU or not.
  Compiled c;
  c.ok = options.compiled;
  if (!options.compiled) try {
      c = nvrtc_compile(source, options.file_name, e.kernel_expr(),
                        options.arch.empty() ? "sm_90" : options.arch);
    } catch (const NvrtcMissing& ex) {
      return finish("internal", ex.what());
    }
  if (!options.compiled) {
    r["compile"] = {
        {"ok", c.ok}, {"log", c.log}, {"diagnostics", diagnostics_json(c)}, {"ms", c.compile_ms}};
  }
  if (!c.ok) {
    std::string first = "compilation failed";
    for (const Diagnostic& d : c.diagnostics) {
      if (d.severity == "error") {
        first = d.line > 0 ? fmt::format("{}({}): {}", options.file_name, d.line, d.message)
                           : d.message;
        break;
      }
    }
    if (c.log.find(e.kernel()) != std::string::npos &&
        c.log.find("static_cast") != std::string::npos) {
      first += fmt::format(" (the kernel must keep the signature {})", e.signature());
    }
    r["parameter"] = options.file_name;
    return finish("compile_error", first);
  }
  r["compiler"] = compiler_json(c, source, options.file_name);  // what the compiler made of it
  r["plan"] = plan_json(e);

  // 2. The worker: one at a time (timings would disturb each other).
  static std::mutex one_worker;
  const std::lock_guard<std::mutex> lock(one_worker);
  std::string dir_template = (fs::temp_directory_path() / "memlab-exercise-XXXXXX").string();
  if (mkdtemp(dir_template.data()) == nullptr) return finish("internal", "mkdtemp failed");
  const fs::path dir = dir_template;
  struct Cleanup {
    fs::path d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  const bool sanitize = options.sanitize;
  std::string sanitizer;
  if (sanitize) {
    sanitizer = find_sanitizer(options.sanitizer);
    if (sanitizer.empty()) {
      r["notes"].push_back(
          "--sanitize: compute-sanitizer not found (PATH, /usr/local/cuda/bin); "
          "ran without it");
    }
  }
  const json request = {{"exercise", e.name},
                        {"source", source},
                        {"file_name", options.file_name},
                        {"kernel_timeout_s", options.kernel_timeout_s},
                        {"measure", options.measure && sanitizer.empty()}};
  { std::ofstream(dir / "request.json") << request.dump(); }
  const std::string exe = options.worker.empty() ? self_exe() : options.worker;
  std::vector<std::string> argv;
  if (!sanitizer.empty()) {
    argv = {sanitizer, "--tool", "memcheck", "--error-exitcode", "86", "--print-limit", "20"};
    r["sanitizer"] = sanitizer;
  }
  argv.insert(argv.end(), {exe, "exercise-worker", dir.string()});
  const ProcessLimits limits;
  r["limits"] = limits_json(limits, options.total_timeout_s, kOutputLimit);
  const ProcessResult p =
      run_process(argv, (dir / "request.json").string(), options.total_timeout_s, kOutputLimit,
                  limits, options.cancel);
  json result;
  const json events = read_events(dir / "events.jsonl", result);
  if (!p.output.empty()) {
    r["output"] = p.output + (p.output_truncated ? "\n[output truncated]" : "");
  }
  r["worker"] = {{"wall_s", p.wall_s}, {"exit_status", p.exit_status}, {"signal", p.signal}};
  for (const json& ev : events) {
    if (ev.value("event", "") == "start") r["device"] = ev.value("device", json());
    if (ev.value("event", "") == "point") r["points"].push_back(ev);
  }
  if (!p.started) return finish("internal", "could not start the worker: " + p.start_error);
  std::string last_phase = "start-up";
  for (const json& ev : events) {
    if (ev.value("event", "") == "phase") last_phase = ev.value("what", last_phase);
  }
  if (p.cancelled) return finish("cancelled", "the check was cancelled while: " + last_phase);
  if (p.timed_out) {
    return finish("timeout",
                  fmt::format("the worker was stopped after {:.0f} s (the limit) while: {}",
                              options.total_timeout_s, last_phase));
  }
  if (!result.is_null()) {
    for (auto it = result.begin(); it != result.end(); ++it) {
      if (it.key() != "event" && it.key() != "points") r[it.key()] = it.value();
    }
    if (r.contains("kernel") && r["kernel"].contains("local_bytes")) {  // as the loader sees it
      r["compiler"]["local_bytes"] = r["kernel"]["local_bytes"];
    }
    std::string status = r.value("status", "internal"), message = r.value("message", "");
    if (p.exited && p.exit_status == 86 && status == "passed") {
      status = "sanitizer";
      message = "compute-sanitizer reported errors (see output)";
    }
    r["status"] = status;
    if (json d = diagnose({e, source, options, exe, dir, last_phase, r}); !d.is_null()) {
      r["diagnosis"] = std::move(d);
    }
    return finish(status, message);
  }
  r["status"] = "crash";
  if (json d = diagnose({e, source, options, exe, dir, last_phase, r}); !d.is_null()) {
    r["diagnosis"] = std::move(d);
  }
  if (p.signal != 0) {
    return finish("crash", fmt::format("the worker died of signal {} ({}) while: {}", p.signal,
                                       strsignal(p.signal), last_phase));
  }
  return finish("crash", fmt::format("the worker ended (exit status {}) without a result while: {}",
                                     p.exit_status, last_phase));
}

}  // namespace memlab::exercise
