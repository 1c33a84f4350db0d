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

struct Compiled {
  bool ok = false;
  std::string log;  // NVRTC's log, as printed
  std::vector<Diagnostic> diagnostics;
  std::string image;         // cubin bytes (arch sm_XY) or PTX text (compute_XY)
  std::string lowered_name;  // the kernel's mangled name, for cudaLibraryGetKernel
  double compile_ms = 0;
};

// Compiles `source` as file `file_name` for `arch` ("sm_90" gives a cubin, "compute_90" PTX).
// `kernel_expr` is a name expression that pins the kernel's signature, e.g.
// "static_cast<void (*)(const float*, float*, int)>(&reverse_static)"; a kernel with another
// signature is a compile error. Throws NvrtcMissing when libnvrtc is not found.
Compiled nvrtc_compile(const std::string& source, const std::string& file_name,
                       const std::string& kernel_expr, const std::string& arch);

// "13.0", or throws NvrtcMissing.
std::string nvrtc_version();

// Parses "file.cu(12): error: message" lines of an NVRTC log.
std::vector<Diagnostic> parse_nvrtc_log(const std::string& log, const std::string& file_name);

}  // namespace memlab::exercise
