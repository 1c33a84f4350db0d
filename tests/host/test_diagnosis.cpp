// The diagnosis of a failed check without a GPU: compute-sanitizer's output (the documented forms
// and the exercises' own, tests/host/sanitizer_samples.hpp) parsed into records, the records said
// in the learner's lines of real exercise sources, the choice of tools and point, and check()'s
// diagnosis runs end to end with a stand-in worker and a stand-in compute-sanitizer (scripts that
// write what the real ones would), or with none found.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <sstream>

#include "memlab/exercise/diagnosis.hpp"
#include "memlab/exercise/engine.hpp"
#include "sanitizer_samples.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

// An exercise's solution with every line holding `needle` removed.
std::string without_lines(const std::string& source, const std::string& needle) {
  std::stringstream in(source);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.find(needle) == std::string::npos) out += line + "\n";
  }
  return out;
}

DiagnosisSource source_of(const std::string& exercise, const std::string& text,
                          std::array<long long, 3> block) {
  DiagnosisSource s{text, "kernel.cu", block, {}};
  for (const json& p : get(exercise).spec.at("kernel").at("params")) {
    s.params.emplace_back(p.at("type").get<std::string>(), p.at("name").get<std::string>());
  }
  return s;
}

TEST(SanitizerReport, ParsesTheAnalysisForm) {
  const SanitizerReport r = parse_sanitizer_output("racecheck", samples::kDocRaceAnalysis);
  ASSERT_EQ(r.records.size(), 1u);
  const SanitizerRecord& x = r.records[0];
  EXPECT_EQ(x.type, "race");
  EXPECT_EQ(x.severity, "error");
  EXPECT_EQ(x.first.access, "write");
  EXPECT_EQ(x.first.file, "block_error.cu");  // folders dropped
  EXPECT_EQ(x.first.line, 41);
  EXPECT_EQ(x.first.function, "sumKernel(int *, int *)");
  EXPECT_EQ(x.second.access, "read");
  EXPECT_EQ(x.second.line, 51);
  EXPECT_EQ(x.hazards, 508);
  EXPECT_EQ(r.summary_errors, 1);
  EXPECT_EQ(r.summary_warnings, 0);
}

TEST(SanitizerReport, ParsesTheHazardFormOldAndNew) {
  const SanitizerReport r = parse_sanitizer_output("racecheck", samples::kDocRaceHazard);
  ASSERT_EQ(r.records.size(), 1u);
  const SanitizerRecord& x = r.records[0];
  EXPECT_EQ(x.type, "RAW");
  EXPECT_EQ(x.severity, "warning");
  EXPECT_TRUE(x.warp_level);
  EXPECT_EQ(x.space, "__shared__");
  EXPECT_EQ(x.address, "0x8c");
  EXPECT_EQ(x.block, (std::array<int, 3>{0, 0, 0}));
  EXPECT_EQ(x.first.access, "write");
  EXPECT_EQ(x.first.thread, (std::array<int, 3>{35, 0, 0}));
  EXPECT_EQ(x.first.line, 44);
  EXPECT_EQ(x.second.access, "read");
  EXPECT_EQ(x.second.thread, (std::array<int, 3>{32, 0, 0}));
  EXPECT_EQ(x.second.line, 56);

  const SanitizerReport old = parse_sanitizer_output("racecheck", samples::kOldRaceHazard);
  ASSERT_EQ(old.records.size(), 1u);
  EXPECT_EQ(old.records[0].type, "WAR");
  EXPECT_EQ(old.records[0].severity, "warning");
  EXPECT_EQ(old.records[0].first.access, "read");
  EXPECT_EQ(old.records[0].first.thread, (std::array<int, 3>{31, 0, 0}));
  EXPECT_EQ(old.records[0].first.file, "race.cu");
  EXPECT_EQ(old.records[0].first.line, 4);
  EXPECT_EQ(old.records[0].first.function, "test(int*, int*)");
  EXPECT_EQ(old.records[0].second.thread, (std::array<int, 3>{0, 0, 0}));
}

TEST(SanitizerReport, EachFurtherLocationOfAnAnalysisIsAPair) {
  const SanitizerReport r = parse_sanitizer_output("racecheck", samples::kRaceNoLines);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].first.function, "p10_shared_memory_race");
  EXPECT_EQ(r.records[0].first.line, 0);
  EXPECT_EQ(r.records[0].second.access, "read");
  EXPECT_EQ(r.records[0].hazards, 4);
  EXPECT_EQ(r.records[1].second.access, "write");
  EXPECT_EQ(r.records[1].hazards, 5);
  // Without line information the finding says so and names no line of the learner's.
  const json f = findings_json(r.records, DiagnosisSource{"", "kernel.cu", {32, 1, 1}, {}});
  ASSERT_FALSE(f.empty());
  EXPECT_EQ(f[0]["message"], "elsewhere");
  EXPECT_NE(f[0]["sentence"].get<std::string>().find("no line information"), std::string::npos);
}

