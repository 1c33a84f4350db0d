// Issue 21, holes 1 and 2: a learner's source reads nothing of the host. Every way a C++
// preprocessor can be asked to open a file (absolute, relative and `..` paths, #include_next, a
// macro that expands to a path, digraphs, line splices, __has_include, #line, pragmas) is tried
// against a file whose content would compile; the compile must fail (or the probe stay false)
// and no byte of the file may appear in what the CLI or the API returns. The headers learners
// write from habit (<cstdio> before printf, <cstdint>, ...) are accepted.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

namespace fs = std::filesystem;
using testing_cli::memlab;

// A secret file that is valid C++: if NVRTC ever read it, the kernel below would compile.
struct Secret {
  fs::path dir, file;
  std::string marker;
  Secret() {
    std::random_device rd;
    marker = "memlab_secret_" + std::to_string(rd()) + std::to_string(rd());
    dir = fs::path(::testing::TempDir()) / ("sandbox_" + std::to_string(getpid()));
    fs::create_directories(dir / "sub");
    file = dir / "secret.h";
    std::ofstream(file) << "#define SECRET_VALUE 1\nconstexpr int " << marker << " = 1;\n";
  }
  ~Secret() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

const Exercise& ex() {
  return get("vecadd_gridstride");
}

// The exercise's solution with `prefix` in front and a use of the secret's macro in the kernel
// file (so a successful include would make the compile succeed).
std::string with_prefix(const std::string& prefix) {
  return prefix + "\n__device__ int memlab_probe() { return SECRET_VALUE; }\n" + ex().solution;
}

class Sandbox : public ::testing::Test {
 protected:
  Secret secret;
  void expect_refused(const std::string& source, const std::string& what) {
    const auto r = compile_json(ex(), source, "kernel.cu");
    EXPECT_FALSE(r.at("ok").get<bool>()) << what << ":\n" << r.dump(2);
    const std::string all = r.dump();
    EXPECT_EQ(all.find(secret.marker), std::string::npos) << what << ": the file was read\n" << all;
  }
};

TEST_F(Sandbox, AbsoluteRelativeAndDotDotPathsAreNotOpened) {
  const std::string abs = secret.file.string();
  expect_refused(with_prefix("#include \"" + abs + "\""), "absolute");
  expect_refused(with_prefix("#include <" + abs + ">"), "absolute <>");
  // Relative to the current directory and through "..".
  const fs::path cwd = fs::current_path();
  fs::current_path(secret.dir / "sub");
  expect_refused(with_prefix("#include \"../secret.h\""), "..");
  fs::current_path(secret.dir);
  expect_refused(with_prefix("#include \"secret.h\""), "relative");
  expect_refused(with_prefix("#include \"./sub/../secret.h\""), "./sub/..");
  fs::current_path(cwd);
  expect_refused(with_prefix("#include \"/proc/self/cwd/../../../../../../../../" + abs + "\""),
                 "/proc/self/cwd");
}

TEST_F(Sandbox, PreprocessorTricksDoNotOpenIt) {
  const std::string abs = secret.file.string();
  expect_refused(with_prefix("#include_next \"" + abs + "\""), "#include_next");
  expect_refused(with_prefix("#define P \"" + abs + "\"\n#include P"), "macro");
  expect_refused(with_prefix("#define S(x) #x\n#define Q(x) S(x)\n#include Q(" + abs + ")"),
                 "stringised macro");
  expect_refused(with_prefix("%:include \"" + abs + "\""), "digraph");
  expect_refused(with_prefix("#inc\\\nlude \"" + abs + "\""), "line splice");
  expect_refused(with_prefix("# /* comment */ include \"" + abs + "\""), "comment");
  expect_refused(with_prefix("#pragma include_alias(\"a.h\", \"" + abs + "\")\n#include \"a.h\""),
                 "include_alias");
  expect_refused(with_prefix("_Pragma(\"once\")\n#include \"" + abs + "\""), "_Pragma");
  expect_refused(with_prefix("#import \"" + abs + "\""), "#import");
}

TEST_F(Sandbox, HasIncludeSeesNothing) {
  const std::string src =
      "#if __has_include(\"" + secret.file.string() +
      "\") || __has_include(\"/etc/passwd\")\n#error the file exists\n#endif\n" + ex().solution;
  const auto r = compile_json(ex(), src, "kernel.cu");
  EXPECT_TRUE(r.at("ok").get<bool>()) << r.dump(2);
}

TEST_F(Sandbox, LineDirectiveNamesAFileButQuotesOnlyTheLearnersLine) {
  const std::string src = "#line 1 \"" + secret.file.string() + "\"\n__device__ int f() { return " +
                          "undefined_name; }\n" + ex().solution;
  expect_refused(src, "#line");
}

TEST_F(Sandbox, ARefusedIncludeNamesTheLineAndTheHeadersAccepted) {
  const std::string src = "// my kernel\n#include \"/etc/passwd\"\n" + ex().solution;
  const auto r = compile_json(ex(), src, "kernel.cu");
  ASSERT_FALSE(r.at("ok").get<bool>());
  ASSERT_FALSE(r.at("diagnostics").empty()) << r.dump(2);
  const auto& d = r["diagnostics"][0];
  EXPECT_EQ(d["line"], 2) << r.dump(2);
  const std::string m = d["message"];
  EXPECT_NE(m.find("#include \"/etc/passwd\": not available here"), std::string::npos) << m;
  EXPECT_NE(m.find("<cstdio>"), std::string::npos) << m;
  EXPECT_EQ(r.dump().find("root:"), std::string::npos) << r.dump(2);
}

TEST_F(Sandbox, HabitHeadersCompile) {
  const std::string src =
      "#include <cstdio>\n#include <stdio.h>\n#include <cstdint>\n#include <climits>\n"
      "#include <cfloat>\n#include <cmath>\n#include <cassert>\n#include <cuda_runtime.h>\n"
      "__device__ int64_t memlab_habits(uint32_t x) {\n"
      "  printf(\"%u %d %g %g\\n\", x, INT_MAX, FLT_MAX, INFINITY);\n"
      "  assert(x != 0u);\n  return static_cast<int64_t>(x) + INT32_MAX + sqrtf(2.0f);\n}\n" +
      ex().solution;
  const auto r = compile_json(ex(), src, "kernel.cu");
  EXPECT_TRUE(r.at("ok").get<bool>()) << r.dump(2);
}

// A small fuzzer: random compositions of the tricks above, through the public compile path.
TEST_F(Sandbox, RandomCompositionsNeverReturnTheFile) {
  const std::string abs = secret.file.string();
  const std::vector<std::string> paths = {
      "\"" + abs + "\"", "<" + abs + ">", "\"secret.h\"", "\"../secret.h\"", "P", "Q(" + abs + ")"};
  const std::vector<std::string> heads = {"#include ",   "#include_next ", "%:include ",
                                          "#  include ", "#inc\\\nlude ",  "#import "};
  const std::vector<std::string> pre = {
      "", "#define P \"" + abs + "\"\n",
      "#define S(x) #x\n#define Q(x) S(x)\n#define P Q(" + abs + ")\n", "#line 7 \"" + abs + "\"\n",
      "#pragma once\n"};
  std::mt19937 rng(2026);
  const fs::path cwd = fs::current_path();
  fs::current_path(secret.dir / "sub");
  for (int i = 0; i < 40; ++i) {
    std::string prefix = pre[rng() % pre.size()];
    if (prefix.find("Q(") == std::string::npos && prefix.find("#define P") == std::string::npos) {
      prefix += "#define S(x) #x\n#define Q(x) S(x)\n#define P \"" + abs + "\"\n";
    }
    prefix += heads[rng() % heads.size()] + paths[rng() % paths.size()];
    expect_refused(with_prefix(prefix), prefix);
  }
  fs::current_path(cwd);
}

TEST_F(Sandbox, TheCliReturnsNoByteOfAHostFile) {
  const std::string path = ::testing::TempDir() + "passwd_probe.cu";
  std::ofstream(path) << "#include \"/etc/passwd\"\n#include \"" << secret.file.string() << "\"\n"
                      << ex().solution;
  for (const char* extra : {"", " --json-stdout"}) {
    const auto r = memlab("exercise check vecadd_gridstride " + path + extra);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(r.out.find("root:"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(secret.marker), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("not available here"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace memlab::exercise
