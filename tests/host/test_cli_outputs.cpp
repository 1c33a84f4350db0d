// Issue 19 #11: every output path of every subcommand that cannot be written is a usage error
// (exit 2, one line naming the option) before any GPU work: a missing folder, a folder, no
// permission, a full disk. And `memlab summary` of the stored H200 run (issue 20 #4).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "memlab/cli/progress.hpp"

namespace {

using memlab::testing_cli::expect_usage_error;
using memlab::testing_cli::memlab;
using memlab::testing_cli::Result;

const std::string kRun = std::string(MEMLAB_SOURCE_DIR) + "/docs/results/h200-2026-12-01-full.json";

// Each command line with "{}" where the output path goes, and the option as typed.
struct Output {
  std::string command;
  std::string option;
};

std::vector<Output> every_output() {
  const std::string small = "run bandwidth -a n=1000 -v elem_f1 ";
  const std::string kernel =
      std::string(MEMLAB_SOURCE_DIR) + "/exercises/copy_bandwidth/solution.cu";
  return {
      {small + "--json {}", "--json"},
      {small + "--csv {}", "--csv"},
      {small + "--md {}", "--md"},
      {small + "--report {}", "--report"},
      {"claims --json {}", "--json"},
      {"claims --run-json {}", "--run-json"},
      {"claims --from " + kRun + " --json {}", "--json"},
      {"exercise check copy_bandwidth " + kernel + " --json {}", "--json"},
      {"exercise start copy_bandwidth -o {}", "-o"},
      {"report " + kRun + " -o {}", "-o"},
  };
}

std::string with_path(const std::string& command, const std::string& path) {
  std::string c = command;
  c.replace(c.find("{}"), 2, path);
  return c;
}

// A build without the web lab refuses `report` and `--report` for that reason instead.
bool web_lab_built() {
  static const bool built = memlab("report " + kRun + " -o /nonexistent-memlab-dir/r.html")
                                .out.find("without the web lab") == std::string::npos;
  return built;
}

bool is_start(const Output& o) {
  return o.command.rfind("exercise start", 0) == 0;  // never overwrites: an existing path "exists"
}

void expect_refused(const Output& o, const std::string& path, const std::string& why) {
  if (!web_lab_built() && (o.option == "--report" || o.command.rfind("report", 0) == 0)) return;
  expect_usage_error(with_path(o.command, path), o.option + ": cannot ");
  const Result r = memlab(with_path(o.command, path));
  EXPECT_NE(r.out.find(why), std::string::npos) << with_path(o.command, path) << "\n" << r.out;
}

TEST(OutputPaths, AMissingFolderIsAUsageErrorNamingTheOption) {
  for (const Output& o : every_output()) {
    expect_refused(o, "/nonexistent-memlab-dir/out.file", "No such file or directory");
  }
}

TEST(OutputPaths, AFolderWhereTheFileShouldBe) {
  for (const Output& o : every_output()) {
    if (is_start(o)) {
      expect_usage_error(with_path(o.command, testing::TempDir()), "-o: ");
      continue;
    }
    expect_refused(o, testing::TempDir(), "Is a directory");
  }
}

// Without permission: sysfs lets nobody, root included, create a file in /sys (EACCES).
TEST(OutputPaths, NoPermissionEvenForRoot) {
  if (!std::filesystem::is_directory("/sys/kernel")) GTEST_SKIP() << "no /sys";
  for (const Output& o : every_output()) {
    expect_refused(o, "/sys/kernel/memlab-out.file", "Permission denied");
  }
  if (geteuid() == 0) return;  // root ignores a folder's mode; /sys above holds for everyone
  const std::string dir = testing::TempDir() + "memlab_readonly_dir";
  std::filesystem::create_directories(dir);
  std::filesystem::permissions(
      dir, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  for (const Output& o : every_output()) expect_refused(o, dir + "/out.file", "Permission denied");
  std::filesystem::permissions(dir, std::filesystem::perms::owner_all);
}

// A full disk: /dev/full takes no byte (a write of none already says ENOSPC).
TEST(OutputPaths, AFullDiskIsRefusedBeforeTheRun) {
  for (const Output& o : every_output()) {
    if (is_start(o)) continue;  // /dev/full exists: refused as "exists" before it is opened
    expect_refused(o, "/dev/full", "No space left on device");
  }
}

// A real file system without a free block, and a read-only one: a private mount namespace with a
// tmpfs of 64 KiB filled up, and a read-only bind of it (needs unshare -m; skipped without it).
TEST(OutputPaths, AFullAndAReadOnlyFileSystem) {
  if (std::system("unshare -m true >/dev/null 2>&1") != 0) GTEST_SKIP() << "no unshare -m here";
  const std::string mnt = testing::TempDir() + "memlab_full_fs";
  std::filesystem::create_directories(mnt + "/ro");
  for (const Output& o : every_output()) {
    if (!web_lab_built() && (o.option == "--report" || o.command.rfind("report", 0) == 0)) continue;
    const std::string script =
        "mount -t tmpfs -o size=64k tmpfs " + mnt + " && mkdir " + mnt + "/ro && " +
        "dd if=/dev/zero of=" + mnt + "/fill bs=4k >/dev/null 2>&1; " + "mount --bind -o ro /tmp " +
        mnt + "/ro 2>/dev/null || mount --bind /tmp " + mnt + "/ro; " +
        "mount -o remount,bind,ro " + mnt + "/ro; " + std::string(MEMLAB_BINARY) + " " +
        with_path(o.command, mnt + "/out.file") + "; echo rc=$?; " + std::string(MEMLAB_BINARY) +
        " " + with_path(o.command, mnt + "/ro/memlab-ro-test.file") + "; echo rc=$?";
    FILE* p = popen(("unshare -m sh -c '" + script + "' 2>&1").c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[512];
    while (std::fgets(buf, sizeof buf, p) != nullptr) out += buf;
    pclose(p);
    EXPECT_NE(out.find(o.option + ": cannot write '" + mnt +
                       "/out.file' (No space left on device)\nrc=2"),
              std::string::npos)
        << o.command << "\n"
        << out;
    EXPECT_NE(out.find("(Read-only file system)\nrc=2"), std::string::npos) << o.command << "\n"
                                                                            << out;
  }
}

TEST(OutputPaths, AnEmptyNameIsRefused) {
  expect_usage_error("run bandwidth -a n=1000 --report ''", "--report: '' is not a file name");
  expect_usage_error("claims --run-json ''", "--run-json: '' is not a file name");
  expect_usage_error("run bandwidth -a n=1000 --json r.json --report r.json",
                     "--report: 'r.json' is also the --json file");
}

TEST(Summary, OfTheStoredDefaultRunInAtMost40Lines) {
  const Result r = memlab("summary " + kRun);
  ASSERT_EQ(r.code, 0) << r.out;
  std::size_t lines = 0, failed = 0;
  for (std::size_t at = 0, next; (next = r.out.find('\n', at)) != std::string::npos;
       at = next + 1) {
    ++lines;
    const std::string line = r.out.substr(at, next - at);
    if (line.find("FAIL") != std::string::npos || line.find("failed") != std::string::npos)
      ++failed;
  }
  EXPECT_LE(lines, 40u) << r.out;
  EXPECT_EQ(failed, 0u) << r.out;
  EXPECT_NE(r.out.find("  90 bank_conflicts: a fixed read pattern"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("memlab summary " + kRun + " --all"), std::string::npos) << r.out;
  const Result all = memlab("summary --all " + kRun);
  EXPECT_NE(all.out.find("1 hierarchy: atomic chains"), std::string::npos) << all.out;
  const Result json = memlab("summary --json " + kRun);
  EXPECT_EQ(json.code, 0);
  EXPECT_EQ(nlohmann::json::parse(json.out).at("lessons").size(), 26u);
  expect_usage_error("summary /nonexistent-memlab-dir/run.json", "RUN: cannot read");
  expect_usage_error(
      std::string("summary ") + MEMLAB_SOURCE_DIR + "/docs/results/h200-2026-11-30-claims.json",
      "is not a memlab run");
}

TEST(Progress, TheTimeLeftFromTheMeanTimePerMeasurement) {
  using memlab::cli::format_duration;
  using memlab::cli::format_eta;
  EXPECT_EQ(format_duration(42.4), "42s");
  EXPECT_EQ(format_duration(185), "3m05s");
  EXPECT_EQ(format_duration(3720), "1h02m");
  EXPECT_EQ(format_eta(10, 0, 100), "0/100, 10s");  // nothing finished: no estimate yet
  EXPECT_EQ(format_eta(10, 10, 100), "10/100, 10s, about 1m30s left");
  EXPECT_EQ(format_eta(10, 100, 100), "100/100, 10s");
  memlab::cli::ProgressLine two_runs(2);
  memlab::bench::ProgressEvent e;
  e.experiment = "bandwidth";
  e.variant = "elem_f1";
  e.point = "n=1024";
  e.index = 3;
  e.total = 10;
  EXPECT_NE(two_runs.line(e).find("2/20, "), std::string::npos) << two_runs.line(e);
  two_runs.next_pass();
  EXPECT_NE(two_runs.line(e).find("12/20, "), std::string::npos) << two_runs.line(e);
  EXPECT_NE(two_runs.line(e).find(": bandwidth elem_f1 n=1024 [run 2/2]"), std::string::npos);
}

}  // namespace
