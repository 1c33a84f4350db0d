#include "common/cublas.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "memlab/bench/experiment.hpp"

namespace memlab::lessons {
namespace {

struct Loaded {
  CublasApi api;
  bool ok = false;
  std::string why;
};

std::vector<std::string> candidates() {
  if (const char* env = std::getenv("MEMLAB_CUBLAS_LIBRARY"); env != nullptr && *env != '\0') {
    return {env};
  }
  std::vector<std::string> out = {"libcublas.so.13", "libcublas.so.12", "libcublas.so"};
  // The toolkit's folders, which the loader's cache may not list (a binary that linked cuBLAS
  // found it through its RUNPATH); cuBLAS finds its libcublasLt beside it ($ORIGIN).
  std::vector<std::string> dirs = {"/usr/local/cuda/lib64", "/usr/local/cuda/lib",
                                   "/usr/local/cuda/targets/x86_64-linux/lib"};
#ifdef MEMLAB_CUDA_LIBRARY_DIR
  dirs.insert(dirs.begin(), MEMLAB_CUDA_LIBRARY_DIR);
#endif
  for (const std::string& d : dirs) {
    for (const char* name : {"libcublas.so.13", "libcublas.so.12"}) out.push_back(d + "/" + name);
  }
  return out;
}

template <class F>
void resolve(void* handle, F& fn, const char* name, std::string& missing) {
  fn = reinterpret_cast<F>(dlsym(handle, name));
  if (fn == nullptr && missing.empty()) missing = name;
}

Loaded load() {
  Loaded l;
  void* lib = nullptr;
  for (const std::string& c : candidates()) {
    lib = dlopen(c.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib != nullptr) {
      l.api.library = c;
      break;
    }
    const char* why = dlerror();
    l.why += (l.why.empty() ? "" : "; ") + c + ": " + (why != nullptr ? why : "not found");
  }
  if (lib == nullptr) return l;
  std::string missing;
  resolve(lib, l.api.create, "cublasCreate_v2", missing);
  resolve(lib, l.api.destroy, "cublasDestroy_v2", missing);
  resolve(lib, l.api.set_stream, "cublasSetStream_v2", missing);
  resolve(lib, l.api.set_math_mode, "cublasSetMathMode", missing);
  resolve(lib, l.api.sgemm, "cublasSgemm_v2", missing);
  resolve(lib, l.api.sgeam, "cublasSgeam", missing);
  resolve(lib, l.api.gemm_ex, "cublasGemmEx", missing);
  resolve(lib, l.api.status_string, "cublasGetStatusString", missing);
  if (!missing.empty()) {
    l.why = l.api.library + " lacks " + missing;
    return l;
  }
  l.ok = true;
  return l;
}

const Loaded& loaded() {
  static std::once_flag once;
  static Loaded l;
  std::call_once(once, [] { l = load(); });
  return l;
}

}  // namespace

const CublasApi* cublas_api() {
  return loaded().ok ? &loaded().api : nullptr;
}

bool cublas_available() {
  return loaded().ok;
}

std::string cublas_unavailable_reason() {
  return loaded().why;
}

const CublasApi& require_cublas() {
  if (const CublasApi* a = cublas_api()) return *a;
  throw bench::SkipPoint(std::string(kCublasMissing) + ": " + cublas_unavailable_reason());
}

void cublas_check(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    const CublasApi* a = cublas_api();
    throw std::runtime_error(std::string(call) + ": " +
                             (a != nullptr ? a->status_string(status) : "cuBLAS error"));
  }
}

CublasHandle::CublasHandle(std::optional<cublasMath_t> math) {
  const CublasApi& b = require_cublas();
  cublas_check(b.create(&handle_), "cublasCreate");
  if (math) cublas_check(b.set_math_mode(handle_, *math), "cublasSetMathMode");
}

CublasHandle::~CublasHandle() {
  if (handle_ != nullptr) cublas_api()->destroy(handle_);
}

}  // namespace memlab::lessons
