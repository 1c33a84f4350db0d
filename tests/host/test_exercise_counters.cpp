// Issue 21 #6 and #7 without a GPU: the counters the check collects (their metric names on the
// H200's chip, GH100, through CUPTI's host API), the figures derived from a counters pass, the
// model's values declared by each exercise and computed by the models, the sentence that says
// which counter explains a missed target, and the PTX of a real NVRTC compile grouped by the
// learner's lines.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli_runner.hpp"
#include "exercise/compiler_view.hpp"
#include "exercise/counter_model.hpp"
#include "exercise/nvrtc.hpp"
#include "memlab/bench/counters.hpp"
#include "memlab/cuda/cupti.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

using bench::Counter;
using nlohmann::json;

// ---- which counters, and their names on GH100 -------------------------------------------------

TEST(ExerciseCounters, EveryMetricExistsOnGH100InAFewPasses) {
  const std::vector<std::string> metrics = bench::metric_names(exercise_counters());
  EXPECT_EQ(metrics.size(), 11u);
  EXPECT_NE(std::find(metrics.begin(), metrics.end(),
                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
            metrics.end());
  EXPECT_NE(std::find(metrics.begin(), metrics.end(),
                      "sm__warps_active.avg.pct_of_peak_sustained_active"),
            metrics.end());
  if (const std::string why = cupti_load_error(); !why.empty()) {
    GTEST_SKIP() << "libcupti not here: " << why;
  }
  int passes = 0;
  EXPECT_EQ(check_metric_names("GH100", metrics, &passes), "");
  EXPECT_GE(passes, 1);
  EXPECT_LE(passes, 8) << "each pass replays the kernel once";
  // The store-side name too, one by one (a typo in one would hide behind the first error).
  EXPECT_EQ(check_metric_names("GH100", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
                               nullptr),
            "");
  EXPECT_NE(check_metric_names("GH100", {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_xx.sum"},
                               nullptr),
            "");
}

TEST(ExerciseCounters, TheRunnersSelectionIsUnchanged) {
  // `memlab run --counters` selects none of the counters added for the exercises.
  for (const Counter c : bench::select_counters({1, 1, 1})) {
    EXPECT_NE(c, Counter::SharedLoadWavefronts);
    EXPECT_NE(c, Counter::SharedStoreWavefronts);
    EXPECT_NE(c, Counter::AchievedOccupancy);
  }
  EXPECT_EQ(bench::select_counters({1, 1, 1}).size(), 10u);
}

// What a counters pass of the column-read transpose at rows = cols = 8192 returns: 65536 blocks
// of 8 warps, each warp 4 LDS of a column (32 wavefronts each) and 4 STS of a row (1 each), 4
// LDG / 4 STG of 4 sectors each; DRAM a little above the 512 MiB the transpose must move.
std::vector<double> column_read_sample() {
  const double warps = 65536.0 * 8, lds = warps * 4, sts = warps * 4;
  return {268435456.0 * 1.01,
          268435456.0 * 1.002,
          4 * warps * 4,
          warps * 4,
          4 * warps * 4,
          warps * 4,
          lds,
          sts,
          32 * lds,
          1 * sts,
          87.5};
}

TEST(ExerciseCounters, FiguresOfAColumnReadTranspose) {
  const json f = derive_figures(exercise_counters(), column_read_sample(), 2 * 8192.0 * 8192 * 4);
  EXPECT_DOUBLE_EQ(f["wavefronts_per_shared_load"].get<double>(), 32.0);
  EXPECT_DOUBLE_EQ(f["wavefronts_per_shared_store"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(f["sectors_per_load_request"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(f["sectors_per_store_request"].get<double>(), 4.0);
  EXPECT_NEAR(f["dram_over_useful"].get<double>(), 1.006, 1e-9);
  EXPECT_DOUBLE_EQ(f["global_load_requests"].get<double>(), 65536.0 * 8 * 4);
  EXPECT_DOUBLE_EQ(f["achieved_occupancy_pct"].get<double>(), 87.5);
  EXPECT_EQ(f["metrics"].size(), 11u);
  EXPECT_DOUBLE_EQ(f["metrics"]["smsp__inst_executed_op_shared_ld.sum"].get<double>(),
                   65536.0 * 8 * 4);
}

TEST(ExerciseCounters, AFigureWithoutItsCountersIsLeftOutNeverInvented) {
  std::vector<double> v = column_read_sample();
  v[6] = 0;                                         // no shared loads at all (a naive kernel)
  v[0] = std::numeric_limits<double>::quiet_NaN();  // DRAM read not given
  v[10] = -1;                                       // nonsense occupancy
  const json f = derive_figures(exercise_counters(), v, 1e9);
  EXPECT_FALSE(f.contains("wavefronts_per_shared_load")) << f.dump();
  EXPECT_TRUE(f.contains("wavefronts_per_shared_store"));
  EXPECT_FALSE(f.contains("dram_bytes"));
  EXPECT_FALSE(f.contains("dram_over_useful"));
  EXPECT_FALSE(f.contains("achieved_occupancy_pct"));
  EXPECT_TRUE(f["metrics"]["dram__bytes_read.sum"].is_null());
  EXPECT_THROW(derive_figures(exercise_counters(), {1.0}, 1e9), std::logic_error);
}

// ---- the model's values, declared per exercise ----------------------------------------------

double model_value(const std::string& exercise, const std::string& figure, const char* side) {
  for (const json& m : counter_models(get(exercise))) {
    if (m["figure"] == figure) return m[side]["value"].get<double>();
  }
  ADD_FAILURE() << exercise << " declares no " << figure;
  return -1;
}

TEST(ExerciseCounterModels, ComputedByTheModels) {
  // The bank model: the column of tile[32][32] is one bank (32 wavefronts), of [32][33] none.
  EXPECT_EQ(model_value("transpose_bank_conflict", "wavefronts_per_shared_load", "starter"), 32);
  EXPECT_EQ(model_value("transpose_bank_conflict", "wavefronts_per_shared_load", "intended"), 1);
  // The coalescing model: a column write of 8192-float rows touches 32 sectors, a row write 4.
  EXPECT_EQ(model_value("transpose_coalesced", "sectors_per_store_request", "starter"), 32);
  EXPECT_EQ(model_value("transpose_coalesced", "sectors_per_store_request", "intended"), 4);
  // float loads 4 sectors per request, float4 16; both move only useful bytes through DRAM.
  for (const char* e : {"copy_bandwidth", "vecadd_gridstride"}) {
    EXPECT_EQ(model_value(e, "sectors_per_load_request", "starter"), 4) << e;
    EXPECT_EQ(model_value(e, "sectors_per_load_request", "intended"), 16) << e;
    EXPECT_EQ(model_value(e, "dram_over_useful", "starter"), 1) << e;
    EXPECT_EQ(model_value(e, "dram_over_useful", "intended"), 1) << e;
  }
  // x of 8-float structures: every lane its own sector, 8x the useful bytes in 64-byte units.
  EXPECT_EQ(model_value("aos_to_soa", "sectors_per_load_request", "starter"), 32);
  EXPECT_EQ(model_value("aos_to_soa", "sectors_per_load_request", "intended"), 4);
  EXPECT_EQ(model_value("aos_to_soa", "dram_over_useful", "starter"), 8);
  EXPECT_EQ(model_value("aos_to_soa", "dram_over_useful", "intended"), 1);
  // m = n = k = 2048: 131072 warps, 2 loads per k (naive) or per 16-wide phase (tiled).
  EXPECT_EQ(model_value("matmul_tiled", "global_load_requests", "starter"), 131072.0 * 2048 * 2);
  EXPECT_EQ(model_value("matmul_tiled", "global_load_requests", "intended"), 131072.0 * 128 * 2);
}

TEST(ExerciseCounterModels, EveryExerciseIsValidAndTheSixDeclareTheirs) {
  int declared = 0;
  for (const Exercise& e : catalogue()) {
    EXPECT_TRUE(validate(e).empty()) << ::testing::PrintToString(validate(e));
    if (!e.spec.contains("counters")) continue;
    ++declared;
    const json m = counter_models(e);
    ASSERT_FALSE(m.empty()) << e.name;
    // At least one figure tells the intended pattern from the starter's (DRAM bytes may well
    // equal the useful bytes for both: a check, not a contrast).
    bool contrast = false;
    for (const json& f : m) contrast = contrast || f["intended"]["value"] != f["starter"]["value"];
    EXPECT_TRUE(contrast) << e.name << ": no figure tells them apart";
    EXPECT_EQ(exercise_json(e)["counter_model"], m) << e.name;
  }
  EXPECT_GE(declared, 6);
}

TEST(ExerciseCounterModels, ABadDeclarationIsAProblem) {
  Exercise e = get("transpose_bank_conflict");
  auto problems = [&] { return ::testing::PrintToString(validate(e)); };
  json& f = e.spec["counters"]["figures"][0];
  f["figure"] = "wavefronts_per_nothing";
  EXPECT_NE(problems().find("figures[0].figure: one of"), std::string::npos) << problems();
  f["figure"] = "wavefronts_per_shared_load";
  f["intended"]["label"].erase("zh");
  EXPECT_NE(problems().find("figures[0].intended.label: text in de, en and zh"), std::string::npos)
      << problems();
  f["intended"]["label"]["zh"] = "填充";
  f["starter"]["model"]["field"] = "nonsense";
  EXPECT_NE(problems().find("banks field nonsense unknown"), std::string::npos) << problems();
  f["starter"]["model"]["field"] = "passes";
  e.spec["counters"]["compare"] = json::array({"no_such_variant"});
  EXPECT_NE(problems().find("counters.compare: no_such_variant not a variant"), std::string::npos)
      << problems();
  e.spec["counters"].erase("compare");
  e.spec["counters"]["extra"] = 1;
  EXPECT_NE(problems().find("unknown (figures, compare)"), std::string::npos) << problems();
  e.spec["counters"].erase("extra");
  EXPECT_TRUE(validate(e).empty()) << problems();
}

TEST(ExerciseCounterModels, ArithmeticModelsReadTheMeasuringPoint) {
  Exercise e = get("matmul_tiled");
  e.spec["measure_point"]["k"] = "4096";
  EXPECT_EQ(counter_models(e)[0]["starter"]["value"].get<double>(), 131072.0 * 4096 * 2);
  e.spec["counters"]["figures"][0]["starter"]["model"]["expr"] = "cdiv(m * n, 32) * q";
  EXPECT_NE(::testing::PrintToString(validate(e)).find("q"), std::string::npos);
}

// ---- the sentence ---------------------------------------------------------------------------

json counters_of(const std::string& exercise, json yours) {
  return {{"yours", std::move(yours)}, {"model", counter_models(get(exercise))}};
}

TEST(ExerciseCounterExplain, AMissedTargetNamesTheCounterThatExplainsIt) {
  const json v = explain_counters(
      counters_of("transpose_bank_conflict",
                  {{"wavefronts_per_shared_load", 31.6}, {"sectors_per_load_request", 4.0}}),
      false);
  EXPECT_EQ(v["text"],
            "your column read of the tile: 31.60 wavefronts per load request (32-way conflict); "
            "the padded tile tile[32][33]: 1");
  EXPECT_EQ(v["closer_to"], "starter");
  EXPECT_EQ(v["figure"], "wavefronts_per_shared_load");
  EXPECT_TRUE(v["off"].get<bool>());

  // Of two figures, the one furthest from the intended value explains it: the sectors.
  const json a = explain_counters(
      counters_of("aos_to_soa", {{"sectors_per_load_request", 32.0}, {"dram_over_useful", 1.3}}),
      false);
  EXPECT_EQ(a["figure"], "sectors_per_load_request");
  EXPECT_EQ(a["text"],
            "your read of x: 32 sectors per load request (8.0x the model's 4); SoA: x "
            "contiguous: 4");
}

TEST(ExerciseCounterExplain, CountersAsTheModelSaySo) {
  const json met = explain_counters(
      counters_of("transpose_bank_conflict", {{"wavefronts_per_shared_load", 1.02}}), true);
  EXPECT_FALSE(met["off"].get<bool>());
  EXPECT_EQ(met["closer_to"], "intended");
  EXPECT_EQ(met["text"],
            "your column read of the tile: 1 wavefronts per load request, as the model predicts "
            "for the padded tile tile[32][33] (1)");
  const json missed = explain_counters(
      counters_of("transpose_bank_conflict", {{"wavefronts_per_shared_load", 1.0}}), false);
  EXPECT_NE(missed["text"].get<std::string>().find("does not explain the missed target"),
            std::string::npos)
      << missed;
  // Nothing declared was measured (no shared loads), or nothing declared: no sentence.
  EXPECT_TRUE(
      explain_counters(counters_of("transpose_bank_conflict", {{"dram_over_useful", 1.0}}), false)
          .empty());
  EXPECT_TRUE(explain_counters(counters_of("smem_reverse_static", {{"x", 1}}), false).empty());
}

TEST(ExerciseCounterExplain, TheCliPrintsItAndSaysWhyCountersAreMissing) {
  json r = {{"exercise", "transpose_bank_conflict"}, {"status", "target_missed"}};
  r["measure"]["counters"] =
      counters_of("transpose_bank_conflict", {{"wavefronts_per_shared_load", 32.0},
                                              {"achieved_occupancy_pct", 91.25},
                                              {"dram_over_useful", 1.01}});
  r["measure"]["counters"]["status"] = "collected";
  r["measure"]["counters"]["explain"] = "your column read of the tile: 32 (sample)";
  const std::string text = render_check(r);
  EXPECT_NE(text.find("wavefronts per load request: yours 32, model 1 (the padded tile "
                      "tile[32][33]), starter's 32"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("achieved occupancy 91.2%, DRAM 1.01x the useful bytes"), std::string::npos)
      << text;
  EXPECT_NE(text.find("why: your column read of the tile: 32 (sample)"), std::string::npos) << text;
  r["measure"]["counters"] = {{"status", "unavailable"},
                              {"reason", "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"}};
  const std::string none = render_check(r);
  EXPECT_NE(none.find("counters: unavailable: CUPTI_ERROR_INSUFFICIENT_PRIVILEGES"),
            std::string::npos)
      << none;
  EXPECT_EQ(none.find("yours"), std::string::npos) << none;
}

// ---- what the compiler made of it -----------------------------------------------------------

int line_of(const std::string& source, const std::string& needle) {
  const auto pos = source.find(needle);
  if (pos == std::string::npos) return -1;
  return 1 + static_cast<int>(std::count(source.begin(), source.begin() + pos, '\n'));
}

// The PTX instructions of the groups of one learner line, joined.
std::string ptx_of_line(const json& c, int line) {
  std::string out;
  for (const json& g : c["ptx_lines"]) {
    if (g["line"] == line) {
      for (const json& i : g["ptx"]) out += i.get<std::string>() + "\n";
    }
  }
  return out;
}

TEST(ExerciseCompiler, ThePtxOfTheTiledProductByTheLearnersLines) {
  const Exercise& e = get("matmul_tiled");
  const Compiled c = nvrtc_compile(e.solution, "mine.cu", e.kernel_expr(), "sm_90");
  ASSERT_TRUE(c.ok) << c.log;
  const json j = compiler_json(c, e.solution, "mine.cu");
  EXPECT_GT(j["registers"].get<int>(), 0);
  EXPECT_EQ(j["shared_bytes"].get<int>(), 2 * 16 * 16 * 4);  // As and Bs
  EXPECT_EQ(j["barriers"].get<int>(), 1);
  EXPECT_EQ(j["spill_stores"].get<int>(), 0);
  ASSERT_EQ(j["functions"].size(), 1u);
  EXPECT_NE(j["functions"][0].get<std::string>().find("matmul_tiled"), std::string::npos);
  EXPECT_FALSE(j["ptx_truncated"].get<bool>());
  EXPECT_EQ(j["ptx_shown"], j["ptx_total"]);
  // Each group's text is the learner's line; the lines are the learner's file's.
  const std::vector<std::string> lines = [&] {
    std::vector<std::string> out;
    std::stringstream ss(e.solution);
    for (std::string l; std::getline(ss, l);) out.push_back(l);
    return out;
  }();
  std::size_t instructions = 0;
  for (const json& g : j["ptx_lines"]) {
    const int line = g["line"].get<int>();
    ASSERT_GE(line, 0);
    ASSERT_LE(line, static_cast<int>(lines.size()));
    if (line > 0) {
      EXPECT_EQ(g["source"], lines[static_cast<std::size_t>(line) - 1]);
    }
    ASSERT_FALSE(g["ptx"].empty());
    instructions += g["ptx"].size();
  }
  EXPECT_EQ(instructions, j["ptx_total"].get<std::size_t>());
  // The stores into the tiles, the barrier and the shared loads of the inner product sit on
  // their own lines; no .loc record is left in the listing.
  EXPECT_NE(ptx_of_line(j, line_of(e.solution, "As[ty][tx] =")).find("st.shared.f32"),
            std::string::npos)
      << j["ptx_lines"].dump(1);
  EXPECT_NE(ptx_of_line(j, line_of(e.solution, "__syncthreads();")).find("bar.sync"),
            std::string::npos);
  EXPECT_NE(ptx_of_line(j, line_of(e.solution, "acc += As[ty][i]")).find("ld.shared.f32"),
            std::string::npos);
  EXPECT_NE(ptx_of_line(j, line_of(e.solution, "c[(size_t)row * n + col] = acc")).find("st.global"),
            std::string::npos);
  EXPECT_EQ(j["ptx_lines"].dump().find(".loc"), std::string::npos);

  // Cut at 10 instructions: said so, and the total still counted.
  const json cut = compiler_json(c, e.solution, "mine.cu", 10);
  EXPECT_TRUE(cut["ptx_truncated"].get<bool>());
  EXPECT_EQ(cut["ptx_shown"].get<std::size_t>(), 10u);
  EXPECT_EQ(cut["ptx_total"], j["ptx_total"]);
  EXPECT_EQ(resources_line(j), std::to_string(j["registers"].get<int>()) +
                                   " registers, 0 B spilled, 2.0 KiB shared, 1 barriers");
}

TEST(ExerciseCompiler, FileIndexNestedScopesAndOtherFiles) {
  // A hand-made module: the learner's file is index 2, index 1 a header; a nested call scope.
  const std::string ptx = R"(.version 8.5
.target sm_90
.visible .entry _Z1kPf(
	.param .u64 _Z1kPf_param_0
)
{
	.reg .b32 	%r<3>;
	.loc	2 2 3
	mov.u32 	%r1, %tid.x;
	.loc	1 40 1
	add.s32 	%r2, %r1, 1;
	{ // callseq 0, 0
	.loc	2 3 5
	st.global.u32 	[%rd1], %r2;
	}
	.loc	2 0 5
	ret;
}
	.file	1 "/usr/include/habit.h"
	.file	2 "kernel.cu"
)";
  const std::string source = "// mine\n  int t = threadIdx.x;\n  out[0] = t + 1;\n";
  const json j = ptx_by_line(ptx, source, "kernel.cu");
  ASSERT_EQ(j["ptx_lines"].size(), 5u) << j.dump(1);
  EXPECT_EQ(j["ptx_lines"][0]["line"], 0);  // the .reg declaration, before any .loc
  EXPECT_EQ(j["ptx_lines"][1]["line"], 2);
  EXPECT_EQ(j["ptx_lines"][1]["source"], "  int t = threadIdx.x;");
  EXPECT_EQ(j["ptx_lines"][2]["line"], 0);  // the header's line is not the learner's
  EXPECT_EQ(j["ptx_lines"][3]["line"], 3);
  EXPECT_EQ(j["ptx_lines"][3]["ptx"], json::array({"st.global.u32 \t[%rd1], %r2;"}));
  EXPECT_EQ(j["ptx_lines"][4]["ptx"], json::array({"ret;"}));
  EXPECT_EQ(j["functions"], json::array({"_Z1kPf"}));
  EXPECT_EQ(j["ptx_total"], 5);
}

// `memlab exercise check --json-stdout` without a GPU still compiles: the compiler's view is in
// the result (exit 3, no device), and the text says the resources in one line.
TEST(ExerciseCompiler, TheCheckCarriesItWithoutADevice) {
  if (device_count_or_zero() > 0) GTEST_SKIP() << "skipped: a CUDA device is present";
  const std::string path = ::testing::TempDir() + "padded_tile.cu";
  { std::ofstream(path) << get("transpose_bank_conflict").solution; }
  const auto r =
      testing_cli::memlab("exercise check transpose_bank_conflict " + path + " --json-stdout");
  EXPECT_EQ(r.code, 3) << r.out;
  const json j = json::parse(r.out.substr(r.out.find('{')), nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["compiler"]["shared_bytes"], 32 * 33 * 4) << j["compiler"].dump();
  EXPECT_FALSE(j["compiler"]["ptx_lines"].empty());
  const auto text = testing_cli::memlab("exercise check transpose_bank_conflict " + path);
  EXPECT_NE(text.out.find("compiler: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(" registers, 0 B spilled, 4.1 KiB shared, 1 barriers"), std::string::npos)
      << text.out;
}

}  // namespace
}  // namespace memlab::exercise
