// Run planning without a device: validation (the option named as typed), duplicates, footprints
// evaluated once per point, each variant only at the points it applies to (never a planned skip),
// memory and ceiling sizing, the context, and the plan as text and JSON.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/common/error.hpp"

namespace memlab::bench {
namespace {

struct Dummy {
  int n = 0;
};

int footprint_calls = 0;

// Two axes (n: 4, 8; op: copy, scale), three variants: `plain` everywhere, `memcpy` only at
// op=copy (an axis declaration), `big` only at n > 4 (an only_if), and a device condition.
const Experiment& planned() {
  static const bool registered = [] {
    ExperimentBuilder<Dummy> b("zz_plan", "a planning test");
    b.bytes_convention("n x 8 bytes")
        .int_axis("n", {"4", "8"}, {"4"}, 1, 1 << 20, "size")
        .choice_axis("op", {"copy", "scale"}, {"copy", "scale"}, {"copy"}, "operation")
        .bytes([](const Params& p) { return 8.0 * static_cast<double>(p.n("n")); })
        .footprint([](const Params& p) {
          ++footprint_calls;
          return 16.0 * static_cast<double>(p.n("n"));
        })
        .validate([](const Params& p) {
          if (p.n("n") == 7) throw UsageError("axis n: 7 is unlucky; accepted: not 7");
        })
        .setup([](const Params& p, std::uint64_t) { return Dummy{static_cast<int>(p.n("n"))}; })
        .variant("plain", "everywhere", [](Dummy&, const Params&, cudaStream_t) {})
        .variant("memcpy", "copies only", [](Dummy&, const Params&, cudaStream_t) {})
        .variant_axis("op", {"copy"}, "cudaMemcpy only copies")
        .variant_bytes([](const Params& p) { return 2.0 * static_cast<double>(p.n("n")); })
        .variant("big", "large sizes only", [](Dummy&, const Params&, cudaStream_t) {})
        .only_if([](const Params& p) { return p.n("n") > 4; }, "large sizes only")
        .needs_device([](const Params&) { return true; }, "needs a big GPU")
        .predict([](const Params&) -> std::optional<Prediction> {
          Prediction pr;
          pr.model = "streaming: 1 pass";
          pr.dram_bytes = 1;
          return pr;
        })
        .baseline("plain");
    return register_experiment(b.build());
  }();
  (void)registered;
  return *find_experiment("zz_plan");
}

RunRequest request(std::vector<std::string> experiments = {"zz_plan"}) {
  planned();
  RunRequest r;
  r.experiments = std::move(experiments);
  r.seed = 7;
  return r;
}

void expect_usage(const RunRequest& r, const std::string& message) {
  try {
    make_plan(r);
    ADD_FAILURE() << "no UsageError; expected: " << message;
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos)
        << "got: " << e.what() << "\nexpected: " << message;
  }
}

TEST(Plan, CrossesEachVariantOnlyWithThePointsItAppliesTo) {
  const Plan plan = make_plan(request());
  ASSERT_EQ(plan.experiments.size(), 1u);
  const ExperimentPlan& ep = plan.experiments[0];
  EXPECT_EQ(ep.experiment, &planned());
  ASSERT_EQ(ep.points.size(), 4u);
  EXPECT_EQ(ep.points[0].params.label(), "n=4 op=copy");
  EXPECT_EQ(ep.points[3].params.label(), "n=8 op=scale");
  EXPECT_EQ(plan.measurement_count(), 8u);    // of 12 pairs, the 4 that do not apply are absent
  const PlannedPoint& scale4 = ep.points[1];  // n=4 op=scale: memcpy and big are not there
  ASSERT_EQ(scale4.variants.size(), 1u);
  EXPECT_EQ(scale4.variants[0].variant->name, "plain");
  EXPECT_DOUBLE_EQ(scale4.variants[0].bytes, 32.0);
  const PlannedPoint& copy8 = ep.points[2];
  ASSERT_EQ(copy8.variants.size(), 3u);
  EXPECT_EQ(copy8.variants[1].variant->name, "memcpy");
  EXPECT_DOUBLE_EQ(copy8.variants[1].bytes, 16.0);  // the variant's own bytes
  EXPECT_EQ(copy8.variants[2].variant->name, "big");
  ASSERT_EQ(ep.points[3].variants.size(), 2u);  // n=8 op=scale: plain, big
  ASSERT_TRUE(copy8.footprint.has_value());
  EXPECT_DOUBLE_EQ(*copy8.footprint, 128.0);
  EXPECT_EQ(copy8.seed, point_seed(7, "zz_plan", copy8.params));
  EXPECT_NE(copy8.seed, ep.points[3].seed);
}

// The declarations in canonical spelling, checked against the axes when the experiment is built.
using Kv = std::vector<std::pair<std::string, std::string>>;

TEST(Plan, VariantAxesAreCanonicalAndChecked) {
  const Variant* memcpy = planned().find_variant("memcpy");
  ASSERT_NE(memcpy, nullptr);
  ASSERT_EQ(memcpy->axes.size(), 1u);
  EXPECT_EQ(memcpy->axes[0].values, std::vector<std::string>{"copy"});
  EXPECT_EQ(memcpy->only, "cudaMemcpy only copies");
  EXPECT_TRUE(memcpy->applies_to(Params(Kv{{"n", "4"}, {"op", "copy"}})));
  EXPECT_FALSE(memcpy->applies_to(Params(Kv{{"n", "4"}, {"op", "scale"}})));
  ExperimentBuilder<Dummy> b("zz_axes", "declarations");
  b.int_axis("n", {"4"}, {"4"}, 1, 1 << 20, "size")
      .variant("v", "", [](Dummy&, const Params&, cudaStream_t) {})
      .variant_axis("n", {"2^4", "1Ki"})
      .variant_range("n", 8, 2048, "mid sizes");
  const Experiment e = b.build();
  EXPECT_EQ(e.variants[0].axes[0].values, (std::vector<std::string>{"16", "1024"}));
  EXPECT_TRUE(e.variants[0].applies_to(Params(Kv{{"n", "1024"}})));
  EXPECT_FALSE(e.variants[0].applies_to(Params(Kv{{"n", "4096"}})));
  ExperimentBuilder<Dummy> bad("zz_bad", "no such axis");
  bad.int_axis("n", {"4"}, {"4"}, 1, 1 << 20, "size")
      .variant("v", "", [](Dummy&, const Params&, cudaStream_t) {})
      .variant_axis("stride", {"1"});
  EXPECT_THROW(bad.build(), std::logic_error);
}

TEST(Plan, SettingsQuickFilterAndResolvedDefaults) {
  RunRequest r = request();
  r.quick = true;
  r.variants = {"zz_plan:memcpy", "plain"};
  const Plan quick = make_plan(r);
  ASSERT_EQ(quick.experiments[0].points.size(), 1u);  // n=4, op=copy
  ASSERT_EQ(quick.experiments[0].variants.size(), 2u);
  EXPECT_EQ(quick.experiments[0].variants[0]->name, "plain");
  EXPECT_EQ(quick.experiments[0].variants[1]->name, "memcpy");
  EXPECT_DOUBLE_EQ(quick.budget_s, 0.05);
  EXPECT_EQ(quick.seed, 7u);
  r = request();
  EXPECT_DOUBLE_EQ(make_plan(r).budget_s, 0.3);
  r.budget_s = 2.5;
  r.axes = {{"n", {"1Ki", "2^4"}}};
  const Plan p = make_plan(r);
  EXPECT_DOUBLE_EQ(p.budget_s, 2.5);
  EXPECT_EQ(p.experiments[0].points[0].params.label(), "n=1024 op=copy");
  EXPECT_EQ(p.experiments[0].points[2].params.label(), "n=16 op=copy");
  r.seed.reset();
  const Plan a = make_plan(r), b = make_plan(r);
  EXPECT_NE(a.seed, b.seed) << "an unseeded plan draws its seed";
}

TEST(Plan, BadRequestsAreUsageErrorsNamingTheOptionAsTyped) {
  expect_usage(request({"zz_plan", "nosuch"}), "experiment: 'nosuch' is unknown; accepted:");
  expect_usage(request({"zz_plan", "zz_plan"}), "experiment: 'zz_plan' is given twice");
  RunRequest r = request();
  r.variants = {"nosuch"};
  expect_usage(r, "-v/--variants: 'nosuch' is not a variant of the selected experiments");
  r.variants = {"plain", "memcpy", "plain"};
  expect_usage(r, "-v/--variants: 'plain' is given twice");
  r.variants = {"other:plain"};
  expect_usage(r, "-v/--variants: 'other:plain' is not a variant");
  r = request();
  r.axes = {{"m", {"1"}}};
  expect_usage(r, "-a/--axis: 'm' is not an axis of the selected experiments; accepted: n, op");
  r.axes = {{"n", {"4"}}, {"n", {"8"}}};
  expect_usage(r, "-a/--axis: 'n' given twice");
  r.axes = {{"n", {"4", "8", "4"}}};
  expect_usage(r, "-a/--axis: n=4 is given twice");
  r.axes = {{"n", {"1Ki", "16", "2^10"}}};
  expect_usage(r, "-a/--axis: n=2^10 is the same value as n=1Ki (1024)");
  r.axes = {{"op", {"copy", "copy"}}};
  expect_usage(r, "-a/--axis: op=copy is given twice");
  r.axes = {{"n", {"0"}}};
  expect_usage(r, "axis n: 0 is out of range");
  r.axes = {{"n", {"7"}}};
  expect_usage(r, "axis n: 7 is unlucky");  // the experiment's own validate
  r.axes = {{"op", {"mul"}}};
  expect_usage(r, "axis op: 'mul' is not accepted");
  r = request();
  r.min_samples = 3;
  expect_usage(r, "--min-samples: 3 is out of range");
  r = request();
  r.noise = 1.5;
  expect_usage(r, "--noise: 1.5 is out of range");
  r = request();
  r.budget_s = 0;
  expect_usage(r, "--budget: 0 is out of range");
  r = request();
  r.device = -1;
  expect_usage(r, "--device: -1 does not exist");
}

// -v naming a variant that applies at none of the points left: a usage error naming -v and
// where it applies; without -v such a variant is simply not in the plan.
TEST(Plan, AVariantNamedWithNoPointLeftIsAUsageError) {
  RunRequest r = request({"zz_plan"});
  r.variants = {"memcpy"};
  r.axes = {{"op", {"scale"}}};
  expect_usage(r,
               "-v/--variants: 'memcpy' applies at none of the planned points (zz_plan: "
               "cudaMemcpy only copies)");
  r.variants = {"memcpy", "plain"};
  expect_usage(r, "-v/--variants: 'memcpy' applies at none");
  r.variants.clear();
  const Plan plan = make_plan(r);
  ASSERT_EQ(plan.experiments.size(), 1u);
  EXPECT_EQ(plan.experiments[0].variants.size(), 2u);  // plain, big
  EXPECT_EQ(plan.measurement_count(), 3u);             // plain x 2, big at n=8
}

TEST(Plan, FootprintsAreEvaluatedOncePerPoint) {
  const RunRequest r = request();
  footprint_calls = 0;
  const Plan plan = make_plan(r);
  EXPECT_EQ(footprint_calls, 4);
  const PlanDescription d = describe(plan);
  render_plan(d);
  render_plan_json(d);
  check_device_memory(plan, 1e12, 0);
  EXPECT_EQ(footprint_calls, 4) << "the footprint was evaluated again after planning";
  EXPECT_DOUBLE_EQ(d.experiments[0].points[3].footprint.value_or(0), 128.0);
}

TEST(Plan, MemoryCheckAndCeilingSizing) {
  const Plan plan = make_plan(request());
  // The largest point needs 128 B + the flush buffer; 95% of the free memory must hold it.
  EXPECT_NO_THROW(check_device_memory(plan, 1000, 100));
  try {
    check_device_memory(plan, 200, 100);
    ADD_FAILURE() << "no UsageError";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("axis n=8 op=copy of zz_plan: needs 228 B"),
              std::string::npos)
        << e.what();
  }
  constexpr double GiB = 1024.0 * 1024 * 1024;
  EXPECT_EQ(memcpy_ceiling_bytes(100 * GiB, 0.1 * GiB), std::size_t{1} << 30);
  EXPECT_EQ(memcpy_ceiling_bytes(1 * GiB, 0), std::size_t{256} << 20);    // 2 x 256 MiB = half
  EXPECT_EQ(memcpy_ceiling_bytes(0.01 * GiB, 0), std::size_t{64} << 20);  // never below 64 MiB
}

