#include "exercise/nvrtc.hpp"

#include "exercise/headers.hpp"
#include "exercise/sandbox.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <set>
#include <utility>

namespace memlab::exercise {
namespace {

// The subset of nvrtc.h used here (C ABI, stable since CUDA 11).
using Program = struct _nvrtcProgram*;
using Result = int;
constexpr Result kSuccess = 0;
constexpr Result kCompilationError = 6;

struct Api {
  void* handle = nullptr;
  std::string path, error;
  Result (*version)(int*, int*) = nullptr;
  Result (*create)(Program*, const char*, const char*, int, const char* const*,
                   const char* const*) = nullptr;
  Result (*destroy)(Program*) = nullptr;
  Result (*add_name)(Program, const char*) = nullptr;
  Result (*compile)(Program, int, const char* const*) = nullptr;
  Result (*log_size)(Program, std::size_t*) = nullptr;
  Result (*log)(Program, char*) = nullptr;
  Result (*cubin_size)(Program, std::size_t*) = nullptr;
  Result (*cubin)(Program, char*) = nullptr;
  Result (*ptx_size)(Program, std::size_t*) = nullptr;
  Result (*ptx)(Program, char*) = nullptr;
  Result (*lowered)(Program, const char*, const char**) = nullptr;
  const char* (*error_string)(Result) = nullptr;
};

template <class F>
bool bind(void* h, const char* name, F& f) {
  f = reinterpret_cast<F>(dlsym(h, name));
  return f != nullptr;
}

Api load() {
  Api a;
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("MEMLAB_NVRTC"); env != nullptr && *env != '\0') {
    candidates.push_back(env);
  }
  for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) candidates.push_back(n);
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    dirs.push_back(std::string(home) + "/lib64");
  }
  for (const char* d : {"/usr/local/cuda/lib64", "/usr/local/cuda/targets/x86_64-linux/lib",
                        "/usr/local/cuda/targets/sbsa-linux/lib", "/usr/lib/x86_64-linux-gnu"}) {
    dirs.push_back(d);
  }
  for (const std::string& d : dirs) {
    for (const char* n : {"libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12"}) {
      candidates.push_back(d + "/" + n);
    }
  }
  for (const std::string& c : candidates) {
    a.handle = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (a.handle != nullptr) {
      a.path = c;
      break;
    }
  }
  if (a.handle == nullptr) {
    a.error = fmt::format(
        "NVRTC (libnvrtc.so) not found: tried MEMLAB_NVRTC, the loader path, $CUDA_HOME/lib64 "
        "and /usr/local/cuda/lib64; install the CUDA toolkit's NVRTC (Debian: "
        "libnvrtc12/cuda-nvrtc) or set MEMLAB_NVRTC=/path/to/libnvrtc.so");
    return a;
  }
  const bool ok =
      bind(a.handle, "nvrtcVersion", a.version) && bind(a.handle, "nvrtcCreateProgram", a.create) &&
      bind(a.handle, "nvrtcDestroyProgram", a.destroy) &&
      bind(a.handle, "nvrtcAddNameExpression", a.add_name) &&
      bind(a.handle, "nvrtcCompileProgram", a.compile) &&
      bind(a.handle, "nvrtcGetProgramLogSize", a.log_size) &&
      bind(a.handle, "nvrtcGetProgramLog", a.log) &&
      bind(a.handle, "nvrtcGetCUBINSize", a.cubin_size) &&
      bind(a.handle, "nvrtcGetCUBIN", a.cubin) && bind(a.handle, "nvrtcGetPTXSize", a.ptx_size) &&
      bind(a.handle, "nvrtcGetPTX", a.ptx) && bind(a.handle, "nvrtcGetLoweredName", a.lowered) &&
      bind(a.handle, "nvrtcGetErrorString", a.error_string);
  if (!ok) {
    a.error =
        fmt::format("{} lacks an NVRTC function memlab needs (CUDA 12 or newer required)", a.path);
    a.handle = nullptr;
  }
  return a;
}

const Api& api() {
  static const Api a = load();
  if (a.handle == nullptr) throw NvrtcMissing(a.error);
  return a;
}

void expect(const Api& a, Result r, const char* call) {
  if (r != kSuccess) throw std::runtime_error(fmt::format("{}: {}", call, a.error_string(r)));
}

// NVRTC's "cannot open source file "X": Permission denied" (the sandbox refused the path) and
// "could not open source file "X" (no directories in search list)", in the learner's terms.
std::string explain_include(const std::string& message) {
  static const std::regex re(R"re(^(cannot|could not) open source file "([^"]*)".*$)re");
  std::smatch m;
  if (!std::regex_match(message, m, re)) return message;
  return fmt::format(
      "#include \"{}\": not available here. Your kernel is compiled by NVRTC without the file "
      "system; printf, the math functions, atomics and assert need no #include. Headers "
      "accepted: {}",
      m[2].str(), learner_header_list());
}

// Splits ptxas's -v lines off NVRTC's log.
void split_ptxas(std::string& log, std::string& ptxas) {
  std::string rest;
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(start, end - start);
    std::string& to = line.rfind("ptxas", 0) == 0 ? ptxas : rest;
    to += line;
    to += '\n';
    start = end + 1;
  }
  while (!rest.empty() && rest.back() == '\n') rest.pop_back();
  while (!ptxas.empty() && ptxas.back() == '\n') ptxas.pop_back();
  log = rest;
}

}  // namespace

std::string nvrtc_version() {
  const Api& a = api();
  int major = 0, minor = 0;
  expect(a, a.version(&major, &minor), "nvrtcVersion");
  return fmt::format("{}.{}", major, minor);
}