TEST(SanitizerReport, ParsesMemcheckAccessErrors) {
  const SanitizerReport r = parse_sanitizer_output("memcheck", samples::kDocMemcheck);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].type, "access");
  EXPECT_EQ(r.records[0].space, "__global__");
  EXPECT_EQ(r.records[0].first.access, "write");
  EXPECT_EQ(r.records[0].size_bytes, 4);
  EXPECT_EQ(r.records[0].first.line, 34);
  EXPECT_EQ(r.records[0].first.function, "unaligned_kernel()");
  EXPECT_EQ(r.records[0].problem, "misaligned");
  EXPECT_EQ(r.records[0].relation, "inside");
  EXPECT_EQ(r.records[0].allocation_bytes, 4);
  EXPECT_EQ(r.records[1].problem, "out of bounds");
  EXPECT_EQ(r.records[1].first.line, 39);  // the "at" line wins over the device frame
  EXPECT_EQ(r.records[1].relation, "before");
  EXPECT_EQ(r.records[1].distance_bytes, 137179965340896LL);
  EXPECT_EQ(r.records[1].allocation_bytes, 1024);
  EXPECT_EQ(r.summary_errors, 2);
}

TEST(SanitizerReport, ParsesSynccheckAndTakesTheFrameInAFileWithLines) {
  const SanitizerReport r = parse_sanitizer_output("synccheck", samples::kDocSynccheck);
  ASSERT_EQ(r.records.size(), 2u);
  EXPECT_EQ(r.records[0].type, "barrier");
  EXPECT_EQ(r.records[0].problem, "Divergent thread(s) in block");
  EXPECT_EQ(r.records[0].first.line, 42);
  EXPECT_EQ(r.records[0].first.thread, (std::array<int, 3>{32, 0, 0}));
  EXPECT_EQ(r.records[1].problem, "Invalid arguments");
  // "at __cuda_sm70_warpsync+0x30" has no line: the first frame that has one is taken.
  EXPECT_EQ(r.records[1].first.file, "sm_30_intrinsics.hpp");
  EXPECT_EQ(r.records[1].first.line, 110);
}

TEST(SanitizerReport, NothingFromCleanOrForeignText) {
  EXPECT_TRUE(parse_sanitizer_output("racecheck",
                                     "========= COMPUTE-SANITIZER\n========= RACECHECK SUMMARY: 0 "
                                     "hazards displayed (0 errors, 0 warnings)\n")
                  .records.empty());
  EXPECT_TRUE(parse_sanitizer_output("memcheck",
                                     "by thread (1,2,3) in block (4,5,6)\nAddress "
                                     "0x10 is out of bounds\nat k()+0x10 in a.cu:3\n")
                  .records.empty());  // detail lines without their heading
  const SanitizerReport bad =
      parse_sanitizer_output("racecheck", "========= Error: unrecognized option '--bogus'\n");
  EXPECT_EQ(bad.tool_errors.size(), 1u);
}

TEST(Diagnosis, SharedArraysAreTheDeclaredOnes) {
  EXPECT_EQ(shared_arrays(get("matmul_tiled").solution), (std::vector<std::string>{"As", "Bs"}));
  EXPECT_EQ(shared_arrays(get("missing_syncthreads").starter), (std::vector<std::string>{"s"}));
  EXPECT_EQ(shared_arrays(get("transpose_coalesced").solution), (std::vector<std::string>{"tile"}));
  EXPECT_EQ(shared_arrays("// __shared__ fake[3];\n__shared__ __align__(16) float x[4], y = 0;\n"
                          "static __shared__ int count;"),
            (std::vector<std::string>{"x", "y", "count"}));
}

