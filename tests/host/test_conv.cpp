// conv1d / conv2d: even mask widths and masks larger than the __constant__ buffer are one-line
// usage errors naming the axis, rejected before any device work (no GPU needed).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace {

struct Result {
  int code = -1;
  std::string out;
};

Result memlab(const std::string& args) {
  const std::string cmd = std::string(MEMLAB_BINARY) + " " + args + " 2>&1";
  Result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) r.out += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

void expect_usage_error(const std::string& args, const std::string& names) {
  const Result r = memlab(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(names), std::string::npos) << args << "\n" << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << "not one line: " << r.out;
}

TEST(Conv, EvenMaskIsRejected) {
  expect_usage_error("run conv1d -a n=1000 -a mask=4", "axis mask: 4 is even");
  expect_usage_error("run conv2d -a height=10 -a width=10 -a mask=6", "axis mask: 6 is even");
}

TEST(Conv, MaskLargerThanTheConstantBufferIsRejected) {
  expect_usage_error("run conv1d -a n=1000 -a mask=27", "axis mask: 27 is larger than");
  expect_usage_error("run conv2d -a height=10 -a width=10 -a mask=17",
                     "axis mask: 17 is larger than");
}

}  // namespace
