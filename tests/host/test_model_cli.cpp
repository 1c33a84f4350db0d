// `memlab model ...`: parses command lines through add_model_command and checks what is printed.
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/cli/model_command.hpp"
#include "memlab/common/error.hpp"

namespace {

struct Outcome {
  int exit_code = -1;
  std::string out;
};

// Parses `memlab <args...>` with only the model command registered; returns exit code and stdout.
Outcome run_cli(std::vector<std::string> args) {
  CLI::App app{"memlab"};
  Outcome outcome;
  outcome.exit_code = 42;
  memlab::cli::add_model_command(app, outcome.exit_code);
  args.insert(args.begin(), "memlab");
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStdout();
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (...) {
    std::fflush(stdout);
    testing::internal::GetCapturedStdout();
    throw;
  }
  std::fflush(stdout);
  outcome.out = testing::internal::GetCapturedStdout();
  return outcome;
}

nlohmann::json run_json(std::vector<std::string> args) {
  args.push_back("--json");
  const auto outcome = run_cli(args);
  EXPECT_EQ(outcome.exit_code, 0);
  return nlohmann::json::parse(outcome.out);
}

std::string usage_error(std::vector<std::string> args) {
  try {
    run_cli(std::move(args));
  } catch (const memlab::UsageError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST(ModelCli, CoalescingDefaultIsSeed001) {
  const auto j = run_json({"model", "coalescing"});
  EXPECT_EQ(j["model"], "coalescing");
  EXPECT_EQ(j["params"]["pattern"], "linear");
  EXPECT_EQ(j["result"]["sectors"], 4);
  EXPECT_EQ(j["result"]["lines"], 1);
  EXPECT_EQ(j["result"]["bytes_moved"], 128);
  EXPECT_EQ(j["result"]["bytes_needed"], 128);
  EXPECT_DOUBLE_EQ(j["result"]["efficiency"].get<double>(), 1.0);
  EXPECT_EQ(j["result"]["addresses"][31], 124);
}

TEST(ModelCli, CoalescingOptions) {
  auto j = run_json({"model", "coalescing", "--pattern", "strided", "--stride", "2"});
  EXPECT_EQ(j["result"]["sectors"], 8);
  EXPECT_DOUBLE_EQ(j["result"]["efficiency"].get<double>(), 0.5);
  j = run_json({"model", "coalescing", "--pattern", "column", "--width", "64", "--col", "3",
                "--elem-size", "8"});
  EXPECT_EQ(j["params"]["col"], 3);
  EXPECT_EQ(j["result"]["addresses"][1], (64 + 3) * 8);
  EXPECT_DOUBLE_EQ(j["result"]["array_pass_efficiency"].get<double>(), 0.25);
  const auto text = run_cli({"model", "coalescing", "--pattern", "offset", "--offset", "1"});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("160 / 128 B"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("80.0 %"), std::string::npos);
  EXPECT_NE(text.out.find("lanes 0-6"), std::string::npos);   // sector 0 holds lanes 0..6
  EXPECT_NE(text.out.find("[#.......]"), std::string::npos);  // sector 4: only lane 31
}

TEST(ModelCli, BanksDefaultIsThirtyTwoWay) {
  const auto text = run_cli({"model", "banks"});
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("32-way"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("pass 32"), std::string::npos);
  auto j = run_json({"model", "banks", "--width", "33"});
  EXPECT_DOUBLE_EQ(j["result"]["degree"].get<double>(), 1.0);
  EXPECT_EQ(j["result"]["passes"], 1);
  j = run_json({"model", "banks", "--pattern", "stride", "--stride", "12"});
  EXPECT_EQ(j["result"]["passes"], 4);  // gcd(12, 32)
  j = run_json({"model", "banks", "--pattern", "stride", "--stride", "2", "--elem-size", "8"});
  EXPECT_EQ(j["result"]["passes"], 4);
  EXPECT_EQ(j["result"]["min_passes"], 2);
  EXPECT_EQ(j["result"]["phases"].size(), 2u);
  std::string idx;
  for (int lane = 0; lane < 32; ++lane) {
    if (lane > 0) idx.push_back(',');
    idx.append(lane % 2 == 0 ? "0" : "32");
  }
  j = run_json({"model", "banks", "--indices", idx});
  EXPECT_EQ(j["result"]["passes"], 2);
  EXPECT_EQ(j["result"]["broadcast_lanes"], 32);
}

TEST(ModelCli, TilingSeed000) {
  auto j = run_json({"model", "tiling"});
  EXPECT_EQ(j["result"]["input_tile"], 1024);
  EXPECT_EQ(j["result"]["idle_threads"], 4);
  j = run_json({"model", "tiling", "--output-tile", "28", "--mask", "5", "--dims", "2"});
  EXPECT_EQ(j["result"]["input_tile"], 32);
  EXPECT_EQ(j["result"]["block_threads"], 1024);
  EXPECT_EQ(j["result"]["idle_threads"], 240);
  EXPECT_EQ(j["result"]["shared_bytes"], 4096);
  const auto text = run_cli({"model", "tiling", "--output-tile", "28", "--dims", "2"});
  EXPECT_NE(text.out.find("32 = 28 + 5 - 1"), std::string::npos) << text.out;
}

TEST(ModelCli, TimelineSeed001AndPitfall) {
  auto j = run_json({"model", "timeline"});
  EXPECT_DOUBLE_EQ(j["result"]["serial"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(j["result"]["makespan"].get<double>(), 55.0);
  EXPECT_NEAR(j["result"]["speedup"].get<double>(), 1.818, 1e-3);
  EXPECT_EQ(j["result"]["operations"].size(), 12u);
  j = run_json({"model", "timeline", "--copy-engines", "1"});
  EXPECT_DOUBLE_EQ(j["result"]["makespan"].get<double>(), 100.0);
  j = run_json({"model", "timeline", "--copy-engines", "1", "--order", "breadth"});
  EXPECT_DOUBLE_EQ(j["result"]["makespan"].get<double>(), 60.0);
  j = run_json({"model", "timeline", "--segment", "4,1,1", "--segment", "1,6,1", "--segment",
                "1,1,4", "--streams", "3"});
  EXPECT_DOUBLE_EQ(j["result"]["makespan"].get<double>(), 16.0);
  const auto text = run_cli({"model", "timeline"});
  EXPECT_NE(text.out.find("1.82x"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("H2D engine  |0000"), std::string::npos);
}

TEST(ModelCli, RooflineAndOccupancy) {
  auto j = run_json({"model", "roofline"});
  EXPECT_EQ(j["result"]["bound"], "memory");
  EXPECT_NEAR(j["result"]["intensity"].get<double>(), 1.0 / 6.0, 1e-12);
  j = run_json({"model", "roofline", "--bytes", "1e9", "--flops", "1e12", "--peak-bandwidth",
                "1e12", "--peak-flops", "1e13"});
  EXPECT_EQ(j["result"]["bound"], "compute");
  EXPECT_DOUBLE_EQ(j["result"]["attainable_time_s"].get<double>(), 0.1);
  j = run_json({"model", "occupancy", "--threads", "256", "--regs", "64"});
  EXPECT_EQ(j["result"]["blocks_per_sm"], 4);
  EXPECT_DOUBLE_EQ(j["result"]["occupancy"].get<double>(), 0.5);
  EXPECT_EQ(j["result"]["limit"], "registers");
  j = run_json({"model", "occupancy", "--threads", "256", "--regs", "0", "--smem", "40960",
                "--smem-per-sm", "167936", "--max-smem-per-block", "166912"});
  EXPECT_EQ(j["result"]["blocks_per_sm"], 4);
  EXPECT_EQ(j["result"]["limit"], "shared memory");
  const auto text = run_cli({"model", "occupancy"});
  EXPECT_NE(text.out.find("100.0 %"), std::string::npos) << text.out;
}

TEST(ModelCli, BadInputsThrowUsageError) {
  EXPECT_EQ(usage_error({"model", "coalescing", "--pattern", "strided", "--stride", "0"}),
            "--stride: must be in [1, 2^48] (got 0)");
  EXPECT_EQ(usage_error({"model", "coalescing", "--elem-size", "3"}),
            "--elem-size: must be 1, 2, 4, 8 or 16 bytes (got 3)");
  EXPECT_EQ(usage_error({"model", "coalescing", "--pattern", "zigzag"}),
            "--pattern: must be one of linear, strided, offset, random, aos, row or column "
            "(got 'zigzag')");
  EXPECT_EQ(usage_error({"model", "banks", "--indices", "1,2,3"}),
            "--indices: must list 32 element indices (got 3)");
  EXPECT_EQ(usage_error({"model", "tiling", "--mask", "4"}),
            "--mask: must be an odd width >= 1 (got 4)");
  EXPECT_EQ(usage_error({"model", "timeline", "--streams", "0"}),
            "--streams: must be in [1, 1024] (got 0)");
  EXPECT_EQ(usage_error({"model", "timeline", "--segment", "1,2"}),
            "--segment: must be three durations H2D,KERNEL,D2H (got '1,2')");
  EXPECT_EQ(usage_error({"model", "timeline", "--segment", "1,x,2"}),
            "--segment: must be three durations H2D,KERNEL,D2H (got '1,x,2')");
  EXPECT_EQ(usage_error({"model", "timeline", "--order", "random"}),
            "--order: must be one of depth, breadth or rounds (got 'random')");
  EXPECT_EQ(usage_error({"model", "roofline", "--peak-flops", "0"}),
            "--peak-flops: must be in [1, 1e+30] (got 0)");
  EXPECT_EQ(usage_error({"model", "occupancy", "--threads", "2048"}),
            "--threads: must be in [1, 1024] (got 2048)");
  EXPECT_EQ(usage_error({"model", "occupancy", "--smem", "300000"}),
            "--smem: must be in [0, 232448] (got 300000)");
}

TEST(ModelCli, ParserErrorsAreCliErrors) {
  EXPECT_THROW(run_cli({"model"}), CLI::ParseError);  // a model must be named
  EXPECT_THROW(run_cli({"model", "banks", "--stride", "two"}), CLI::ParseError);
  EXPECT_THROW(run_cli({"model", "nosuchmodel"}), CLI::ParseError);
}