TEST(Diagnosis, MatmulWithoutBarriersIsSaidInTheLearnersLines) {
  const std::string src = without_lines(get("matmul_tiled").solution, "__syncthreads");
  ASSERT_EQ(source_line(src, 13),
            "As[ty][tx] = (row < m && ka < k) ? a[(size_t)row * k + ka] : 0.0f;");
  ASSERT_EQ(source_line(src, 15), "for (int i = 0; i < 16; ++i) acc += As[ty][i] * Bs[i][tx];");
  const SanitizerReport rep = parse_sanitizer_output("racecheck", samples::kMatmulRacecheck);
  ASSERT_EQ(rep.records.size(), 6u);
  const json f = findings_json(rep.records, source_of("matmul_tiled", src, {16, 16, 1}));
  ASSERT_EQ(f.size(), 3u) << f.dump(2);  // one per (line pair, kind): 2 hazards of 14/15 merged
  EXPECT_EQ(f[0]["kind"], "RAW");
  EXPECT_EQ(f[0]["array"], "As");
  EXPECT_EQ(f[0]["write"]["line"], 13);
  EXPECT_EQ(f[0]["write"]["expr"], "As[ty][tx]");
  EXPECT_EQ(f[0]["read"]["expr"], "As[ty][i]");
  EXPECT_EQ(f[0]["same_warp"], true);  // (1,14,0) and (0,14,0): threads 225 and 224
  EXPECT_EQ(f[0]["hazards"], 1536);    // the analysis report's count for these lines
  EXPECT_EQ(f[0]["message"], "raw_same_warp");
  EXPECT_EQ(f[0]["sentence"].get<std::string>().rfind(
                "line 13 writes As[ty][tx] while line 15 of the same warp reads As[ty][i]: a "
                "__syncthreads() is missing between them (the threads of one warp",
                0),
            0u)
      << f[0]["sentence"];
  EXPECT_NE(f[0]["sentence"].get<std::string>().find(
                "(thread (1,14,0) against (0,14,0), block (0,0,0); 1536 hazards)"),
            std::string::npos);

  EXPECT_EQ(f[1]["kind"], "RAW");
  EXPECT_EQ(f[1]["array"], "Bs");
  EXPECT_EQ(f[1]["records"], 2);  // two bytes of one float: one sentence
  EXPECT_EQ(f[1]["same_warp"], false);
  EXPECT_EQ(f[1]["sentence"],
            "line 14 writes Bs[ty][tx] while line 15 of another warp reads Bs[i][tx]: a "
            "__syncthreads() is missing between them (thread (1,1,0) against (1,14,0), block "
            "(1,0,0); 3072 hazards)");

  EXPECT_EQ(f[2]["kind"], "WAR");
  EXPECT_EQ(f[2]["message"], "war_next");
  EXPECT_EQ(f[2]["sentence"],
            "line 15 reads Bs[i][tx] while line 14 of another warp overwrites it for the next "
            "iteration: a __syncthreads() is missing after the loop body (after line 15, before "
            "the loop starts over) (thread (1,3,0) against (1,1,0), block (0,1,0); 1 hazard)");
}

TEST(Diagnosis, AnAnalysisAloneGivesTheLinesAndAnInferredKind) {
  const std::string src = get("missing_syncthreads").starter;
  const SanitizerReport rep = parse_sanitizer_output("racecheck", samples::kReverseRacecheck);
  const json f = findings_json(rep.records, source_of("missing_syncthreads", src, {256, 1, 1}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]["kind"], "RAW");
  EXPECT_EQ(f[0]["kind_inferred"], true);
  EXPECT_FALSE(f[0].contains("same_warp"));  // no threads printed
  EXPECT_EQ(f[0]["sentence"],
            "line 8 writes s[t] while line 9 of another thread reads s[len - 1 - t]: a "
            "__syncthreads() is missing between them (12288 hazards)");
}

TEST(Diagnosis, OneSentencePerDistinctLinesAndKind) {
  const std::string src = without_lines(get("matmul_tiled").solution, "__syncthreads");
  std::string many;
  for (int i = 0; i < 50; ++i) many += samples::kDocRaceHazard;  // 50 hazards, same lines
  const SanitizerReport rep = parse_sanitizer_output("racecheck", many);
  ASSERT_EQ(rep.records.size(), 50u);
  const json f = findings_json(rep.records, source_of("matmul_tiled", src, {16, 16, 1}));
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0]["hazards"], 50);
  EXPECT_EQ(f[0]["message"], "elsewhere");  // warp_error.cu is not the learner's kernel.cu
}

