// main's error mapping: usage 2, CUDA 3, everything else a bug in memlab (4), one line each.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <new>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>

#include "memlab/cli/errors.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/check.hpp"

namespace memlab::cli {
namespace {

struct Mapped {
  int code = -1;
  std::string line;
};

template <class F>
Mapped map(F&& throw_it) {
  std::ostringstream err;
  Mapped m;
  try {
    throw_it();
  } catch (...) {
    m.code = report_error(std::current_exception(), err);
  }
  m.line = err.str();
  EXPECT_EQ(std::count(m.line.begin(), m.line.end(), '\n'), 1) << "not one line: " << m.line;
  return m;
}

void expect_internal(const Mapped& m, const std::string& what) {
  EXPECT_EQ(m.code, kExitInternal) << m.line;
  EXPECT_EQ(m.line.rfind("memlab: internal error (a bug in memlab): ", 0), 0u) << m.line;
  EXPECT_NE(m.line.find(what), std::string::npos) << m.line;
  EXPECT_NE(m.line.find("please report it with the command line at"), std::string::npos) << m.line;
}

TEST(ErrorMapping, UsageAndCudaKeepTheirCodes) {
  const Mapped usage = map([] { throw UsageError("--noise: 5 is out of range"); });
  EXPECT_EQ(usage.code, kExitUsage);
  EXPECT_EQ(usage.line, "memlab: --noise: 5 is out of range\n");
  const Mapped cuda =
      map([] { throw CudaError(cudaErrorNoDevice, "cudaSetDevice(0)", "x.cpp", 3); });
  EXPECT_EQ(cuda.code, kExitCuda);
  EXPECT_NE(cuda.line.find("cudaSetDevice(0)"), std::string::npos) << cuda.line;
  const Mapped parse = map([] { throw CLI::ExtrasError({"--frobnicate"}); });
  EXPECT_EQ(parse.code, kExitUsage);
  EXPECT_NE(parse.line.find("(see memlab --help)"), std::string::npos) << parse.line;
}

TEST(ErrorMapping, BugsInMemlabExitWith4NotWith3) {
  expect_internal(map([] { throw std::logic_error("baseline 'x' is not a variant"); }),
                  "baseline 'x' is not a variant");
  expect_internal(map([] { throw std::bad_alloc(); }), "bad_alloc");
  expect_internal(map([] {
                    const nlohmann::json j = "text";
                    (void)j.get<int>();
                  }),
                  "type_error");
  expect_internal(map([] { throw std::invalid_argument("conv1d: unknown variant"); }),
                  "conv1d: unknown variant");
  expect_internal(map([] { throw 42; }), "not a std::exception");
  EXPECT_NE(kExitInternal, kExitCuda);
  EXPECT_EQ(kExitInternal, 4);
}

}  // namespace
}  // namespace memlab::cli
