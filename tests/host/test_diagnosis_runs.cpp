// check()'s diagnosis runs without a GPU: the worker and compute-sanitizer are stand-in scripts
// that write what the real ones would (events.jsonl; the sanitizer's log from
// tests/host/sanitizer_samples.hpp) and record how they were called. The kernel is still
// compiled by NVRTC here, as in every check.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "memlab/exercise/engine.hpp"
#include "sanitizer_samples.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

std::string without_lines(const std::string& source, const std::string& needle) {
  std::stringstream in(source);
  std::string out, line;
  while (std::getline(in, line)) {
    if (line.find(needle) == std::string::npos) out += line + "\n";
  }
  return out;
}

void write_file(const fs::path& p, const std::string& text, bool exec = false) {
  std::ofstream(p) << text;
  if (exec) fs::permissions(p, fs::perms::owner_all);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class DiagnosisRun : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(testing::TempDir()) /
           ("memlab-diag-" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    const json plan = plan_json(get("matmul_tiled"));
    p0_ = plan["points"][0]["point"];
    p1_ = plan["points"][1]["point"];
    p2_ = plan["points"][2]["point"];
    // The main run: p0 passes, p2 fails (the worker stops there); p1 was never run. Under the
    // sanitizer (a request with "points"): wrong result at the one point asked for.
    const std::string events =
        json({{"event", "point"}, {"point", p0_}, {"ok", true}}).dump() + "\n" +
        json({{"event", "point"}, {"point", p2_}, {"ok", false}}).dump() + "\n" +
        json({{"event", "result"},
              {"status", "wrong_result"},
              {"message", "wrong result at " + p2_}})
            .dump();
    write_file(dir_ / "main-events.jsonl", events + "\n");
    write_file(dir_ / "worker.sh",
               "#!/bin/sh\n"
               "d=\"$2\"\n"
               "if grep -q '\"points\"' \"$d/request.json\"; then\n"
               "  echo '{\"event\":\"result\",\"status\":\"wrong_result\",\"message\":\"x\"}' "
               ">> \"$d/events.jsonl\"\n"
               "else\n"
               "  cat '" +
                   (dir_ / "main-events.jsonl").string() +
                   "' >> \"$d/events.jsonl\"\n"
                   "fi\n",
               true);
    write_file(dir_ / "racecheck.txt", samples::kMatmulRacecheck);
    // The sanitizer: records its arguments and the request, writes the sample as its log, then
    // runs the worker it was given (the two words before the folder).
    write_file(dir_ / "compute-sanitizer",
               "#!/bin/sh\n"
               "calls='" +
                   (dir_ / "calls.txt").string() +
                   "'\n"
                   "echo \"$*\" >> \"$calls\"\n"
                   "tool=''; log=''\n"
                   "while [ $# -gt 0 ]; do\n"
                   "  case \"$1\" in\n"
                   "    --tool) tool=\"$2\"; shift 2;;\n"
                   "    --log-file) log=\"$2\"; shift 2;;\n"
                   "    --*) shift 2;;\n"
                   "    *) break;;\n"
                   "  esac\n"
                   "done\n"
                   "cat \"$3/request.json\" >> '" +
                   (dir_ / "requests.txt").string() +
                   "'\n"
                   "echo >> '" +
                   (dir_ / "requests.txt").string() +
                   "'\n"
                   "if [ \"$tool\" = racecheck ]; then cat '" +
                   (dir_ / "racecheck.txt").string() +
                   "' > \"$log\"; else echo '========= ERROR SUMMARY: 0 errors' > \"$log\"; fi\n"
                   "\"$@\"\n"
                   "exit 86\n",
               true);
  }
  void TearDown() override { fs::remove_all(dir_); }

  CheckOptions options() const {
    CheckOptions o;
    o.worker = (dir_ / "worker.sh").string();
    o.sanitizer = (dir_ / "compute-sanitizer").string();
    o.diagnosis_timeout_s = 30;
    o.total_timeout_s = 30;
    return o;
  }

  fs::path dir_;
  std::string p0_, p1_, p2_;
};