TEST(Diagnosis, OutOfBoundsVecAddNamesLineThreadAndTheMissingTest) {
  const std::string src =
      "__global__ void vec_add(const float* a, const float* b, float* c, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  c[i] = a[i] + b[i];\n"
      "}\n";
  const SanitizerReport rep = parse_sanitizer_output("memcheck", samples::kVecAddMemcheck);
  ASSERT_EQ(rep.records.size(), 3u);
  const json f = findings_json(rep.records, source_of("vecadd_gridstride", src, {256, 1, 1}));
  ASSERT_EQ(f.size(), 2u) << f.dump(2);  // the reads (2) and the write (1)
  EXPECT_EQ(f[0]["records"], 2);
  EXPECT_EQ(f[0]["at"]["line"], 3);
  EXPECT_EQ(f[0]["bounds"]["index"], "i");
  EXPECT_EQ(f[0]["bounds"]["limit"], "n");
  EXPECT_EQ(f[1]["message"], "oob");
  EXPECT_EQ(f[1]["sentence"],
            "line 3 (c[i] = a[i] + b[i];): thread (5,0,0) of block (0,0,0) writes 4 bytes just "
            "past the end of a 20-byte buffer — is the bounds test i < n missing?");
  EXPECT_NE(f[0]["sentence"].get<std::string>().find(
                "thread (160,0,0) of block (0,0,0) reads 4 bytes 620 bytes past the end of a "
                "20-byte buffer"),
            std::string::npos);
}

TEST(Diagnosis, MisalignedAndDivergentBarrier) {
  const SanitizerReport m = parse_sanitizer_output("memcheck", samples::kDocMemcheck);
  const json fm = findings_json(m.records, DiagnosisSource{"", "memcheck_demo.cu", {1, 1, 1}, {}});
  ASSERT_EQ(fm.size(), 2u);
  EXPECT_EQ(fm[0]["message"], "misaligned");
  EXPECT_NE(fm[0]["sentence"].get<std::string>().find("misaligned address 0x7cc43aa00001"),
            std::string::npos);
  const std::string src =
      "__global__ void reverse_static(const float* in, float* out, int n) {\n"
      "  __shared__ float s[64];\n"
      "  if (threadIdx.x < 48) {\n"
      "    s[threadIdx.x] = in[threadIdx.x];\n"
      "    __syncthreads();\n"
      "  }\n"
      "}\n";
  const SanitizerReport s = parse_sanitizer_output("synccheck", samples::kDivergentSynccheck);
  const json fs = findings_json(s.records, source_of("smem_reverse_static", src, {64, 1, 1}));
  ASSERT_EQ(fs.size(), 1u);
  EXPECT_EQ(fs[0]["message"], "barrier_block");
  EXPECT_EQ(fs[0]["records"], 2);
  EXPECT_EQ(fs[0]["sentence"].get<std::string>().rfind(
                "line 5 (__syncthreads();): not every thread of the block reaches this barrier "
                "together",
                0),
            0u)
      << fs[0]["sentence"];
}

TEST(Diagnosis, WhichResultsAndWhichTools) {
  EXPECT_TRUE(wants_diagnosis("wrong_result", false));
  EXPECT_TRUE(wants_diagnosis("cuda_error", false));
  EXPECT_FALSE(wants_diagnosis("timeout", true));
  EXPECT_FALSE(wants_diagnosis("compile_error", true));
  EXPECT_FALSE(wants_diagnosis("passed", false));
  EXPECT_TRUE(wants_diagnosis("passed", true));
  const std::string tiled = get("matmul_tiled").solution;
  EXPECT_EQ(diagnosis_tools("wrong_result", false, tiled),
            (std::vector<std::string>{"racecheck", "synccheck"}));
  EXPECT_EQ(diagnosis_tools("wrong_result", false, without_lines(tiled, "__syncthreads")),
            (std::vector<std::string>{"racecheck"}));
  EXPECT_EQ(diagnosis_tools("cuda_error", false, tiled),
            (std::vector<std::string>{"racecheck", "synccheck", "memcheck"}));
  EXPECT_EQ(diagnosis_tools("wrong_result", false, "__global__ void k(float* c) { c[0] = 1; }"),
            (std::vector<std::string>{"memcheck"}));
  EXPECT_EQ(diagnosis_tools("passed", true, "__global__ void k(float* c) { __syncwarp(); }"),
            (std::vector<std::string>{"synccheck", "memcheck"}));
}

TEST(Diagnosis, TheSmallestFailingPoint) {
  EXPECT_EQ(
      choose_diagnosis_point({{"n=4194307", 4194307, 0}, {"n=5", 5, 1}, {"n=270337", 270337, 0}})
          .label,
      "n=270337");
  const DiagnosisPoint none =
      choose_diagnosis_point({{"n=9", 9, 1}, {"n=5", 5, 1}, {"n=7", 7, -1}});
  EXPECT_EQ(none.label, "n=5");
  EXPECT_NE(none.why.find("no test point failed"), std::string::npos);
  EXPECT_TRUE(choose_diagnosis_point({}).label.empty());
}

}  // namespace
}  // namespace memlab::exercise
