// The exercise catalogue and the compile path, without a GPU: every exercise complete in all three
// languages (de, en, zh), its lesson and variants registered, its quiz answers equal to the
// models', every starter and solution compiling with NVRTC; compile errors carry the learner's line
// numbers.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>

#include "cli_runner.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

using testing_cli::memlab;

std::string temp_file(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

TEST(ExerciseCatalogue, HasSixteenCompleteExercisesOverNineLessons) {
  ASSERT_GE(catalogue().size(), 16u);
  std::set<std::string> lessons;
  for (const Exercise& e : catalogue()) {
    lessons.insert(e.lesson());
    const auto problems = validate(e);
    EXPECT_TRUE(problems.empty()) << ::testing::PrintToString(problems);
    const std::string fails = e.spec.value("starter_fails", "");
    EXPECT_TRUE(fails == "wrong_result" || fails == "target_missed") << e.name;
  }
  EXPECT_GE(lessons.size(), 9u);
}

TEST(ExerciseCatalogue, QuizAnswersAreTheModels) {
  for (const Exercise& e : catalogue()) {
    for (const auto& q : quiz_json(e)) {
      const double stored = q.at("answer").get<double>(), model = q.at("model_answer");
      EXPECT_NEAR(stored, model, 1e-9 * std::fabs(model)) << e.name << ": " << q.dump();
      for (const char* lang : kLanguages) {
        EXPECT_FALSE(q["question"].value(lang, "").empty()) << e.name << " " << lang;
      }
    }
  }
}

// A text with Chinese in it (a UTF-8 sequence of the CJK Unified Ideographs, U+4E00..U+9FFF).
bool has_chinese(const std::string& s) {
  for (std::size_t i = 0; i + 2 < s.size(); ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if (b >= 0xE4 && b <= 0xE9 && (static_cast<unsigned char>(s[i + 1]) & 0xC0) == 0x80)
      return true;
  }
  return false;
}

TEST(ExerciseCatalogue, EveryExerciseInGermanEnglishAndChinese) {
  EXPECT_EQ(std::vector<std::string>(kLanguages.begin(), kLanguages.end()),
            (std::vector<std::string>{"de", "en", "zh"}));
  for (const Exercise& e : catalogue()) {
    for (const char* lang : kLanguages) {
      EXPECT_FALSE(e.statement(lang).empty()) << e.name << ": statement." << lang << ".md";
      EXPECT_EQ(e.statements.at(lang), e.statement(lang)) << e.name << " " << lang;
      EXPECT_FALSE(e.spec["title"].value(lang, "").empty()) << e.name << " " << lang;
      EXPECT_FALSE(e.spec["target"]["text"].value(lang, "").empty()) << e.name << " " << lang;
      ASSERT_TRUE(e.spec["hints"].contains(lang)) << e.name << " " << lang;
      EXPECT_EQ(e.spec["hints"][lang].size(), e.spec["hints"]["en"].size()) << e.name << lang;
    }
    // The Chinese texts are Chinese, not a copy of the English ones.
    EXPECT_TRUE(has_chinese(e.statement("zh"))) << e.name;
    EXPECT_NE(e.statement("zh"), e.statement("en")) << e.name;
    EXPECT_TRUE(has_chinese(e.spec["title"]["zh"].get<std::string>())) << e.name;
    for (const auto& h : e.spec["hints"]["zh"]) EXPECT_TRUE(has_chinese(h)) << e.name;
    for (const auto& q : e.spec["quiz"]) EXPECT_TRUE(has_chinese(q["question"]["zh"])) << e.name;
  }
}

TEST(ExerciseCatalogue, AMissingTranslationIsAProblem) {
  Exercise e = get("smem_reverse_static");
  e.statements["zh"].clear();
  e.spec["hints"]["zh"].erase(0);
  e.spec["quiz"][1]["question"].erase("zh");
  const auto problems = ::testing::PrintToString(validate(e));
  EXPECT_NE(problems.find("statement.zh.md missing or empty"), std::string::npos) << problems;
  EXPECT_NE(problems.find("hints: zh and en differ in number"), std::string::npos) << problems;
  EXPECT_NE(problems.find("quiz[1].question.zh missing"), std::string::npos) << problems;
  e.spec["title"].erase("zh");
  EXPECT_NE(::testing::PrintToString(validate(e)).find("title.zh missing"), std::string::npos);
  // An unknown language falls back to English.
  EXPECT_EQ(get("smem_reverse_static").statement("fr"), get("smem_reverse_static").statement("en"));
}

TEST(ExerciseCatalogue, KnownModelFiguresInTheQuiz) {
  // Values a reader can check by hand: 32-way column read of tile[32][32], input tile 32 for
  // output tile 28 and mask 5.
  const auto q = quiz_json(get("transpose_bank_conflict"));
  EXPECT_EQ(q.at(0).at("model_answer").get<double>(), 32.0);
  EXPECT_EQ(q.at(1).at("model_answer").get<double>(), 1.0);
  EXPECT_EQ(quiz_json(get("conv1d_halo")).at(0).at("model_answer").get<double>(), 32.0);
}

// Seeds 002 and 004 (issue 21 #8): figures a reader can check by hand, one per model the quizzes
// use: 4 sectors for 32 consecutive floats, 32 for lanes 249 floats apart (coalescing), 0.25
// FLOP/B for 2 flops per 8 bytes and the H200 FP32 ridge 66.9 TFLOP/s / 4.8 TB/s (roofline through
// the model catalogue), 11680 idle threads of a 300 x 200 C in 32 x 32 blocks (arithmetic).
TEST(ExerciseCatalogue, SeedQuizFiguresFromEachModel) {
  const auto strided = quiz_json(get("strided_read"));
  EXPECT_EQ(strided.at(0).at("model_answer").get<double>(), 4.0);
  EXPECT_EQ(strided.at(2).at("model_answer").get<double>(), 32.0);
  const auto naive = quiz_json(get("matmul_naive"));
  EXPECT_EQ(naive.at(0).at("model_answer").get<double>(), 7.0 * 32 * 10 * 32 - 300 * 200);
  EXPECT_DOUBLE_EQ(naive.at(3).at("model_answer").get<double>(), 0.25);
  const auto speedup = quiz_json(get("matmul_speedup"));
  EXPECT_DOUBLE_EQ(speedup.at(3).at("model_answer").get<double>(),
                   132.0 * 128 * 2 * 1.98e9 / 4.8e12);
  // A catalogue model with a field its result lacks, and a model nobody knows, are refused.
  Exercise e = get("matmul_speedup");
  e.spec["quiz"][3]["model"]["field"] = "no_such_field";
  EXPECT_THROW(quiz_json(e), UsageError);
  e.spec["quiz"][3]["model"]["name"] = "no_such_model";
  EXPECT_THROW(quiz_json(e), UsageError);
}

TEST(ExerciseCatalogue, UnknownNameIsAUsageError) {
  EXPECT_THROW(get("no_such_exercise"), UsageError);
  testing_cli::expect_usage_error("exercise show no_such_exercise", "no_such_exercise");
}

TEST(ExerciseCompile, EveryStarterAndSolutionCompiles) {
  for (const Exercise& e : catalogue()) {
    for (const auto* src : {&e.starter, &e.solution}) {
      const auto r = compile_json(e, *src, e.name + ".cu");
      EXPECT_TRUE(r.at("ok").get<bool>()) << e.name << ":\n" << r.at("log").get<std::string>();
    }
  }
}

TEST(ExerciseCompile, SyntaxErrorGivesExit2AndTheLearnersLine) {
  std::string src = get("smem_reverse_static").solution;
  // Break line 9 of the file: drop the semicolon of the barrier.
  const auto pos = src.find("__syncthreads();");
  ASSERT_NE(pos, std::string::npos);
  src.replace(pos, 16, "__syncthreads()");
  const int line = 1 + static_cast<int>(std::count(src.begin(), src.begin() + pos, '\n'));
  const auto r = compile_json(get("smem_reverse_static"), src, "mine.cu");
  EXPECT_FALSE(r.at("ok").get<bool>());
  ASSERT_FALSE(r.at("diagnostics").empty());
  // NVRTC reports a missing ';' at the start of the next statement: this line or the next.
  const int got = r["diagnostics"][0]["line"];
  EXPECT_TRUE(got == line || got == line + 1) << r.dump(2);

  const std::string path = temp_file("mine.cu", src);
  const auto cli = memlab("exercise check smem_reverse_static " + path);
  EXPECT_EQ(cli.code, 2) << cli.out;
  EXPECT_NE(cli.out.find("mine.cu(" + std::to_string(got) + ")"), std::string::npos) << cli.out;
}

TEST(ExerciseCompile, ChangedSignatureIsACompileError) {
  std::string src = get("smem_reverse_static").solution;
  const auto pos = src.find("int n)");
  ASSERT_NE(pos, std::string::npos);
  src.replace(pos, 6, "long n)");
  const auto r = compile_json(get("smem_reverse_static"), src, "sig.cu");
  EXPECT_FALSE(r.at("ok").get<bool>()) << r.dump(2);
}

TEST(ExerciseCheck, SourceAbove64KiBIsRefused) {
  const std::string path = temp_file("big.cu", std::string(70000, ' '));
  const auto r = memlab("exercise check smem_reverse_static " + path);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("65536"), std::string::npos) << r.out;
}

