// The lessons' declarations (docs/lessons-json.md): every registered lesson declares plots whose
// fields name its axes and known record figures; variants declare the axes they apply to, so the
// default plan holds no point a variant never runs at; the lessons block of a run's JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/report/headline.hpp"
#include "memlab/report/lessons.hpp"

namespace memlab::bench {
namespace {

bool is_axis(const Experiment& e, const std::string& name) {
  return std::any_of(e.axes.begin(), e.axes.end(),
                     [&](const AxisSpec& a) { return a.name == name; });
}

// y fields: a record key, median_ms, speedup, slowdown, figure:NAME, counter:NAME, extra:NAME.
bool known_y(const std::string& field) {
  static const std::set<std::string> keys = {
      "gbps",          "gflops",    "pct_memcpy", "pct_peak_bandwidth",
      "pct_fp32_peak", "median_ms", "speedup",    "slowdown"};
  if (keys.count(field) != 0) return true;
  for (const char* prefix : {"figure:", "counter:", "extra:"}) {
    const std::string p = prefix;
    if (field.size() > p.size() && field.compare(0, p.size(), p) == 0) return true;
  }
  return false;
}

TEST(LessonDeclarations, EveryLessonDeclaresPlotsOverItsOwnAxesAndKnownFigures) {
  static const std::set<std::string> refs = {"memcpy",   "peak_bandwidth", "peak_fp32", "l1_bytes",
                                             "l2_bytes", "vendor",         "baseline",  "findings"};
  ASSERT_GE(experiments().size(), 29u);
  for (const Experiment& e : experiments()) {
    if (e.name.rfind("zz_", 0) == 0) continue;  // the tests' own experiments
    EXPECT_FALSE(e.plots.empty()) << e.name << " declares no plot";
    std::set<std::string> ids;
    for (const Plot& p : e.plots) {
      const std::string at = e.name + " plot " + p.id;
      EXPECT_TRUE(ids.insert(p.id).second) << at << ": id given twice";
      EXPECT_FALSE(p.title.empty()) << at;
      const bool special_x = (p.kind == PlotKind::Roofline && p.x.field == "intensity") ||
                             (p.kind == PlotKind::Gantt && p.x.field == "time");
      EXPECT_TRUE(special_x || p.x.field == "variant" || is_axis(e, p.x.field))
          << at << ": x " << p.x.field << " is not an axis";
      EXPECT_TRUE(known_y(p.y.field)) << at << ": y " << p.y.field;
      EXPECT_TRUE(p.series.empty() || p.series == "variant" || is_axis(e, p.series))
          << at << ": series " << p.series;
      EXPECT_TRUE(p.facet.empty() || p.facet == "variant" || is_axis(e, p.facet))
          << at << ": facet " << p.facet;
      for (const auto& [axis, value] : p.where) {
        EXPECT_TRUE(is_axis(e, axis)) << at << ": where " << axis;
      }
      for (const std::string& v : p.variants) {
        EXPECT_NE(e.find_variant(v), nullptr) << at << ": no variant " << v;
      }
      for (const std::string& r : p.references) EXPECT_EQ(refs.count(r), 1u) << at << ": " << r;
      for (const std::string& s : p.stack) EXPECT_TRUE(known_y(s)) << at << ": stack " << s;
      EXPECT_EQ(p.kind == PlotKind::Stacked, !p.stack.empty()) << at << ": stack and kind";
      if (p.kind == PlotKind::Heatmap) {
        EXPECT_TRUE(is_axis(e, p.heat.row) && is_axis(e, p.heat.col)) << at << ": heat";
      }
    }
    for (const std::string& v : e.vendor) {
      EXPECT_NE(e.find_variant(v), nullptr) << e.name << ": vendor " << v;
    }
  }
}

// Issue 23, round five: transpose's tile_swap and tile_swap128 (not transposes: its address stream
// without the shared tile) are reference lines beside copy, so the headline's best stays the best
// transpose even when a swap outruns it, and the vendor figure is the fastest reference line.
// Round six adds tile_swap_pipe (tile_swap persistent and pipelined), a reference line as well;
// round six b tile_swap_g32 (the G = 32 raster) and tile_copy (a copy through tile64_f4's launch),
// and cublas (cublasSgeam), the vendor line proper; round seven tile_mirror (tile64_s_full's
// kernel with a row-wise shared read, writing the swap): none of them is the lesson's best.
TEST(LessonDeclarations, TransposeReferenceLinesStayOutOfItsBest) {
  const Experiment* t = find_experiment("transpose");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->vendor,
            (std::vector<std::string>{"copy", "tile_swap", "tile_swap128", "tile_swap_pipe",
                                      "tile_swap_g32", "tile_copy", "tile_mirror", "cublas"}));
  for (const char* v : {"tile_swap", "tile_swap128", "tile_swap_pipe", "tile_swap_g32", "tile_copy",
                        "tile_mirror", "cublas"}) {
    ASSERT_NE(t->find_variant(v), nullptr) << v;
    EXPECT_TRUE(t->find_variant(v)->opt_in.empty()) << v;
  }
  auto rec = [](const char* variant, double gbps) {
    return nlohmann::json{{"experiment", "transpose"},
                          {"variant", variant},
                          {"params", {{"rows", "16384"}, {"cols", "16384"}}},
                          {"status", "timed"},
                          {"gbps", gbps}};
  };
  const nlohmann::json run = {
      {"schema_version", 1},
      {"context", nlohmann::json::object()},
      {"records",
       {rec("tile64_f4", 3871), rec("tma", 3600), rec("tile_swap", 4000), rec("tile_swap128", 4100),
        rec("tile_swap_pipe", 4150), rec("tile64_f4_pipe", 3800), rec("tile64_f4_g32", 3880),
        rec("tile_swap_g32", 4100), rec("tile_copy", 4190), rec("tile_mirror", 4150),
        rec("cublas", 3700), rec("copy", 4197)}}};
  const nlohmann::json h = report::lesson_headline(run, "transpose", t->baseline, t->vendor);
  EXPECT_EQ(h.at("best").at("variant"), "tile64_f4_g32");
  EXPECT_EQ(h.at("vendor").at("variant"), "copy");
  EXPECT_NEAR(h.at("pct_vendor").get<double>(), 100.0 * 3880 / 4197, 1e-9);
  // A reference line faster than copy is the vendor figure, never the best.
  const nlohmann::json run2 = {
      {"schema_version", 1},
      {"context", nlohmann::json::object()},
      {"records", {rec("tile64_f4", 3871), rec("tile_copy", 4250), rec("copy", 4197)}}};
  const nlohmann::json h2 = report::lesson_headline(run2, "transpose", t->baseline, t->vendor);
  EXPECT_EQ(h2.at("best").at("variant"), "tile64_f4");
  EXPECT_EQ(h2.at("vendor").at("variant"), "tile_copy");
}

// issue 19 #10: the default suite's plan crosses each variant only with its own points. Before,
// bank_conflicts' fixed patterns stood at every stride (96 skipped records of one run).
TEST(LessonDeclarations, TheDefaultPlanHoldsOnlyPointsWhereEachVariantApplies) {
  RunRequest r;
  r.seed = 1;
  const Plan plan = make_plan(r);
  std::map<std::string, std::size_t> points;  // "lesson variant" -> points
  for (const ExperimentPlan& ep : plan.experiments) {
    for (const PlannedPoint& point : ep.points) {
      EXPECT_FALSE(point.variants.empty()) << ep.experiment->name << " " << point.params.label();
      for (const PlannedVariant& pv : point.variants) {
        EXPECT_TRUE(pv.variant->applies_to(point.params))
            << ep.experiment->name << " " << pv.variant->name << " " << point.params.label();
        ++points[ep.experiment->name + " " + pv.variant->name];
      }
    }
  }
  EXPECT_EQ(points["bank_conflicts broadcast"], 2u);  // op=read stride=1, word 4 and 8
  EXPECT_EQ(points["bank_conflicts col_32x33"], 2u);
  EXPECT_EQ(points["bank_conflicts strided"], 32u);  // 2 ops x 2 words x 8 strides
  EXPECT_EQ(points["conv2d separable"], 2u);         // separable=yes, 2 masks
  EXPECT_EQ(points["conv2d naive"], 2u);             // separable=no
  EXPECT_EQ(points["hierarchy chase_shared"], 2u);   // ws <= 32 KiB: 16, 32 KiB
  EXPECT_EQ(points["hierarchy read_cg"], 14u);       // ws >= 1 MiB of the 20-point sweep
  EXPECT_EQ(points["bandwidth cudaMemcpy"], 1u);     // op=copy
  EXPECT_EQ(points["syncthreads tiled_sync"], 1u);   // block=256
  EXPECT_EQ(points["streams pageable"], 2u);         // streams=4, 2 segment counts
  const nlohmann::json j = nlohmann::json::parse(render_plan_json(describe(plan)));
  for (const auto& e : j.at("experiments")) {
    for (const auto& point : e.at("points")) {
      for (const auto& v : point.at("variants")) EXPECT_EQ(v.at("status"), "planned");
    }
  }
}

TEST(LessonDeclarations, ListAndLessonsJsonCarryAxesPlotsAndFindings) {
  const Experiment* bank = find_experiment("bank_conflicts");
  ASSERT_NE(bank, nullptr);
  const nlohmann::json decl = report::lesson_declaration(*bank);
  bool found = false;
  for (const auto& v : decl.at("variants")) {
    if (v.at("name") != "broadcast") continue;
    found = true;
    EXPECT_EQ(v.at("axes").at("stride"), nlohmann::json::array({"1"}));
    EXPECT_EQ(v.at("axes").at("op"), nlohmann::json::array({"read"}));
    EXPECT_NE(v.at("only").get<std::string>().find("fixed read pattern"), std::string::npos);
  }
  EXPECT_TRUE(found);
  const nlohmann::json hier = report::lesson_declaration(*find_experiment("hierarchy"));
  for (const auto& v : hier.at("variants")) {
    if (v.at("name") == "chase_shared") {
      EXPECT_EQ(v.at("axes").at("ws").at("max"), 32768);
    }
    if (v.at("name") == "read_cg") {
      EXPECT_EQ(v.at("axes").at("ws").at("min"), 1048576);
    }
  }
  EXPECT_EQ(hier.at("plots").at(0).at("id"), "latency");
  EXPECT_EQ(hier.at("plots").at(0).at("x").at("field"), "ws");
  EXPECT_TRUE(hier.at("plots").at(0).at("x").at("log").get<bool>());

  // A stored run of schema 1 (no lessons): declarations from today's catalogue, findings from
  // its records (bandwidth's hook: the fastest kernel per op), unknown lessons left out.
  auto rec = [](const char* variant, const char* op, double gbps) {
    return nlohmann::json{{"experiment", "bandwidth"},
                          {"variant", variant},
                          {"params", {{"op", op}, {"n", "1024"}}},
                          {"status", "timed"},
                          {"gbps", gbps}};
  };
  nlohmann::json run = {{"schema_version", 1},
                        {"context", nlohmann::json::object()},
                        {"records",
                         {rec("elem_f1", "copy", 3000),
                          rec("elem_f4", "copy", 3500),
                          rec("cudaMemcpy", "copy", 3900),
                          {{"experiment", "retired_lesson"}, {"variant", "x"}}}}};
  report::with_lessons(run);
  ASSERT_TRUE(run.contains("lessons"));
  const auto& lessons = run.at("lessons");
  EXPECT_FALSE(lessons.contains("retired_lesson"));
  const auto& bw = lessons.at("bandwidth");
  EXPECT_EQ(bw.at("baseline"), "elem_f1");
  EXPECT_EQ(bw.at("vendor"), nlohmann::json::array({"cudaMemcpy", "cudaMemset"}));
  EXPECT_FALSE(bw.at("plots").empty());
  ASSERT_EQ(bw.at("findings").size(), 1u);
  EXPECT_EQ(bw.at("findings").at(0).at("key"), "best.copy");
  EXPECT_DOUBLE_EQ(bw.at("findings").at(0).at("value").get<double>(), 3500.0);
  // hierarchy's hook (issue 19 #5): the levels of the 12-01 sweep, by key.
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) +
                  "/docs/results/h200-2026-12-01-hierarchy-sweep.json");
  ASSERT_TRUE(f.good());
  nlohmann::json sweep = nlohmann::json::parse(f);
  report::with_lessons(sweep);
  std::map<std::string, double> level;
  for (const auto& x : sweep.at("lessons").at("hierarchy").at("findings")) {
    level[x.at("key").get<std::string>()] = x.at("value").get<double>();
  }
  EXPECT_NEAR(level.at("level.L1"), 41.0, 0.1);
  EXPECT_NEAR(level.at("level.L2"), 290.4, 0.1);
  EXPECT_NEAR(level.at("level.L2_far"), 343.2, 0.1);
  EXPECT_NEAR(level.at("level.HBM"), 664.9, 0.1);
  EXPECT_EQ(level.count("level.TLB"), 0u);
  // A run's own block stays as it is.
  nlohmann::json own = {{"records", nlohmann::json::array()}, {"lessons", {{"x", 1}}}};
  report::with_lessons(own);
  EXPECT_EQ(own.at("lessons"), (nlohmann::json{{"x", 1}}));
}

}  // namespace
}  // namespace memlab::bench
