// `memlab serve` in the plain `memlab` binary, which links no HTTP library (issue 19 #12: it
// starts where only the NVIDIA driver is): the server is the memlab-serve executable beside it
// (same main, linked with memlab_server and Debian's shared cpp-httplib), run here with the same
// arguments. Without it, exit 2 with one line naming what is missing.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <vector>

#include "memlab/cli/web_commands.hpp"
#include "memlab/common/error.hpp"

namespace memlab::cli {
namespace {

namespace fs = std::filesystem;

// memlab-serve in the folder of this executable (/proc/self/exe). Started by the dynamic loader
// by hand (ld-linux-x86-64.so.2 memlab ...), /proc/self/exe is the loader: argv[0] then.
fs::path sibling(const char* argv0) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec || self.filename().string().rfind("ld-", 0) == 0) {
    self = fs::weakly_canonical(fs::absolute(argv0 != nullptr ? argv0 : "memlab", ec), ec);
  }
  return self.parent_path() / "memlab-serve";
}

}  // namespace

int serve_elsewhere(int argc, char** argv) {
  const std::string exe = sibling(argc > 0 ? argv[0] : nullptr).string();
  // argv[0] stays: the messages and --help still read `memlab serve`.
  std::vector<char*> args(argv, argv + argc);
  args.push_back(nullptr);
  execv(exe.c_str(), args.data());
  const int err = errno;
  std::cerr << "memlab " << (argc > 1 ? argv[1] : "serve")
            << ": needs memlab-serve beside memlab (the web lab, cpp-httplib): " << exe << ": "
            << std::strerror(err)
            << " (build the memlab-serve target; scripts/device/stage.sh copies it with "
               "libcpp-httplib)\n";
  return kExitUsage;
}

// Listed in `memlab --help`; main() hands `serve` to serve_elsewhere() before parsing.
void add_serve_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "serve",
      "The web lab in the browser: explainers, lessons, results, runs (loopback only; runs "
      "memlab-serve beside memlab)");
  cmd->allow_extras();
  cmd->callback([&exit_code] {
    exit_code = kExitUsage;
    throw UsageError("serve: runs memlab-serve beside memlab");
  });
  auto* cls = app.add_subcommand(
      "class", "A class lab: learners, a teacher, one GPU queue (runs memlab-serve beside memlab)");
  cls->allow_extras();
  cls->callback([&exit_code] {
    exit_code = kExitUsage;
    throw UsageError("class: runs memlab-serve beside memlab");
  });
}

}  // namespace memlab::cli
