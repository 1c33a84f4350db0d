// The diagnosis parser and sentences on compute-sanitizer's real output from the H200
// (tests/host/data/sanitizer/, scripts/device/verify.sh: round three, session 2): the learner's two
// lines of a missing barrier, the line, thread and block of an out-of-bounds write.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "memlab/exercise/diagnosis.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

std::string read(const std::string& name) {
  std::ifstream in(std::string(MEMLAB_SOURCE_DIR) + "/tests/host/data/sanitizer/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

nlohmann::json findings(const std::string& tool, const std::string& sample,
                        std::array<long long, 3> block) {
  const SanitizerReport rep = parse_sanitizer_output(tool, read(sample + "." + tool + ".txt"));
  EXPECT_FALSE(rep.records.empty()) << sample;
  DiagnosisSource src;
  src.source = read(sample + ".cu.txt");  // .txt: clang-format keeps off the learner's lines
  src.file_name = sample + ".cu";
  src.block = block;
  return findings_json(rep.records, src);
}

std::string all_sentences(const nlohmann::json& f) {
  std::string s;
  for (const auto& x : f) s += x.value("sentence", "") + "\n";
  return s;
}

TEST(SanitizerSamplesH200, MatmulWithoutBarriersNamesLines13And16) {
  const auto f = findings("racecheck", "matmul_tiled@nobarrier", {16, 16, 1});
  ASSERT_FALSE(f.empty());
  const std::string s = all_sentences(f);
  std::printf("%s", s.c_str());
  EXPECT_NE(s.find("line 13 writes As[ty][tx]"), std::string::npos) << s;
  EXPECT_NE(s.find("line 16"), std::string::npos) << s;
  EXPECT_NE(s.find("__syncthreads()"), std::string::npos) << s;
  EXPECT_NE(s.find("(1,8,0)"), std::string::npos) << s;  // the H200's write thread
}

TEST(SanitizerSamplesH200, TransposeWithoutBarrierNamesTheStoreAndTheLoad) {
  const auto f = findings("racecheck", "transpose_bank_conflict@nobarrier", {32, 8, 1});
  const std::string s = all_sentences(f);
  EXPECT_NE(s.find("line 9 writes"), std::string::npos) << s;
  EXPECT_NE(s.find("line 16"), std::string::npos) << s;
}

TEST(SanitizerSamplesH200, MissingSyncthreadsStarterNamesLines8And9) {
  const auto f = findings("racecheck", "missing_syncthreads@starter", {256, 1, 1});
  const std::string s = all_sentences(f);
  EXPECT_NE(s.find("line 8 writes s[t]"), std::string::npos) << s;
  EXPECT_NE(s.find("line 9"), std::string::npos) << s;
}

TEST(SanitizerSamplesH200, OutOfBoundsWriteGetsItsLineThreadAndBlock) {
  const auto f = findings("memcheck", "vecadd_gridstride@oob", {256, 1, 1});
  ASSERT_FALSE(f.empty());
  const std::string s = all_sentences(f);
  EXPECT_NE(s.find("line 13"), std::string::npos) << s;
  std::printf("%s", s.c_str());
  EXPECT_NE(s.find("thread (64,0,0) of block (2,0,0)"), std::string::npos) << s;
  EXPECT_NE(s.find("writes 4 bytes"), std::string::npos) << s;
}

TEST(SanitizerSamplesH200, CleanRunsHaveNoRecords) {
  for (const char* sample :
       {"matmul_tiled@nobarrier.synccheck.txt", "matmul_tiled@nobarrier.memcheck.txt",
        "vecadd_gridstride@oob.racecheck.txt"}) {
    const std::string name = sample;
    const std::string tool = name.substr(name.rfind('.', name.size() - 5) + 1,
                                         name.size() - 4 - name.rfind('.', name.size() - 5) - 1);
    EXPECT_TRUE(parse_sanitizer_output(tool, read(name)).records.empty()) << name << " " << tool;
  }
}

}  // namespace
}  // namespace memlab::exercise
