// The diagnosis runs on a GPU (compute-sanitizer's racecheck / memcheck on the learner's kernel
// compiled by NVRTC with -lineinfo): matmul_tiled's solution without its barriers is named by its
// two lines, an out-of-bounds vec_add by its line and a thread. Skipped without a device or
// without compute-sanitizer (PATH, /usr/local/cuda/bin).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "gpu_test.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

using memlab::gpu_test::have_device;
using nlohmann::json;

bool have_sanitizer() {
  for (const char* p : {"/usr/local/cuda/bin/compute-sanitizer"}) {
    if (std::FILE* f = std::fopen(p, "r")) {
      std::fclose(f);
      return true;
    }
  }
  return std::system("command -v compute-sanitizer > /dev/null 2>&1") == 0;
}

CheckOptions options(bool sanitize) {
  CheckOptions o;
  const char* env = std::getenv("MEMLAB_EXERCISE_WORKER");
  o.worker = env != nullptr ? env : MEMLAB_BINARY;
  o.measure = false;
  o.sanitize = sanitize;
  o.kernel_timeout_s = 10;
  return o;
}

std::string without_lines(const std::string& source, const std::string& needle) {
  std::stringstream in(source);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.find(needle) == std::string::npos) out += line + "\n";
  }
  return out;
}

TEST(DiagnosisGpu, MatmulWithoutBarriersIsNamedByItsTwoLines) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  if (!have_sanitizer()) GTEST_SKIP() << "skipped: compute-sanitizer not found";
  // Line 13 writes As[ty][tx], line 14 Bs[ty][tx], line 15 reads both.
  const std::string src = without_lines(get("matmul_tiled").solution, "__syncthreads");
  const CheckResult r = check("matmul_tiled", src, options(false));
  std::printf("%s", render_check(r.json).c_str());
  ASSERT_TRUE(r.json.contains("diagnosis")) << r.json.dump(2);
  const json& d = r.json["diagnosis"];
  ASSERT_EQ(d.value("ran", false), true) << d.dump(2);
  bool as = false, bs = false;
  for (const json& f : d["hazards"]) {
    if (f.value("tool", "") != "racecheck" || !f.contains("write") || !f.contains("read")) continue;
    const int w = f["write"].value("line", 0), rd = f["read"].value("line", 0);
    as = as || (w == 13 && rd == 15 && f.value("array", "") == "As");
    bs = bs || (w == 14 && rd == 15 && f.value("array", "") == "Bs");
  }
  EXPECT_TRUE(as || bs) << d.dump(2);  // at least one of the two tiles, by its lines
  EXPECT_FALSE(d["sentences"].empty());
}

TEST(DiagnosisGpu, OutOfBoundsVecAddIsNamedByItsLineAndThread) {
  if (!have_device()) GTEST_SKIP() << "skipped: no CUDA device";
  if (!have_sanitizer()) GTEST_SKIP() << "skipped: compute-sanitizer not found";
  // A grid-stride loop with <= instead of <: one thread writes c[n], just past the end.
  const std::string src =
      "__global__ void vec_add(const float* a, const float* b, float* c, int n) {\n"
      "  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i <= n; i += blockDim.x * "
      "gridDim.x)\n"
      "    c[i] = a[i] + b[i];\n"
      "}\n";
  const CheckResult r = check("vecadd_gridstride", src, options(true));
  std::printf("%s", render_check(r.json).c_str());
  ASSERT_TRUE(r.json.contains("diagnosis")) << r.json.dump(2);
  const json& d = r.json["diagnosis"];
  bool found = false;
  for (const json& f : d["hazards"]) {
    if (f.value("tool", "") == "memcheck" && f.contains("at") && f["at"].value("line", 0) == 3 &&
        f["at"].contains("thread") && f.contains("block"))
      found = true;
  }
  EXPECT_TRUE(found) << d.dump(2);
  // memcheck ends the kernel at its first error: the check says "sanitizer" or "cuda_error".
  const std::string status = r.json.value("status", "");
  EXPECT_TRUE(status == "sanitizer" || status == "cuda_error") << render_check(r.json);
}

}  // namespace
}  // namespace memlab::exercise