Resources parse_ptxas_info(const std::string& info) {
  // Built once: every compile parses its ptxas lines.
  static const std::pair<std::regex, int Resources::*> kFields[] = {
      {std::regex(R"(Used (\d+) registers)"), &Resources::registers},
      {std::regex(R"((\d+) bytes spill stores)"), &Resources::spill_stores},
      {std::regex(R"((\d+) bytes spill loads)"), &Resources::spill_loads},
      {std::regex(R"((\d+) bytes stack frame)"), &Resources::stack_bytes},
      {std::regex(R"((\d+) bytes smem)"), &Resources::shared_bytes},
      {std::regex(R"(used (\d+) barriers)"), &Resources::barriers},
  };
  Resources r;
  std::smatch m;
  for (const auto& [re, field] : kFields) {
    if (std::regex_search(info, m, re)) r.*field = std::stoi(m[1].str());
  }
  if (r.registers >= 0 && r.shared_bytes < 0) r.shared_bytes = 0;
  if (r.registers >= 0 && r.barriers < 0) r.barriers = 0;
  return r;
}

std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& file_name) {
  std::vector<Diagnostic> out;
  static const std::regex line_re(
      R"(^(.*)\((\d+)\): (error|warning|catastrophic error)[^:]*: (.*)$)");
  static const std::regex bare_re(R"(^(error|catastrophic error)[^:]*: (.*)$)");
  std::size_t start = 0;
  while (start < log.size()) {
    std::size_t end = log.find('\n', start);
    if (end == std::string::npos) end = log.size();
    const std::string line = log.substr(start, end - start);
    std::smatch m;
    if (std::regex_match(line, m, line_re)) {
      Diagnostic d;
      d.line = m[1].str() == file_name ? std::stoi(m[2].str()) : 0;
      d.severity = m[3].str() == "warning" ? "warning" : "error";
      d.message = explain_include(m[4].str());
      out.push_back(d);
    } else if (std::regex_match(line, m, bare_re)) {
      out.push_back(Diagnostic{0, "error", m[2].str()});
    }
    start = end + 1;
  }
  return out;
}

Compiled nvrtc_compile(const std::string& source, const std::string& file_name,
                       const std::string& kernel_expr, const std::string& arch) {
  const Api& a = api();
  static std::mutex mutex;  // one compile at a time: NVRTC is thread-safe, the machine is small
  const std::lock_guard<std::mutex> lock(mutex);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string arch_opt = "--gpu-architecture=" + arch;
  const bool cubin = arch.rfind("sm_", 0) == 0;
  std::vector<const char*> opts = {arch_opt.c_str(), "--std=c++17", "-lineinfo",
                                   "-DMEMLAB_EXERCISE=1", "--no-source-include"};
  if (cubin) opts.push_back("--ptxas-options=-v");
  std::vector<const char*> header_names, header_sources;
  for (const auto& [name, content] : learner_headers()) {
    header_names.push_back(name.c_str());
    header_sources.push_back(content.c_str());
  }
  // One program from source to image. `raw` leaves the log as NVRTC wrote it.
  auto compile_one = [&](const std::string& src, const std::string& name, const std::string& expr,
                         Compiled& c) {
    Program prog = nullptr;
    expect(a,
           a.create(&prog, src.c_str(), name.c_str(), static_cast<int>(header_names.size()),
                    header_sources.data(), header_names.data()),
           "nvrtcCreateProgram");
    struct Guard {
      const Api& a;
      Program& p;
      ~Guard() { a.destroy(&p); }
    } guard{a, prog};
    expect(a, a.add_name(prog, expr.c_str()), "nvrtcAddNameExpression");
    const Result r = a.compile(prog, static_cast<int>(opts.size()), opts.data());
    std::size_t log_size = 0;
    expect(a, a.log_size(prog, &log_size), "nvrtcGetProgramLogSize");
    c.log.assign(log_size, '\0');
    if (log_size > 0) expect(a, a.log(prog, c.log.data()), "nvrtcGetProgramLog");
    while (!c.log.empty() && (c.log.back() == '\0' || c.log.back() == '\n')) c.log.pop_back();
    split_ptxas(c.log, c.ptxas_info);
    c.resources = parse_ptxas_info(c.ptxas_info);
    c.diagnostics = parse_nvrtc_log(c.log, name);
    if (r == kCompilationError) return;
    expect(a, r, "nvrtcCompileProgram");
    const char* lowered = nullptr;
    expect(a, a.lowered(prog, expr.c_str(), &lowered), "nvrtcGetLoweredName");
    c.lowered_name = lowered;
    std::size_t size = 0;
    expect(a, a.ptx_size(prog, &size), "nvrtcGetPTXSize");
    c.ptx.assign(size, '\0');
    expect(a, a.ptx(prog, c.ptx.data()), "nvrtcGetPTX");
    while (!c.ptx.empty() && c.ptx.back() == '\0') c.ptx.pop_back();
    if (cubin) {
      expect(a, a.cubin_size(prog, &size), "nvrtcGetCUBINSize");
      c.image.assign(size, '\0');
      expect(a, a.cubin(prog, c.image.data()), "nvrtcGetCUBIN");
    } else {
      c.image = c.ptx;
    }
    c.ok = true;
  };
  // NVRTC opens its own builtins library on the first compile of a process: that one compile,
  // of memlab's own kernel, runs outside the sandbox; every learner's source runs inside.
  static std::set<std::string> warm;
  if (warm.insert(arch).second) {
    Compiled w;
    compile_one("extern \"C\" __global__ void memlab_warm_up(float* x) { x[0] = 1.0f; }",
                "memlab_warm_up.cu", "&memlab_warm_up", w);
  }
  Compiled c;
  run_without_files([&] { compile_one(source, file_name, kernel_expr, c); });
  if (c.ok) {
    c.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  }
  return c;
}

}  // namespace memlab::exercise
