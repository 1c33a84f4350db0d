// cuBLAS, opened at run time (dlopen), for the lessons' vendor lines (matmul's, tensor_cores' and
// transpose's `cublas` variants, matmul's reference at large sizes): memlab links no cuBLAS, so it
// starts where only the NVIDIA driver is installed, and a missing cuBLAS skips only those variants
// (`only_if(cublas_available, kCublasMissing)`). Search: MEMLAB_CUBLAS_LIBRARY (that path only),
// else libcublas.so.13, libcublas.so.12, libcublas.so, else the same in the toolkit's folders
// (the build's, /usr/local/cuda/lib64, ...).
// cublas_v2.h gives the types and enums only; every call goes through the table below.
#pragma once

#include <cublas_v2.h>

#include <optional>
#include <string>

namespace memlab::lessons {

struct CublasApi {
  decltype(&cublasCreate_v2) create = nullptr;
  decltype(&cublasDestroy_v2) destroy = nullptr;
  decltype(&cublasSetStream_v2) set_stream = nullptr;
  decltype(&cublasSetMathMode) set_math_mode = nullptr;
  decltype(&cublasSgemm_v2) sgemm = nullptr;
  decltype(&cublasSgeam) sgeam = nullptr;  // transpose's vendor line
  // cublasGemmEx is overloaded in C++ (cublasComputeType_t or cudaDataType_t): the C entry point.
  cublasStatus_t (*gemm_ex)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int,
                            const void*, const void*, cudaDataType_t, int, const void*,
                            cudaDataType_t, int, const void*, void*, cudaDataType_t, int,
                            cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
  decltype(&cublasGetStatusString) status_string = nullptr;
  std::string library;  // the file opened
};

// The skip reason of a cuBLAS variant where the library cannot be opened.
inline constexpr const char* kCublasMissing =
    "needs cuBLAS (libcublas.so.13 or .so.12), which is not installed here "
    "(MEMLAB_CUBLAS_LIBRARY names it)";

// Opened once; nullptr when no candidate opens or one lacks an entry point
// (cublas_unavailable_reason() says which). Needs no device.
const CublasApi* cublas_api();
bool cublas_available();
std::string cublas_unavailable_reason();
// The table, or bench::SkipPoint(kCublasMissing + why) where it is unavailable.
const CublasApi& require_cublas();
// Throws std::runtime_error("CALL: cuBLAS's message") for a status other than success.
void cublas_check(cublasStatus_t status, const char* call);

// Owns a cuBLAS handle, the lessons' vendor lines' (matmul, tensor_cores, transpose): created
// through require_cublas() (so it throws bench::SkipPoint where cuBLAS is not installed), and
// `math`, where given, set on it at once (matmul: CUBLAS_PEDANTIC_MATH; tensor_cores and transpose
// set none and keep the library's default).
class CublasHandle {
 public:
  explicit CublasHandle(std::optional<cublasMath_t> math = std::nullopt);
  ~CublasHandle();
  CublasHandle(const CublasHandle&) = delete;
  CublasHandle& operator=(const CublasHandle&) = delete;
  cublasHandle_t get() const { return handle_; }

 private:
  cublasHandle_t handle_ = nullptr;
};

}  // namespace memlab::lessons