TEST(Plan, ContextIsBuiltFromThePlan) {
  RunRequest r = request();
  r.warm = true;
  r.quick = true;
  const Plan plan = make_plan(r);
  DeviceInfo d;
  d.name = "Test GPU";
  const Context c = make_context(plan, d, "memlab run zz_plan");
  EXPECT_EQ(c.device.name, "Test GPU");
  EXPECT_EQ(c.seed, 7u);
  EXPECT_FALSE(c.cold);
  EXPECT_TRUE(c.quick);
  EXPECT_EQ(c.command_line, "memlab run zz_plan");
  EXPECT_FALSE(c.tool_version.empty());
  ASSERT_EQ(c.date.size(), 20u) << c.date;
  EXPECT_EQ(c.date[10], 'T');
  EXPECT_EQ(c.date.back(), 'Z');
}

TEST(Plan, DescribedAsTextAndJson) {
  const PlanDescription d = describe(make_plan(request()));
  EXPECT_EQ(d.measurements, 8u);
  const std::string text = render_plan(d);
  EXPECT_NE(text.find("  zz_plan: a planning test\n    bytes: n x 8 bytes\n    n=4 op=copy  "
                      "(device memory 64 B)\n      plain                  useful bytes 32 B\n"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("skipped"), std::string::npos) << text;
  EXPECT_NE(text.find("      big                    useful bytes 64 B; model: streaming: 1 pass; "
                      "needs a big GPU\n"),
            std::string::npos)
      << text;
  const auto j = nlohmann::json::parse(render_plan_json(d));
  EXPECT_EQ(j.at("seed"), 7);
  EXPECT_EQ(j.at("measurements"), 8);
  const auto& scale4 = j.at("experiments").at(0).at("points").at(1);
  EXPECT_EQ(scale4.at("params").at("op"), "scale");
  EXPECT_DOUBLE_EQ(scale4.at("footprint_bytes").get<double>(), 64.0);
  EXPECT_EQ(scale4.at("variants").at(0).at("status"), "planned");
  EXPECT_DOUBLE_EQ(scale4.at("variants").at(0).at("bytes").get<double>(), 32.0);
  EXPECT_EQ(scale4.at("variants").size(), 1u);
  EXPECT_FALSE(j.contains("skipped"));
  const auto& copy8 = j.at("experiments").at(0).at("points").at(2);
  EXPECT_EQ(copy8.at("variants").at(2).at("needs"), "needs a big GPU");
}

// An opt-in variant (e.g. a Hopper kernel not yet verified on hardware) stays out of a plan that
// names no variant, also when the experiment is named; -v takes it by its plain or full name.
TEST(Plan, OptInVariantsRunOnlyWhenNamed) {
  static const bool registered = [] {
    ExperimentBuilder<Dummy> b("zz_optin", "an opt-in test");
    b.int_axis("n", {"4"}, {"4"}, 1, 1 << 20, "size")
        .default_suite(false)
        .setup([](const Params& p, std::uint64_t) { return Dummy{static_cast<int>(p.n("n"))}; })
        .variant("proven", "verified", [](Dummy&, const Params&, cudaStream_t) {})
        .variant("fresh", "unproven", [](Dummy&, const Params&, cudaStream_t) {})
        .opt_in("not yet verified on hardware")
        .baseline("proven");
    return register_experiment(b.build());
  }();
  ASSERT_TRUE(registered);
  const Experiment* e = find_experiment("zz_optin");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->variants[1].opt_in, "not yet verified on hardware");
  EXPECT_TRUE(e->variants[0].opt_in.empty());
  RunRequest r = request({"zz_optin"});
  Plan p = make_plan(r);
  ASSERT_EQ(p.experiments.size(), 1u);
  ASSERT_EQ(p.experiments[0].variants.size(), 1u);
  EXPECT_EQ(p.experiments[0].variants[0]->name, "proven");
  EXPECT_EQ(p.measurement_count(), 1u);
  for (const std::string filter : {"fresh", "zz_optin:fresh"}) {
    r.variants = {filter};
    p = make_plan(r);
    ASSERT_EQ(p.experiments[0].variants.size(), 1u) << filter;
    EXPECT_EQ(p.experiments[0].variants[0]->name, "fresh") << filter;
  }
  r.variants = {"fresh", "proven"};
  EXPECT_EQ(make_plan(r).experiments[0].variants.size(), 2u);
}

TEST(Plan, ProgressEventsFormatAsOneLine) {
  EXPECT_EQ(format_progress({ProgressEvent::Stage::Measure, "bandwidth", "elem_f1", "n=4", 3, 12}),
            "bandwidth elem_f1 n=4 (3/12)");
  EXPECT_EQ(format_progress({ProgressEvent::Stage::Setup, "bandwidth", "", "n=4", 0, 12}),
            "bandwidth n=4: setting up");
  EXPECT_EQ(format_progress({ProgressEvent::Stage::Ceiling, "", "", "", 0, 12}),
            "measuring the cudaMemcpy ceiling");
}

}  // namespace
}  // namespace memlab::bench
