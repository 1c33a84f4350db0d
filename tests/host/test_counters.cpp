// `memlab run --counters` without a GPU: which counters each lesson's model selects, their metric
// names (checked against the H200's chip with CUPTI's host API when libcupti is here), the merge
// into the record, the JSON and table output, the "unavailable" path and bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_runner.hpp"
#include "memlab/bench/counters.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/cuda/cupti.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/compare.hpp"
#include "memlab/report/report.hpp"

namespace memlab::bench {
namespace {

std::vector<std::string> metrics_of(const ModelCounters& m) {
  return metric_names(select_counters(m));
}

TEST(CounterSelection, DramAlwaysSectorsAndBanksOnlyWhereTheModelPredictsThem) {
  EXPECT_EQ(metrics_of({}),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum"}));
  EXPECT_EQ(metrics_of({1e6, 0, 0}), metrics_of({}));
  EXPECT_EQ(metrics_of({0, 4, 0}),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum",
                                      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                                      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                                      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"}));
  EXPECT_EQ(metrics_of({0, 0, 32}),
            (std::vector<std::string>{"dram__bytes_read.sum", "dram__bytes_write.sum",
                                      "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
                                      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
                                      "smsp__inst_executed_op_shared_ld.sum",
                                      "smsp__inst_executed_op_shared_st.sum"}));
  EXPECT_EQ(metrics_of({1, 2, 3}).size(), 10u);
}

// The prediction of one variant at one point, through the plan as every front end makes it.
std::optional<Prediction> predict(
    const std::string& experiment, const std::string& variant,
    std::vector<std::pair<std::string, std::vector<std::string>>> axes) {
  RunRequest r;
  r.experiments = {experiment};
  r.variants = {variant};
  r.axes = std::move(axes);
  r.quick = true;
  const Plan plan = make_plan(r);
  const PlannedPoint& point = plan.experiments.at(0).points.at(0);
  const Variant* v = point.variants.at(0).variant;
  PredictContext h200;  // what the runner passes on an H200 (device-aware models need it)
  h200.memcpy_gbps = 4227;
  h200.sm_count = 132;
  h200.sm_clock_mhz = 1980;
  h200.max_threads_per_sm = 2048;
  return predict_variant(*v, point.params, h200);
}

ModelCounters model_counters(const std::optional<Prediction>& p) {
  if (!p) return {};
  return {p->dram_bytes, p->sectors_per_request, p->wavefronts_per_request};
}

TEST(CounterSelection, PerLesson) {
  // coalescing: 4-byte elements 4 apart -> 16 B per lane, 512 B per warp: 16 sectors.
  auto c = predict("coalescing", "strided_read", {{"elem", {"4"}}, {"stride", {"4"}}});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->sectors_per_request, 16.0);
  EXPECT_EQ(metrics_of(model_counters(c)).size(), 6u);
  c = predict("coalescing", "strided_read", {{"elem", {"4"}}, {"stride", {"1"}}});
  EXPECT_EQ(c->sectors_per_request, 4.0);
  // bank_conflicts: the column of a 32 x 32 tile is one bank: 32 wavefronts per access.
  auto b = predict("bank_conflicts", "col_32x32", {{"word", {"4"}}, {"op", {"read"}}});
  ASSERT_TRUE(b);
  EXPECT_EQ(b->wavefronts_per_request, 32.0);
  EXPECT_EQ(predict("bank_conflicts", "col_32x33", {{"word", {"4"}}, {"op", {"read"}}})
                ->wavefronts_per_request,
            1.0);
  EXPECT_EQ(metrics_of(model_counters(b)).size(), 6u);
  EXPECT_EQ(metrics_of(model_counters(b))[2], "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
  // bandwidth: DRAM bytes only (its streaming model predicts nothing per request).
  const auto s = predict("bandwidth", "elem_f4", {});
  ASSERT_TRUE(s);
  EXPECT_GT(s->dram_bytes, 0);
  EXPECT_EQ(metrics_of(model_counters(s)), metrics_of({}));
}

TEST(CounterMerge, DerivedFiguresAndRatios) {
  const std::vector<Counter> all = select_counters({1, 1, 1});
  // read, write, ld sectors, ld requests, st sectors, st requests, wavefronts, conflicts, LDS, STS
  const std::vector<double> v = {3e9, 1e9, 1600, 100, 400, 100, 3300, 3100, 90, 10};
  const CounterRecord r = merge_counters(all, v, 5, {4e9 / 1.25, 16, 32}, 2e9);
  EXPECT_EQ(r.passes, 5);
  ASSERT_EQ(r.metrics.size(), 10u);
  EXPECT_EQ(r.metrics[0].first, "dram__bytes_read.sum");
  EXPECT_EQ(r.metrics[9].second, 10);
  EXPECT_DOUBLE_EQ(*r.dram_bytes, 4e9);
  EXPECT_DOUBLE_EQ(*r.dram_ratio, 1.25);  // against the model, not the useful bytes
  EXPECT_DOUBLE_EQ(*r.sectors_per_load_request, 16);
  EXPECT_DOUBLE_EQ(*r.sectors_ratio, 1.0);
  EXPECT_DOUBLE_EQ(*r.sectors_per_store_request, 4);
  EXPECT_DOUBLE_EQ(*r.wavefronts_per_shared_access, 33);
  EXPECT_DOUBLE_EQ(*r.wavefronts_ratio, 33.0 / 32.0);
  EXPECT_DOUBLE_EQ(*r.bank_conflicts, 3100);

  // No model DRAM bytes: the useful bytes are the reference.
  const CounterRecord u = merge_counters(select_counters({}), {1.5e9, 0.5e9}, 1, {}, 1e9);
  EXPECT_DOUBLE_EQ(*u.dram_ratio, 2.0);
  EXPECT_FALSE(u.sectors_per_load_request);
  EXPECT_FALSE(u.wavefronts_per_shared_access);
  EXPECT_EQ(format_counters(u), "DRAM 2 GB (useful 1 GB, 2.00x)");

  // A NaN, a negative value and a zero divisor leave their figures out.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const CounterRecord bad =
      merge_counters(select_counters({0, 4, 0}), {nan, 1e6, 100, 0, -5, 10}, 1, {0, 4, 0}, 0);
  EXPECT_FALSE(bad.dram_bytes);
  EXPECT_FALSE(bad.dram_ratio);
  EXPECT_FALSE(bad.sectors_per_load_request);
  EXPECT_FALSE(bad.sectors_per_store_request);
  EXPECT_EQ(format_counters(bad), "no counter values");

  EXPECT_THROW(merge_counters(select_counters({}), {1.0}, 1, {}, 0), std::logic_error);
}

// Issue 19 #7: 16 MiB in, a 32 MiB working set in a 60 MiB L2 read 0.51x the model's DRAM bytes;
// such a record is judged in the L2 view (sectors), says so, and carries no DRAM ratio.
TEST(CounterMerge, ViewFollowsTheWorkingSetAgainstTheL2) {
  const std::vector<double> v = {8.5e6, 0.1e6, 4e6, 1e6, 4e6, 1e6};  // DRAM r, w; load, store
  CounterRecord in_l2 = merge_counters(select_counters({1.68e7, 4, 0}), v, 2, {1.68e7, 4, 0}, 0);
  ASSERT_TRUE(in_l2.dram_ratio);
  set_counter_view(in_l2, 33554432.0, 62914560.0);
  EXPECT_EQ(in_l2.view, "l2");
  EXPECT_FALSE(in_l2.dram_ratio);
  EXPECT_DOUBLE_EQ(*in_l2.sectors_ratio, 1.0);
  EXPECT_NE(in_l2.view_reason.find("fits in the"), std::string::npos) << in_l2.view_reason;
  EXPECT_NE(format_counters(in_l2).find("working set in the L2: not compared"), std::string::npos)
      << format_counters(in_l2);
  CounterRecord beyond = merge_counters(select_counters({1.68e7, 4, 0}), v, 2, {1.68e7, 4, 0}, 0);
  set_counter_view(beyond, 536870912.0, 62914560.0);
  EXPECT_EQ(beyond.view, "dram");
  EXPECT_TRUE(beyond.dram_ratio);
}

TEST(CounterMerge, TableLine) {
  const CounterRecord r = merge_counters(select_counters({0, 4, 0}),
                                         {1.07e9, 0, 4.2e7, 1e7, 4e6, 1e6}, 3, {1.07e9, 4, 0}, 0);
  EXPECT_EQ(format_counters(r),
            "DRAM 1.07 GB (model 1.07 GB, 1.00x); 4.20 sectors/load request (model 4); "
            "4.00 sectors/store request");
}

RunReport report_with(std::optional<CounterRecord> counters, std::string status) {
  RunReport report;
  report.context.counters = std::move(status);
  Record r;
  r.experiment = "coalescing";
  r.variant = "strided_read";
  r.params = {{"elem", "4"}, {"stride", "4"}};
  r.verified = true;
  r.timed = true;
  r.stats.median = 1.0;
  r.stats.values = {1.0};
  r.stats.samples = 1;
  r.counters = std::move(counters);
  report.records.push_back(r);
  return report;
}

TEST(CounterReport, JsonKeysBesideThePredictionAndOnlyWhenCollected) {
  const CounterRecord c = merge_counters(select_counters({0, 16, 0}),
                                         {4.2e9, 1e3, 1.6e8, 1e7, 0, 0}, 2, {4.3e9, 16, 0}, 1e9);
  const nlohmann::json j = nlohmann::json::parse(report::render_json(report_with(c, "collected")));
  EXPECT_EQ(j["context"]["counters"], "collected");
  const nlohmann::json& rec = j["records"][0]["counters"];
  EXPECT_EQ(rec["metrics"]["dram__bytes_read.sum"], 4.2e9);
  EXPECT_EQ(rec["metrics"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"], 1e7);
  EXPECT_EQ(rec["passes"], 2);
  EXPECT_DOUBLE_EQ(rec["dram_bytes"].get<double>(), 4.2e9 + 1e3);
  EXPECT_DOUBLE_EQ(rec["sectors_per_load_request"].get<double>(), 16.0);
  EXPECT_FALSE(rec.contains("sectors_per_store_request"));  // 0 requests: no figure
  EXPECT_EQ(rec["predicted"]["sectors_per_request"], 16.0);
  EXPECT_FALSE(rec["predicted"].contains("wavefronts_per_request"));
  EXPECT_DOUBLE_EQ(rec["dram_over_predicted"].get<double>(), (4.2e9 + 1e3) / 4.3e9);
  EXPECT_DOUBLE_EQ(rec["sectors_over_predicted"].get<double>(), 1.0);
  const std::string table = report::render_table(report_with(c, "collected"), false);
  EXPECT_NE(table.find("strided_read elem=4 stride=4: counters: DRAM 4.2 GB (model 4.3 GB, "
                       "0.98x); 16.00 sectors/load request (model 16)"),
            std::string::npos)
      << table;

  // Without --counters: no new keys (records stay as before).
  const nlohmann::json plain = nlohmann::json::parse(report::render_json(report_with({}, "")));
  EXPECT_FALSE(plain["context"].contains("counters"));
  EXPECT_FALSE(plain["records"][0].contains("counters"));
  EXPECT_EQ(report::render_table(report_with({}, ""), false).find("counters"), std::string::npos);
}

TEST(CounterReport, CompareIgnoresTheCounterKeys) {
  const CounterRecord c = merge_counters(select_counters({}), {1e9, 1e9}, 1, {2e9, 0, 0}, 2e9);
  const std::string with = report::render_json(report_with(c, "collected"));
  const std::string without = report::render_json(report_with({}, ""));
  const report::CompareResult r = report::compare_reports(with, without, 0.05);
  ASSERT_EQ(r.rows.size(), 1u);
}

TEST(Cupti, LibrarySearchHonoursTheEnvironment) {
  ::setenv("MEMLAB_CUPTI_LIBRARY", "/nonexistent/libcupti.so", 1);
  EXPECT_EQ(cupti_library_candidates(), (std::vector<std::string>{"/nonexistent/libcupti.so"}));
  ::unsetenv("MEMLAB_CUPTI_LIBRARY");
  const std::vector<std::string> c = cupti_library_candidates();
  ASSERT_GE(c.size(), 4u);
  EXPECT_EQ(c[0], "libcupti.so.13");
  EXPECT_NE(std::find(c.begin(), c.end(), "/usr/local/cuda/extras/CUPTI/lib64/libcupti.so"),
            c.end());
  EXPECT_NE(std::find(c.begin(), c.end(), "/usr/local/cuda/lib64/libcupti.so.13"), c.end());
}

// Every metric memlab asks for exists on the H200's chip (GH100), and all of them fit in a few
// replays: CUPTI's host API answers without a GPU.
TEST(Cupti, EveryMetricExistsOnGH100) {
  if (const std::string why = cupti_load_error(); !why.empty()) {
    GTEST_SKIP() << "libcupti not here: " << why;
  }
  std::vector<std::string> all;
  for (const CounterInfo& i : kCounters) all.emplace_back(i.metric);
  int passes = 0;
  EXPECT_EQ(check_metric_names("GH100", all, &passes), "");
  EXPECT_GE(passes, 1);
  EXPECT_LE(passes, 8);
  const std::string bad = check_metric_names("GH100", {"dram__bytes_nonsense.sum"}, nullptr);
  EXPECT_NE(bad.find("dram__bytes_nonsense.sum"), std::string::npos) << bad;
}

using testing_cli::memlab;

// The library cannot be opened: one line naming it, and the run goes on (exit 0 with a GPU and
// records without counters; here, without a GPU, the plan and exit 3 as for any run).
TEST(CountersCli, UnavailableSaysSoOnceAndCarriesOn) {
  const std::filesystem::path json =
      std::filesystem::temp_directory_path() / "memlab_counters_unavailable.json";
  std::filesystem::remove(json);
  const std::string cmd = "env MEMLAB_CUPTI_LIBRARY=/nonexistent/libcupti.so " +
                          std::string(MEMLAB_BINARY) + " run coalescing -a elem=4 -a stride=1,2 " +
                          "--quick --counters --json " + json.string() + " 2>&1";
  testing_cli::Result u;
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), static_cast<int>(buf.size()), pipe) != nullptr) u.out += buf.data();
  const int status = pclose(pipe);
  u.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  const std::string line =
      "memlab: --counters: unavailable (MEMLAB_CUPTI_LIBRARY=/nonexistent/libcupti.so: ";
  const auto first = u.out.find(line);
  ASSERT_NE(first, std::string::npos) << u.out;
  EXPECT_EQ(u.out.find(line, first + 1), std::string::npos) << "said twice:\n" << u.out;
  const std::string said = u.out.substr(first, u.out.find('\n', first) - first);
  EXPECT_NE(said.find("); carrying on without counters"), std::string::npos) << said;
  std::string why;
  if (device_count_or_zero(&why) == 0) {
    EXPECT_EQ(u.code, 3) << u.out;  // no CUDA device: the plan only, as without --counters
    EXPECT_NE(u.out.find("plan (verification and timing need a GPU)"), std::string::npos);
    return;
  }
  EXPECT_EQ(u.code, 0) << u.out;
  std::ifstream in(json);
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j["context"]["counters"].get<std::string>().rfind("unavailable: ", 0), 0u);
  ASSERT_FALSE(j["records"].empty());
  for (const nlohmann::json& rec : j["records"]) EXPECT_FALSE(rec.contains("counters"));
}

TEST(CountersCli, BadInput) {
  // A flag: a value is not accepted.
  const testing_cli::Result r = memlab("run bandwidth --counters=maybe");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("--counters"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace memlab::bench
