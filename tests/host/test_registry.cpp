#include <gtest/gtest.h>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/verify.hpp"

namespace memlab::bench {
namespace {

struct Dummy {
  int value = 0;
};

Experiment dummy(const std::string& name, const std::string& baseline) {
  ExperimentBuilder<Dummy> b(name, "a test experiment");
  b.int_axis("n", {"4"}, {}, 1, 100, "size")
      .setup([](const Params& p, std::uint64_t) { return Dummy{static_cast<int>(p.n("n"))}; })
      .variant("a", "first", [](Dummy& d, const Params&, cudaStream_t) { d.value += 1; })
      .variant("b", "second", [](Dummy& d, const Params&, cudaStream_t) { d.value += 2; })
      .only_if([](const Params& p) { return p.n("n") > 2; }, "n > 2 only")
      .baseline(baseline);
  return b.build();
}

TEST(Registry, RegistersFindsAndRunsTypedVariants) {
  ASSERT_TRUE(register_experiment(dummy("zz_registry_test", "a")));
  const Experiment* e = find_experiment("zz_registry_test");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->variants.size(), 2u);
  EXPECT_EQ(find_experiment("no_such_experiment"), nullptr);
  const Params p(std::vector<std::pair<std::string, std::string>>{{"n", "4"}});
  auto inst = e->setup(p, 0);
  e->find_variant("b")->run(*inst, p, nullptr);
  e->find_variant("a")->run(*inst, p, nullptr);
  EXPECT_EQ(ExperimentBuilder<Dummy>::get(*inst).value, 7);
  const Params two(std::vector<std::pair<std::string, std::string>>{{"n", "2"}});
  EXPECT_TRUE(e->find_variant("b")->applies_to(p));
  EXPECT_FALSE(e->find_variant("b")->applies_to(two));
  EXPECT_TRUE(e->find_variant("a")->applies_to(two));
}

TEST(Registry, DuplicateNamesAndUnknownBaselinesAreRejected) {
  ASSERT_TRUE(register_experiment(dummy("zz_registry_dup", "a")));
  EXPECT_THROW(register_experiment(dummy("zz_registry_dup", "a")), std::logic_error);
  EXPECT_THROW(register_experiment(dummy("zz_registry_bad_baseline", "nope")), std::logic_error);
}

TEST(Verify, ExactCheckCountsMismatchesAndShowsTheFirst) {
  const int got[] = {1, 2, 3, 9, 5};
  const int want[] = {1, 2, 3, 4, 5};
  const Check c = check_exact(got, want, 5);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.error, 1.0);
  EXPECT_NE(c.detail.find("[3]"), std::string::npos) << c.detail;
  EXPECT_TRUE(check_exact(want, want, 5).ok);
}

TEST(Verify, RelativeL2CatchesErrorsAndNaN) {
  const float want[] = {1.0f, -2.0f, 3.0f};
  const float close[] = {1.0f, -2.0f, 3.000001f};
  EXPECT_TRUE(check_rel_l2(close, want, 3, 1e-5).ok);
  const float far[] = {1.0f, -2.0f, 3.1f};
  const Check c = check_rel_l2(far, want, 3, 1e-5);
  EXPECT_FALSE(c.ok);
  EXPECT_NEAR(c.error, 0.1 / std::sqrt(14.0), 1e-6);
  const float nan[] = {1.0f, NAN, 3.0f};
  const Check n = check_rel_l2(nan, want, 3, 1.0);
  EXPECT_FALSE(n.ok);
  EXPECT_NE(n.detail.find("not finite"), std::string::npos);
}

}  // namespace
}  // namespace memlab::bench

#include "memlab/bench/verify_parallel.hpp"

namespace memlab::bench {
namespace {

TEST(Verify, GeneratedReferenceOnAllCoresFindsEveryMismatchInOrder) {
  std::vector<int> got(1 << 20);
  for (std::size_t i = 0; i < got.size(); ++i) got[i] = static_cast<int>(3 * i);
  auto want = [](std::size_t i) { return static_cast<int>(3 * i); };
  EXPECT_TRUE(check_exact_generated(got.data(), got.size(), want).ok);
  got[900000] = -1;
  got[7] = -2;
  got[123456] = -3;
  const Check c = check_exact_generated(got.data(), got.size(), want);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.error, 3.0);
  EXPECT_EQ(c.detail.rfind("3 of 1048576 differ; [7]", 0), 0u) << c.detail;
  EXPECT_LT(c.detail.find("[123456]"), c.detail.find("[900000]")) << c.detail;
}

}  // namespace
}  // namespace memlab::bench
