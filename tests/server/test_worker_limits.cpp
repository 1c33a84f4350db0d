// The exercise worker's explicit limits (issue 22 #4, src/exercise/process.cpp): what the child
// really runs under, read from /proc/self/limits of a child started the same way, and the
// network: an AF_INET socket refused, AF_UNIX allowed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <map>
#include <sstream>
#include <thread>

#include "exercise/process.hpp"

namespace memlab::exercise {
namespace {

// "Max open files  1024  1024  files" -> {"Max open files": "1024"} (the soft limit).
std::map<std::string, std::string> soft_limits(const std::string& text) {
  std::map<std::string, std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() < 26 || line.rfind("Limit", 0) == 0) continue;
    std::string name = line.substr(0, 26);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    std::istringstream rest(line.substr(26));
    std::string soft;
    rest >> soft;
    out[name] = soft;
  }
  return out;
}

TEST(WorkerLimits, TheChildRunsUnderTheRecordedLimits) {
  const ProcessLimits limits;
  const ProcessResult p = run_process({"/bin/cat", "/proc/self/limits"}, "/dev/null", 10, 1 << 16);
  ASSERT_TRUE(p.exited) << p.output;
  const auto l = soft_limits(p.output);
  EXPECT_EQ(l.at("Max core file size"), "0");
  EXPECT_EQ(l.at("Max file size"), std::to_string(limits.file_bytes));
  EXPECT_EQ(l.at("Max open files"), std::to_string(limits.open_files));
  EXPECT_EQ(l.at("Max data size"), std::to_string(limits.data_bytes));
  EXPECT_EQ(l.at("Max cpu time"), "20");  // ceil(10 s) + 10
  EXPECT_NE(l.at("Max processes"), "unlimited");
  const auto j = limits_json(limits, 10, 1 << 16);
  EXPECT_EQ(j["file_bytes"], limits.file_bytes);
  EXPECT_EQ(j["cpu_s"], 20);
  EXPECT_EQ(j["processes_enforced"], getuid() != 0);
}

TEST(WorkerLimits, NoNetworkButLocalSockets) {
  if (access("/usr/bin/python3", X_OK) != 0) GTEST_SKIP() << "needs /usr/bin/python3";
  const auto j = limits_json(ProcessLimits{}, 10, 1024);
  if (j["network"].get<std::string>().rfind("blocked", 0) != 0)
    GTEST_SKIP() << "seccomp is not available here: " << j["network"];
  const char* script =
      "import socket\n"
      "socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()\n"
      "print('unix ok')\n"
      "for fam in (socket.AF_INET, socket.AF_INET6):\n"
      "  try:\n"
      "    socket.socket(fam, socket.SOCK_STREAM)\n"
      "    print('inet open')\n"
      "  except PermissionError:\n"
      "    print('inet refused')\n";
  const ProcessResult p = run_process({"/usr/bin/python3", "-c", script}, "/dev/null", 20, 4096);
  ASSERT_TRUE(p.exited) << p.output;
  EXPECT_EQ(p.output, "unix ok\ninet refused\ninet refused\n");
  // Without the limit the same script opens the socket: the test can tell the two apart.
  ProcessLimits open;
  open.no_network = false;
  const ProcessResult q =
      run_process({"/usr/bin/python3", "-c", script}, "/dev/null", 20, 4096, open);
  EXPECT_EQ(q.output, "unix ok\ninet open\ninet open\n");
}

TEST(WorkerLimits, CancelKillsTheProcessGroup) {
  std::atomic<bool> cancel{false};
  std::thread t([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  const ProcessResult p =
      run_process({"/bin/sleep", "30"}, "/dev/null", 60, 1024, ProcessLimits{}, &cancel);
  t.join();
  EXPECT_TRUE(p.cancelled);
  EXPECT_FALSE(p.timed_out);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 10.0);
}

}  // namespace
}  // namespace memlab::exercise
