// Issue 19 #12: `memlab` starts where only the NVIDIA driver is installed. Its ELF NEEDED entries
// name the C and C++ runtimes only (MPI, cuBLAS, CUPTI, NVML and NCCL are opened at run time;
// `memlab serve` runs memlab-serve beside it, which links Debian's cpp-httplib), and a copy of the
// binary in an empty folder, started by the loader with the cache off and only those runtimes on
// its path, lists the lessons and plans a run (the cuBLAS variants skipped with their reason, an
// mpirun without MPI a usage error, serve without memlab-serve beside it a usage error).
#include <elf.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

namespace memlab {
namespace {
namespace fs = std::filesystem;

// DT_NEEDED of a 64-bit ELF file (empty when the file is not one).
std::vector<std::string> needed_libraries(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  std::string bytes(static_cast<std::size_t>(std::max<std::streamoff>(in.tellg(), 0)), '\0');
  in.seekg(0);
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  std::vector<std::string> out;
  if (bytes.size() < sizeof(Elf64_Ehdr) || bytes.compare(0, 4, ELFMAG) != 0 ||
      bytes[EI_CLASS] != ELFCLASS64) {
    return out;
  }
  Elf64_Ehdr eh;
  std::memcpy(&eh, bytes.data(), sizeof eh);
  auto section = [&](std::size_t i) {
    Elf64_Shdr sh{};
    const std::size_t at = eh.e_shoff + i * eh.e_shentsize;
    if (at + sizeof sh <= bytes.size()) std::memcpy(&sh, bytes.data() + at, sizeof sh);
    return sh;
  };
  for (std::size_t i = 0; i < eh.e_shnum; ++i) {
    const Elf64_Shdr dyn = section(i);
    if (dyn.sh_type != SHT_DYNAMIC) continue;
    const Elf64_Shdr str = section(dyn.sh_link);
    for (std::size_t at = dyn.sh_offset; at + sizeof(Elf64_Dyn) <= dyn.sh_offset + dyn.sh_size;
         at += sizeof(Elf64_Dyn)) {
      Elf64_Dyn d;
      std::memcpy(&d, bytes.data() + at, sizeof d);
      if (d.d_tag == DT_NULL) break;
      if (d.d_tag == DT_NEEDED && str.sh_offset + d.d_un.d_val < bytes.size()) {
        out.emplace_back(bytes.c_str() + str.sh_offset + d.d_un.d_val);
      }
    }
  }
  return out;
}

struct Outcome {
  int code = -1;
  std::string out;
};

Outcome shell(const std::string& cmd) {
  Outcome r;
  FILE* pipe = popen((cmd + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) r.out += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

const std::regex kRuntime(
    R"(^(libc|libm|libgcc_s|libstdc\+\+|libdl|libpthread|librt|ld-linux-x86-64|ld-linux-aarch64)\.so(\.[0-9]+)*$)");

TEST(RuntimeDeps, NeededListsOnlyTheCAndCxxRuntimes) {
  const std::vector<std::string> needed = needed_libraries(MEMLAB_BINARY);
  ASSERT_FALSE(needed.empty()) << MEMLAB_BINARY << " is not a dynamic 64-bit ELF file";
  for (const std::string& lib : needed) {
    EXPECT_TRUE(std::regex_match(lib, kRuntime))
        << MEMLAB_BINARY << " needs " << lib
        << " at start-up: open it at run time (dlopen) or compile it in (issue 19 #12)";
  }
}

#ifdef MEMLAB_SERVE_BINARY
// The server is the sibling memlab-serve: `memlab serve` runs it with the same arguments, and it
// is the one that links cpp-httplib.
TEST(RuntimeDeps, ServeRunsMemlabServeBesideMemlab) {
  const Outcome help = shell(std::string("'") + MEMLAB_BINARY + "' serve --help");
  EXPECT_EQ(help.code, 0) << help.out;
  EXPECT_NE(help.out.find("--port"), std::string::npos) << help.out;
  const Outcome bad = shell(std::string("'") + MEMLAB_BINARY + "' serve --port 70000");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--port"), std::string::npos) << bad.out;
  const std::vector<std::string> needed = needed_libraries(MEMLAB_SERVE_BINARY);
  EXPECT_TRUE(
      std::any_of(needed.begin(), needed.end(),
                  [](const std::string& lib) { return lib.rfind("libcpp-httplib", 0) == 0; }))
      << MEMLAB_SERVE_BINARY << " does not link cpp-httplib";
}
#endif

// A folder holding links to the runtimes only, and the binary copied into another one (once for
// the suite).
class Bare : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    root_ = fs::path(::testing::TempDir()) / ("memlab_bare_" + std::to_string(getpid()));
    fs::remove_all(root_);
    fs::create_directories(root_ / "lib");
    fs::create_directories(root_ / "bin");
    fs::copy_file(MEMLAB_BINARY, root_ / "bin" / "memlab");
    for (const std::string& lib : needed_libraries(MEMLAB_BINARY)) {
      if (lib.rfind("ld-linux", 0) == 0) continue;
      for (const char* dir :
           {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
            "/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib"}) {
        const fs::path p = fs::path(dir) / lib;
        if (fs::exists(p)) {
          fs::create_symlink(fs::canonical(p), root_ / "lib" / lib);
          break;
        }
      }
    }
    for (const char* loader : {"/lib64/ld-linux-x86-64.so.2", "/lib/ld-linux-aarch64.so.1"}) {
      if (fs::exists(loader)) loader_ = loader;
    }
  }
  static void TearDownTestSuite() { fs::remove_all(root_); }

  // memlab ARGS started by the loader: no ld.so.cache, the runtimes' folder the only extra path,
  // a clean environment without a visible GPU and with cuBLAS absent.
  static Outcome memlab(const std::string& args, const std::string& env = "") {
    const std::string cmd =
        "cd '" + root_.string() + "' && env -i PATH=/usr/bin:/bin HOME=/tmp" +
        " CUDA_VISIBLE_DEVICES=-1 MEMLAB_CUBLAS_LIBRARY=/nonexistent/libcublas.so " + env + " " +
        loader_ + " --inhibit-cache --library-path '" + (root_ / "lib").string() + "' '" +
        (root_ / "bin" / "memlab").string() + "' " + args;
    return shell(cmd);
  }

  static inline fs::path root_;
  static inline std::string loader_;
};

TEST_F(Bare, ListsTheLessons) {
  if (loader_.empty()) GTEST_SKIP() << "no known dynamic loader on this machine";
  const Outcome r = memlab("list");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const char* lesson : {"bandwidth", "coalescing", "matmul", "tensor_cores", "collectives"}) {
    EXPECT_NE(r.out.find(lesson), std::string::npos) << lesson << " not listed:\n" << r.out;
  }
}

TEST_F(Bare, PlansARunWithTheCublasVariantsSkipped) {
  if (loader_.empty()) GTEST_SKIP() << "no known dynamic loader on this machine";
  const Outcome r = memlab("run matmul tensor_cores bandwidth --quick --seed 7");
  // No visible device: the plan, then exit 3 (kExitCuda).
  ASSERT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("showing the plan only"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("bandwidth"), std::string::npos) << r.out;
  // Every cublas variant with its reason (a run-time skip: needs_device), the others planned.
  const std::regex skipped(R"(\bcublas +[^\n]*needs cuBLAS)");
  const auto n = std::distance(std::sregex_iterator(r.out.begin(), r.out.end(), skipped),
                               std::sregex_iterator());
  EXPECT_GE(n, 2) << r.out;
  EXPECT_FALSE(std::regex_search(r.out, std::regex(R"(\bnaive +skipped)"))) << r.out;
}

TEST_F(Bare, MpirunWithoutMpiIsAUsageError) {
  if (loader_.empty()) GTEST_SKIP() << "no known dynamic loader on this machine";
  const Outcome r = memlab("run bandwidth --quick",
                           "OMPI_COMM_WORLD_SIZE=2 OMPI_COMM_WORLD_RANK=1 "
                           "MEMLAB_MPI_LIBRARY=/nonexistent/libmpi.so.40");
  // Built with MPI's headers: the library is opened at run time and its absence is exit 2 with
  // one line; built without them, the same exit code for "built without MPI".
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("MPI"), std::string::npos) << r.out;
}

TEST_F(Bare, ServeWithoutMemlabServeBesideIsAUsageError) {
  if (loader_.empty()) GTEST_SKIP() << "no known dynamic loader on this machine";
#ifndef MEMLAB_SERVE_BINARY
  GTEST_SKIP() << "built without the web lab (MEMLAB_WEB=OFF)";
#endif
  for (const char* args : {"serve --help", "serve --port 70000"}) {
    const Outcome r = memlab(args);
    EXPECT_EQ(r.code, 2) << args << ":\n" << r.out;
    EXPECT_EQ(r.out.rfind("memlab serve: needs memlab-serve beside memlab (the web lab, "
                          "cpp-httplib): ",
                          0),
              0u)
        << args << ":\n"
        << r.out;
    // The sibling of the copy, not of the loader that started it.
    EXPECT_NE(r.out.find("/bin/memlab-serve: No such file"), std::string::npos) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << args << ":\n" << r.out;
  }
}

}  // namespace
}  // namespace memlab
