// Issue 16's Hopper variants not yet verified on a GPU are registered but opt-in: a default run (or
// `memlab run LESSON`) leaves them out, `-v` takes them, `memlab list` says why; where they cannot
// run (TMA strides, op, dtype) the plan skips them with a reason. No device is needed: the plan is
// host-side.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "cli_runner.hpp"
#include "common/hopper.hpp"
#include "conv2d/kernels_hopper.cuh"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"

namespace memlab::bench {
namespace {

using Kv = std::vector<std::pair<std::string, std::string>>;

struct Named {
  const char* lesson;
  const char* variant;
};
// Empty since issue 23: tensor_cores wgmma passed every test point on the H200.
const std::vector<Named> kHopper = {};
// Issue 19: conv2d's boxes start on 16 bytes (Conv2dBoxesStartOn16Bytes); on the H200 (2026-12-01,
// verify.sh tests sanitize) both pass every test point, memcheck 0 errors, racecheck 0 hazards:
// they are in every plan. transpose tma, bandwidth bulk_copy, smem_reverse bulk, matmul cp_async
// and tma passed on the H200 in round three; issue 23's new variants are in every plan from the
// start (the GPU test checks them at every test point).
const Named kVerified[] = {{"conv2d", "tma"},
                           {"conv2d", "cluster"},
                           {"transpose", "tma"},
                           {"transpose", "tma_pipelined"},
                           {"transpose", "tma_pipelined_many"},
                           {"transpose", "tma_ws"},
                           {"bandwidth", "bulk_copy"},
                           {"bandwidth", "bulk_ring"},
                           {"bandwidth", "bulk_ring_hint"},
                           {"bandwidth", "bulk_ring_many"},
                           {"smem_reverse", "bulk"},
                           {"smem_reverse", "bulk_pipelined"},
                           {"smem_reverse", "bulk_pipelined_many"},
                           {"matmul", "cp_async"},
                           {"matmul", "tma"},
                           {"matmul", "thread_tile_bk16"},
                           {"tensor_cores", "wgmma"},
                           {"tensor_cores", "wgmma_cluster"},
                           {"tensor_cores", "wgmma_tma_store"},
                           {"tensor_cores", "wgmma_cluster_persistent"},
                           {"matmul", "thread_tile_256x128"},
                           {"histogram", "per_lane_lean"},
                           {"histogram", "per_lane_deep"},
                           {"histogram", "per_lane_early"},
                           {"histogram", "per_lane_early6"},
                           {"matmul", "thread_tile_8x16_db"},
                           {"matmul", "thread_tile_8x16_sk"},
                           {"matmul", "thread_tile_8x16_tail"},
                           {"conv2d", "register_strip"},
                           {"conv2d", "register_strip_ld"},
                           {"conv2d", "register_strip_wide"},
                           {"conv2d", "register_deep3"},
                           {"conv2d", "register_deep12"},
                           {"conv2d", "register_deep_shfl"},
                           {"conv2d", "register_deep_l2p"},
                           {"conv2d", "smem_ring"},
                           {"conv2d", "smem_ring_wave"},
                           {"transpose", "tile128_f4"},
                           {"transpose", "tile_swap"},
                           {"transpose", "tile_swap128"},
                           {"transpose", "tile_swap_pipe"},
                           {"transpose", "tile64_f4_pipe"},
                           {"transpose", "tile64_f4_g32"},
                           {"transpose", "tile_swap_g32"},
                           {"transpose", "tile_copy"},
                           {"transpose", "tile64_s"},
                           {"transpose", "tile64_s_full"},
                           {"transpose", "tile64_s_rows"},
                           {"transpose", "tile64_s_rows32"},
                           {"transpose", "tile64_s_col"},
                           {"transpose", "tile64_s_l2p"},
                           {"transpose", "tile64_s_col_l2p"},
                           {"transpose", "tile_mirror"},
                           {"smem_reverse", "global_f4"}};

bool planned(const Plan& plan, const std::string& variant) {
  for (const ExperimentPlan& ep : plan.experiments) {
    for (const Variant* v : ep.variants) {
      if (v->name == variant) return true;
    }
  }
  return false;
}

TEST(HopperVariants, AreOptInUntilVerifiedOnAGpu) {
  for (const Named& n : kHopper) {
    const Experiment* e = find_experiment(n.lesson);
    ASSERT_NE(e, nullptr) << n.lesson;
    const Variant* v = e->find_variant(n.variant);
    ASSERT_NE(v, nullptr) << n.lesson << " " << n.variant;
    EXPECT_EQ(v->opt_in, lessons::hopper::kUnverified) << n.lesson << " " << n.variant;
    EXPECT_FALSE(v->needs_reason.empty()) << n.lesson << " " << n.variant;
    RunRequest r;
    r.experiments = {n.lesson};
    r.seed = 1;
    EXPECT_FALSE(planned(make_plan(r), n.variant))
        << "memlab run " << n.lesson << " must leave " << n.variant << " out";
    r.variants = {std::string(n.lesson) + ":" + n.variant};
    const Plan p = make_plan(r);
    ASSERT_EQ(p.experiments.size(), 1u);
    ASSERT_EQ(p.experiments[0].variants.size(), 1u);
    EXPECT_EQ(p.experiments[0].variants[0]->name, n.variant);
  }
  for (const Named& n : kVerified) {
    const Variant* v = find_experiment(n.lesson)->find_variant(n.variant);
    ASSERT_NE(v, nullptr) << n.lesson << " " << n.variant;
    EXPECT_TRUE(v->opt_in.empty()) << n.lesson << " " << n.variant;
  }
  // Neither does the default suite take any of them.
  RunRequest all;
  all.seed = 1;
  all.quick = true;
  const Plan suite = make_plan(all);
  for (const ExperimentPlan& ep : suite.experiments) {
    for (const Variant* v : ep.variants) {
      EXPECT_TRUE(v->opt_in.empty()) << ep.experiment->name << " " << v->name;
    }
  }
}

// Where a TMA variant cannot describe the tensor (rows not 16-byte multiples) it is skipped with
// that reason, at the lesson's own test points.
TEST(HopperVariants, SkipWithTheirReasonWhereTheyCannotRun) {
  const Experiment* t = find_experiment("transpose");
  ASSERT_NE(t, nullptr);
  const Variant* tma = t->find_variant("tma");
  ASSERT_NE(tma, nullptr);
  EXPECT_FALSE(tma->applies_to(Params(Kv{{"rows", "33"}, {"cols", "65"}})));
  EXPECT_TRUE(tma->applies_to(Params(Kv{{"rows", "36"}, {"cols", "100"}})));
  EXPECT_NE(tma->only.find("multiples of 4"), std::string::npos) << tma->only;
  // tensor_cores: `wgmma` runs at both dtypes (BF16 and TF32 kernels), `wgmma_persistent`,
  // `wgmma_cluster` and `wgmma_cluster_persistent` at bf16 only.
  const Variant* wgmma = find_experiment("tensor_cores")->find_variant("wgmma");
  ASSERT_NE(wgmma, nullptr);
  for (const char* dtype : {"bf16", "tf32"}) {
    EXPECT_TRUE(wgmma->applies_to(Params(Kv{{"dtype", dtype}, {"m", "8"}, {"n", "8"}, {"k", "8"}})))
        << dtype;
  }
  const Variant* persistent = find_experiment("tensor_cores")->find_variant("wgmma_persistent");
  ASSERT_NE(persistent, nullptr);
  EXPECT_FALSE(
      persistent->applies_to(Params(Kv{{"dtype", "tf32"}, {"m", "8"}, {"n", "8"}, {"k", "8"}})));
  EXPECT_NE(persistent->only.find("bf16"), std::string::npos) << persistent->only;
  const Variant* wgmma_cl = find_experiment("tensor_cores")->find_variant("wgmma_cluster");
  ASSERT_NE(wgmma_cl, nullptr);
  EXPECT_FALSE(
      wgmma_cl->applies_to(Params(Kv{{"dtype", "tf32"}, {"m", "8"}, {"n", "8"}, {"k", "8"}})));
  EXPECT_NE(wgmma_cl->only.find("bf16"), std::string::npos) << wgmma_cl->only;
  const Variant* cl_pers =
      find_experiment("tensor_cores")->find_variant("wgmma_cluster_persistent");
  ASSERT_NE(cl_pers, nullptr);
  EXPECT_TRUE(
      cl_pers->applies_to(Params(Kv{{"dtype", "bf16"}, {"m", "9"}, {"n", "33"}, {"k", "7"}})));
  EXPECT_FALSE(
      cl_pers->applies_to(Params(Kv{{"dtype", "tf32"}, {"m", "8"}, {"n", "8"}, {"k", "8"}})));
  EXPECT_NE(cl_pers->only.find("bf16"), std::string::npos) << cl_pers->only;
  // wgmma_tma_store: bf16 only, and only where C's rows are 16-byte multiples (its tensor map).
  const Variant* tma_store = find_experiment("tensor_cores")->find_variant("wgmma_tma_store");
  ASSERT_NE(tma_store, nullptr);
  EXPECT_TRUE(
      tma_store->applies_to(Params(Kv{{"dtype", "bf16"}, {"m", "9"}, {"n", "8"}, {"k", "7"}})));
  EXPECT_FALSE(
      tma_store->applies_to(Params(Kv{{"dtype", "tf32"}, {"m", "8"}, {"n", "8"}, {"k", "8"}})));
  EXPECT_FALSE(
      tma_store->applies_to(Params(Kv{{"dtype", "bf16"}, {"m", "8"}, {"n", "33"}, {"k", "8"}})));
  EXPECT_NE(tma_store->only.find("bf16"), std::string::npos) << tma_store->only;
  EXPECT_NE(tma_store->only.find("multiple of 4"), std::string::npos) << tma_store->only;
  const Variant* bulk = find_experiment("bandwidth")->find_variant("bulk_copy");
  ASSERT_NE(bulk, nullptr);
  EXPECT_FALSE(bulk->applies_to(Params(Kv{{"op", "add"}, {"n", "4096"}})));
  EXPECT_TRUE(bulk->applies_to(Params(Kv{{"op", "copy"}, {"n", "4097"}})));
  for (const char* name : {"bulk", "bulk_pipelined", "bulk_pipelined_many"}) {
    const Variant* rev = find_experiment("smem_reverse")->find_variant(name);
    ASSERT_NE(rev, nullptr) << name;
    EXPECT_FALSE(rev->applies_to(Params(Kv{{"n", "4099"}}))) << name;
    EXPECT_TRUE(rev->applies_to(Params(Kv{{"n", "10000"}}))) << name;
  }
  for (const char* name : {"bulk_ring", "bulk_ring_hint", "bulk_ring_many"}) {
    const Variant* ring = find_experiment("bandwidth")->find_variant(name);
    ASSERT_NE(ring, nullptr) << name;
    EXPECT_FALSE(ring->applies_to(Params(Kv{{"op", "add"}, {"n", "4096"}}))) << name;
    EXPECT_TRUE(ring->applies_to(Params(Kv{{"op", "copy"}, {"n", "4097"}}))) << name;
  }
  for (const char* name : {"tma_pipelined", "tma_pipelined_many"}) {
    const Variant* tp = t->find_variant(name);
    ASSERT_NE(tp, nullptr) << name;
    EXPECT_FALSE(tp->applies_to(Params(Kv{{"rows", "1000"}, {"cols", "999"}}))) << name;
    EXPECT_TRUE(tp->applies_to(Params(Kv{{"rows", "1000"}, {"cols", "996"}}))) << name;
  }
  const Variant* cluster = find_experiment("conv2d")->find_variant("cluster");
  ASSERT_NE(cluster, nullptr);
  EXPECT_FALSE(cluster->applies_to(
      Params(Kv{{"height", "33"}, {"width", "65"}, {"mask", "5"}, {"separable", "no"}})));
  EXPECT_TRUE(cluster->applies_to(
      Params(Kv{{"height", "33"}, {"width", "64"}, {"mask", "5"}, {"separable", "no"}})));
}

// Issue 19: conv2d's boxes started r floats left of each block (60 bx - 2 at K = 5), and the copy
// engine stops a box whose innermost start is not a multiple of 16 bytes with
// cudaErrorIllegalInstruction. Every block's box must start on 16 bytes, cover its taps, and the
// tiles must cover every column exactly once.
TEST(HopperVariants, Conv2dBoxesStartOn16Bytes) {
  namespace c2 = lessons::conv2d;
  for (int k = 1; k <= c2::kMaxMask; k += 2) {
    const int r = k / 2, tw = c2::hopper_tile_cols(k), a = c2::hopper_apron(k);
    ASSERT_GT(tw, 0) << "K " << k;
    EXPECT_GE(a, r) << "K " << k;
    for (long bx = 0; bx < 600; ++bx) {
      const long x = c2::hopper_box_x(k, bx);
      EXPECT_EQ((x * 4) % 16, 0) << "K " << k << " block " << bx << " box x " << x;
      // The block's outputs bx tw .. bx tw + tw - 1 read columns - r .. + r: inside the box.
      EXPECT_LE(x, bx * tw - r) << "K " << k;
      EXPECT_GE(x + c2::kHopperBoxCols - 1, bx * tw + tw - 1 + r) << "K " << k;
      if (bx > 0) {
        EXPECT_EQ(x - c2::hopper_box_x(k, bx - 1), tw) << "K " << k;
      }
    }
  }
}

TEST(HopperVariants, MemlabListNamesThemWithTheirReason) {
  const testing_cli::Result r = testing_cli::memlab("list");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const Named& n : kHopper) {
    const std::string line = std::string("opt-in (runs only with -v ") + n.variant +
                             "): " + lessons::hopper::kUnverified;
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
  }
}

}  // namespace
}  // namespace memlab::bench
