#include "exercise/nvrtc.hpp"

#include <dlfcn.h>
#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <regex>

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

}  // namespace

std::string nvrtc_version() {
  const Api& a = api();
  int major = 0, minor = 0;
  expect(a, a.version(&major, &minor), "nvrtcVersion");
  return fmt::format("{}.{}", major, minor);
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
      d.message = m[4].str();
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
  Compiled c;
  Program prog = nullptr;
  expect(a, a.create(&prog, source.c_str(), file_name.c_str(), 0, nullptr, nullptr),
         "nvrtcCreateProgram");
  struct Guard {
    const Api& a;
    Program& p;
    ~Guard() { a.destroy(&p); }
  } guard{a, prog};
  expect(a, a.add_name(prog, kernel_expr.c_str()), "nvrtcAddNameExpression");
  const std::string arch_opt = "--gpu-architecture=" + arch;
  const char* opts[] = {arch_opt.c_str(), "--std=c++17", "-lineinfo", "-DMEMLAB_EXERCISE=1"};
  const Result r = a.compile(prog, 4, opts);
  std::size_t log_size = 0;
  expect(a, a.log_size(prog, &log_size), "nvrtcGetProgramLogSize");
  c.log.assign(log_size, '\0');
  if (log_size > 0) expect(a, a.log(prog, c.log.data()), "nvrtcGetProgramLog");
  while (!c.log.empty() && (c.log.back() == '\0' || c.log.back() == '\n')) c.log.pop_back();
  c.diagnostics = parse_nvrtc_log(c.log, file_name);
  if (r == kCompilationError) return c;
  expect(a, r, "nvrtcCompileProgram");
  const char* lowered = nullptr;
  expect(a, a.lowered(prog, kernel_expr.c_str(), &lowered), "nvrtcGetLoweredName");
  c.lowered_name = lowered;
  std::size_t size = 0;
  if (arch.rfind("sm_", 0) == 0) {
    expect(a, a.cubin_size(prog, &size), "nvrtcGetCUBINSize");
    c.image.assign(size, '\0');
    expect(a, a.cubin(prog, c.image.data()), "nvrtcGetCUBIN");
  } else {
    expect(a, a.ptx_size(prog, &size), "nvrtcGetPTXSize");
    c.image.assign(size, '\0');
    expect(a, a.ptx(prog, c.image.data()), "nvrtcGetPTX");
  }
  c.ok = true;
  c.compile_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return c;
}

}  // namespace memlab::exercise