TEST_F(DiagnosisRun, RacecheckOnTheSmallestFailingPointNamesTheLines) {
  const std::string src = without_lines(get("matmul_tiled").solution, "__syncthreads");
  const CheckResult r = check("matmul_tiled", src, options());
  EXPECT_EQ(r.exit_code, 1) << r.json.dump(2);
  EXPECT_EQ(r.json.value("status", ""), "wrong_result");
  ASSERT_TRUE(r.json.contains("diagnosis")) << r.json.dump(2);
  const json& d = r.json["diagnosis"];
  EXPECT_EQ(d["ran"], true);
  EXPECT_EQ(d["point"], p2_);                         // the failing one, not the unrun p1
  ASSERT_EQ(d["tool_runs"].size(), 1u) << d.dump(2);  // no barrier left: no synccheck
  EXPECT_EQ(d["tool_runs"][0]["tool"], "racecheck");
  EXPECT_EQ(d["tool_runs"][0]["exit"], 86);
  EXPECT_EQ(d["tool_runs"][0]["worker_status"], "wrong_result");
  ASSERT_EQ(d["sentences"].size(), 3u);
  EXPECT_EQ(d["sentences"][1],
            "line 14 writes Bs[ty][tx] while line 15 of another warp reads Bs[i][tx]: a "
            "__syncthreads() is missing between them (thread (1,1,0) against (1,14,0), block "
            "(1,0,0); 3072 hazards)");
  // The worker was asked for that one point, verify only, under racecheck's full report.
  const json req = json::parse(slurp(dir_ / "requests.txt"));
  EXPECT_EQ(req["points"], json::array({p2_}));
  EXPECT_EQ(req["measure"], false);
  EXPECT_EQ(req["file_name"], "kernel.cu");
  const std::string calls = slurp(dir_ / "calls.txt");
  EXPECT_NE(calls.find("--tool racecheck --racecheck-report all --print-limit"), std::string::npos)
      << calls;
  // The web lab's e2e shows this very result (web/e2e/fixtures/check-diagnosis.json):
  // MEMLAB_WRITE_DIAGNOSIS_FIXTURE=web/e2e/fixtures/check-diagnosis.json writes it again.
  if (const char* out = std::getenv("MEMLAB_WRITE_DIAGNOSIS_FIXTURE")) {
    json check = r.json;
    check.erase("worker");
    std::ofstream(out) << json({{"exercise", exercise_json(get("matmul_tiled"))},
                                {"source", src},
                                {"check", check}})
                              .dump(1)
                       << "\n";
  }
  // The text names the lines under the verdict.
  const std::string text = render_check(r.json);
  const auto verdict = text.find("wrong_result: ");
  const auto sentence = text.find("  - line 14 writes Bs[ty][tx]");
  ASSERT_NE(verdict, std::string::npos) << text;
  ASSERT_NE(sentence, std::string::npos) << text;
  EXPECT_LT(verdict, sentence);
}

TEST_F(DiagnosisRun, WithBarriersSynccheckRunsToo) {
  const CheckResult r = check("matmul_tiled", get("matmul_tiled").solution, options());
  ASSERT_TRUE(r.json.contains("diagnosis")) << r.json.dump(2);
  const json& runs = r.json["diagnosis"]["tool_runs"];
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0]["tool"], "racecheck");
  EXPECT_EQ(runs[1]["tool"], "synccheck");
  EXPECT_EQ(runs[1]["records"], 0);
}

TEST_F(DiagnosisRun, WithoutComputeSanitizerNoDiagnosisRanAndNoRaceIsClaimed) {
  CheckOptions o = options();
  o.sanitizer = (dir_ / "no-such-compute-sanitizer").string();
  const std::string src = without_lines(get("matmul_tiled").solution, "__syncthreads");
  const CheckResult r = check("matmul_tiled", src, o);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.json.value("status", ""), "wrong_result");
  const json& d = r.json.at("diagnosis");
  EXPECT_EQ(d["ran"], false);
  EXPECT_TRUE(d["sentences"].empty());
  EXPECT_TRUE(d["hazards"].empty());
  EXPECT_NE(d.value("reason", "").find("compute-sanitizer not found"), std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "calls.txt"));
  const std::string text = render_check(r.json);
  EXPECT_NE(text.find("diagnosis: no diagnosis ran: compute-sanitizer not found"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("hazard"), std::string::npos) << text;
}

TEST_F(DiagnosisRun, OffWhenAskedAndForAPass) {
  CheckOptions o = options();
  o.diagnose = false;
  const std::string src = without_lines(get("matmul_tiled").solution, "__syncthreads");
  EXPECT_FALSE(check("matmul_tiled", src, o).json.contains("diagnosis"));
  write_file(dir_ / "main-events.jsonl",
             json({{"event", "result"}, {"status", "passed"}, {"message", "ok"}}).dump() + "\n");
  const CheckResult r = check("matmul_tiled", src, options());
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.json.contains("diagnosis"));
}

}  // namespace
}  // namespace memlab::exercise