TEST(ExerciseCheck, WithoutDeviceTheSolutionCompilesAndTheCheckSaysNoDevice) {
  if (device_count_or_zero() > 0) GTEST_SKIP() << "skipped: a CUDA device is present";
  const std::string path = temp_file("sol.cu", get("copy_bandwidth").solution);
  const auto r = memlab("exercise check copy_bandwidth " + path);
  EXPECT_EQ(r.code, 3) << r.out;
  EXPECT_NE(r.out.find("no CUDA device"), std::string::npos) << r.out;
}

TEST(ExerciseCli, ListShowStartQuiz) {
  const auto list = memlab("exercise list");
  EXPECT_EQ(list.code, 0);
  for (const Exercise& e : catalogue()) EXPECT_NE(list.out.find(e.name), std::string::npos);
  const auto show = memlab("exercise show conv1d_halo --lang de");
  EXPECT_EQ(show.code, 0);
  EXPECT_NE(show.out.find("n=100003 mask=25"), std::string::npos) << show.out;
  EXPECT_NE(show.out.find("\"grid\":[1,1,1]"), std::string::npos) << show.out;  // n=1
  const std::string out = ::testing::TempDir() + "started.cu";
  std::remove(out.c_str());
  EXPECT_EQ(memlab("exercise start aos_to_soa -o " + out).code, 0);
  EXPECT_EQ(memlab("exercise start aos_to_soa -o " + out).code, 2);  // never overwritten
  EXPECT_EQ(memlab("exercise quiz aos_to_soa --answers 32,12.5,4").code, 0);
  EXPECT_EQ(memlab("exercise quiz aos_to_soa --answers 8,12.5,4").code, 1);
  // In Chinese: the statement, the hints and the quiz; an unknown language is refused.
  const auto zh = memlab("exercise show smem_reverse_static --lang zh");
  EXPECT_EQ(zh.code, 0);
  EXPECT_NE(zh.out.find(get("smem_reverse_static").statement("zh")), std::string::npos) << zh.out;
  EXPECT_NE(zh.out.find(get("smem_reverse_static").spec["hints"]["zh"][1].get<std::string>()),
            std::string::npos)
      << zh.out;
  const auto quiz = memlab("exercise quiz aos_to_soa --answers 32,12.5,4 --lang zh");
  EXPECT_EQ(quiz.code, 0);
  EXPECT_NE(quiz.out.find("扇区"), std::string::npos) << quiz.out;
  EXPECT_NE(memlab("exercise list --lang zh").out.find("用静态共享内存倒序"), std::string::npos);
  testing_cli::expect_usage_error("exercise show conv1d_halo --lang fr", "--lang");
}

TEST(ExercisePlan, LaunchRuleAtOddSizes) {
  const auto plan = exercise_json(get("conv2d_tiled")).at("plan");
  bool seen = false;
  for (const auto& p : plan.at("points")) {
    if (p.at("point") == "height=33 width=65 mask=15 separable=no") {
      seen = true;  // O = 33 - 15 = 18: ceil(65 / 18) = 4, ceil(33 / 18) = 2
      EXPECT_EQ(p["launch"]["grid"], nlohmann::json({4, 2, 1}));
      EXPECT_EQ(p["launch"]["block"], nlohmann::json({32, 32, 1}));
    }
  }
  EXPECT_TRUE(seen) << plan.dump(2);
}

}  // namespace
}  // namespace memlab::exercise
