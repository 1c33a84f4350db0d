// NVRTC, loaded at run time with dlopen (no link-time dependency, no CUDA header): compiles a
// learner's kernel file to a cubin (or PTX) without a GPU or driver. Host-only.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace memlab::exercise {

// libnvrtc could not be loaded; the message names the places searched and MEMLAB_NVRTC.
class NvrtcMissing : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct Diagnostic {
  int line = 0;          // in the learner's file, 1-based; 0 when the log names no line
  std::string severity;  // "error", "warning"
  std::string message;
};

// What ptxas said of the kernel (`--ptxas-options=-v`); -1 where it said nothing.
struct Resources {
  int registers = -1;
  int spill_stores = -1;  // bytes
  int spill_loads = -1;   // bytes
  int stack_bytes = -1;   // stack frame
  int shared_bytes = -1;  // static shared memory
  int barriers = -1;
};

struct Compiled {
  bool ok = false;
  std::string log;  // NVRTC's log, as printed (without the ptxas info lines)
  std::vector<Diagnostic> diagnostics;
  std::string image;         // cubin bytes (arch sm_XY) or PTX text (compute_XY)
  std::string lowered_name;  // the kernel's mangled name, for cudaLibraryGetKernel
  std::string ptx;           // the PTX, with .loc line records (-lineinfo)
  std::string ptxas_info;    // ptxas's -v lines (sm_XY targets only)
  Resources resources;
  double compile_ms = 0;
};

// Compiles `source` as file `file_name` for `arch` ("sm_90" gives a cubin, "compute_90" PTX).
// The compile reads nothing from the file system: NVRTC runs on a thread under the sandbox
// (exercise/sandbox.hpp), with only the in-memory learner headers (exercise/headers.hpp); an
// `#include` of anything else is an error naming the learner's line. Throws SandboxUnavailable
// when the sandbox cannot be set up (fails closed).
// `kernel_expr` is a name expression that pins the kernel's signature, e.g.
// "static_cast<void (*)(const float*, float*, int)>(&reverse_static)"; a kernel with another
// signature is a compile error. Throws NvrtcMissing when libnvrtc is not found.
Compiled nvrtc_compile(const std::string& source, const std::string& file_name,
                       const std::string& kernel_expr, const std::string& arch);

// "13.0", or throws NvrtcMissing.
std::string nvrtc_version();

// Parses ptxas's "-v" lines ("Used 10 registers, used 1 barriers, 256 bytes smem", "0 bytes
// stack frame, 0 bytes spill stores, 0 bytes spill loads").
Resources parse_ptxas_info(const std::string& info);

// Parses "file.cu(12): error: message" lines of an NVRTC log.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& file_name);

}  // namespace memlab::exercise
