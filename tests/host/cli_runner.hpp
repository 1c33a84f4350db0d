// Runs the memlab binary as a user would (exit code and output) for the host CLI tests.
#pragma once

#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <string>

namespace memlab::testing_cli {

struct Result {
  int code = -1;
  std::string out;  // stdout and stderr together
};

inline Result memlab(const std::string& args) {
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

// Exit 2 and exactly one line that contains `names`.
inline void expect_usage_error(const std::string& args, const std::string& names) {
  const Result r = memlab(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.out;
  EXPECT_NE(r.out.find(names), std::string::npos) << args << "\n" << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << "not one line: " << r.out;
}

}  // namespace memlab::testing_cli
