// The model API (include/memlab/model/api.hpp): run() gives what `memlab model X --json` prints,
// catalog() lists every flag, and every bad input is a UsageError naming the flag -- through the
// API and through the memlab binary (exit 2, one line).
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "memlab/common/error.hpp"
#include "memlab/model/api.hpp"
#include "memlab/model/inputs.hpp"

namespace {

using memlab::testing_cli::expect_usage_error;
using memlab::testing_cli::memlab;
using nlohmann::json;

std::string api_error(const std::string& name, const json& params) {
  try {
    memlab::model::run(name, params);
  } catch (const memlab::UsageError& e) {
    return e.what();
  }
  return "no error";
}

TEST(ModelApi, RunMatchesTheCommandLine) {
  struct Case {
    std::string name;
    json params;
    std::string args;
  };
  const std::vector<Case> cases = {
      {"coalescing", json::object(), ""},
      {"coalescing", {{"pattern", "strided"}, {"stride", 2}}, "--pattern strided --stride 2"},
      {"coalescing",
       {{"pattern", "random"}, {"seed", 7}, {"range", 4096}, {"elem_size", 8}},
       "--pattern random --seed 7 --range 4096 --elem-size 8"},
      {"coalescing",
       {{"pattern", "column"}, {"width", "64"}, {"col", 3}},
       "--pattern column --width 64 --col 3"},
      {"banks", json::object(), ""},
      {"banks",
       {{"pattern", "stride"}, {"stride", 2}, {"elem-size", 8}},
       "--pattern stride --stride 2 --elem-size 8"},
      {"tiling", {{"output-tile", 28}, {"dims", 2}}, "--output-tile 28 --dims 2"},
      {"timeline", {{"copy-engines", 1}, {"order", "breadth"}}, "--copy-engines 1 --order breadth"},
      {"timeline",
       {{"segment", {"4,1,1", "1,6,1", "1,1,4"}}, {"streams", 3}},
       "--segment 4,1,1 --segment 1,6,1 --segment 1,1,4 --streams 3"},
      {"timeline",
       {{"concurrent_kernels", true}, {"queues", "perstream"}},
       "--concurrent-kernels --queues perstream"},
      {"roofline", {{"bytes", 1e9}, {"flops", 1e12}}, "--bytes 1e9 --flops 1e12"},
      {"roofline", {{"bytes", 0}}, "--bytes 0"},
      {"occupancy", {{"threads", 256}, {"regs", 64}}, "--threads 256 --regs 64"},
  };
  for (const auto& c : cases) {
    const auto r = memlab("model " + c.name + " " + c.args + " --json");
    ASSERT_EQ(r.code, 0) << c.args << "\n" << r.out;
    EXPECT_EQ(json::parse(r.out), memlab::model::run(c.name, c.params)) << c.name << " " << c.args;
    // Byte for byte, as the CLI prints it.
    EXPECT_EQ(r.out, memlab::model::run(c.name, c.params).dump(2) + "\n");
  }
}

TEST(ModelApi, ValuesAsStringsOrNumbersAgree) {
  EXPECT_EQ(memlab::model::run("coalescing", {{"pattern", "strided"}, {"stride", "3"}}),
            memlab::model::run("coalescing", {{"pattern", "strided"}, {"stride", 3}}));
  EXPECT_EQ(memlab::model::run("timeline", {{"segment", {{4, 1, 1}, {1, 6, 1}}}}),
            memlab::model::run("timeline", {{"segment", {"4,1,1", "1,6,1"}}}));
  EXPECT_EQ(memlab::model::run("coalescing", nullptr), memlab::model::run("coalescing", {}));
  EXPECT_EQ(memlab::model::run("roofline", {{"--peak-flops", 1e13}})["params"]["peak_flops"], 1e13);
}

TEST(ModelApi, CatalogListsEveryFlagWithItsDefault) {
  const json c = memlab::model::catalog();
  ASSERT_EQ(c["models"].size(), 6u);
  std::vector<std::string> names;
  for (const auto& m : c["models"]) {
    names.push_back(m["name"]);
    const auto help = memlab("model " + m["name"].get<std::string>() + " --help");
    for (const auto& p : m["params"]) {
      EXPECT_EQ(p["flag"], "--" + p["key"].get<std::string>());
      EXPECT_NE(help.out.find(p["flag"].get<std::string>()), std::string::npos) << p;
      EXPECT_FALSE(p["help"].get<std::string>().empty()) << p;
      // Every default on its own is accepted and changes nothing.
      json one = json::object();
      one[p["key"].get<std::string>()] = p["default"];
      if (!(p["type"] == "int_list" || p["type"] == "segment_list")) {
        EXPECT_EQ(memlab::model::run(m["name"], one), memlab::model::run(m["name"], {})) << p;
      }
      if (p.contains("min")) {
        EXPECT_TRUE(p.contains("max") && p.contains("range")) << p;
      }
    }
  }
  EXPECT_EQ(names, (std::vector<std::string>{"coalescing", "banks", "tiling", "timeline",
                                             "roofline", "occupancy"}));
  const auto& stride = c["models"][0]["params"][2];
  EXPECT_EQ(stride["key"], "stride");
  EXPECT_EQ(stride["min"], 1);
  EXPECT_EQ(stride["max"], std::int64_t{1} << 48);
  EXPECT_EQ(stride["range"], "[1, 2^48]");
  EXPECT_EQ(c["models"][0]["params"][0]["choices"].size(), 7u);
}

TEST(ModelApi, ErrorsNameTheFlag) {
  EXPECT_EQ(api_error("coalescing", {{"pattern", "strided"}, {"stride", 0}}),
            "--stride: must be in [1, 2^48] (got 0)");
  EXPECT_EQ(api_error("coalescing", {{"stride", "two"}}),
            "--stride: must be an integer in [1, 2^48] (got 'two')");
  EXPECT_EQ(api_error("coalescing", {{"bogus", 1}}),
            "--bogus: not a parameter of model coalescing (accepted: pattern, elem-size, stride, "
            "offset, seed, range, fields, field, width, row, col, kernel, bytes, sms, clock-mhz, "
            "threads-per-sm, memcpy-gbps)");
  EXPECT_EQ(api_error("coalescing", json::array()),
            "params: the parameters of model coalescing must be a JSON object");
  EXPECT_EQ(api_error("nosuchmodel", {}),
            "model: unknown model 'nosuchmodel' (accepted: coalescing, banks, tiling, timeline, "
            "roofline, occupancy)");
  EXPECT_EQ(api_error("occupancy", {{"threads", 2048}}),
            "--threads: must be in [1, 1024] (got 2048)");
  EXPECT_EQ(api_error("occupancy", {{"regs", 256}}), "--regs: must be in [0, 255] (got 256)");
  EXPECT_EQ(api_error("tiling", {{"max-threads-per-block", 0}}),
            "--max-threads-per-block: must be in [1, 2^20] (got 0)");
  EXPECT_EQ(api_error("coalescing", {{"seed", -1}}), "--seed: must be in [0, 2^64 - 1] (got -1)");
  EXPECT_EQ(api_error("coalescing", {{"seed", "-1"}}), "--seed: must be in [0, 2^64 - 1] (got -1)");
  EXPECT_EQ(api_error("timeline", {{"h2d", 1e308}}), "--h2d: must be in [0, 1e+12] (got 1e+308)");
  EXPECT_EQ(api_error("timeline", {{"segments", 100000000}}),
            "--segments: must be in [1, 1024] (got 100000000)");
  EXPECT_EQ(api_error("banks", {{"stride", "99999999999999999999"}}),
            "--stride: must be in [1, 2^48] (got 99999999999999999999)");

  const auto e = memlab::model::error_json(memlab::UsageError("--stride: must be >= 1 (got 0)"));
  EXPECT_EQ(e["parameter"], "--stride");
  EXPECT_EQ(e["error"], "--stride: must be >= 1 (got 0)");
  EXPECT_FALSE(memlab::model::error_json(std::runtime_error("boom: x")).contains("parameter"));
}

TEST(ModelApi, NanAndInfinityAreRejectedEverywhere) {
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity", "1e999", "0x1p3", " 1", ""}) {
    for (const auto& [name, key] :
         std::vector<std::pair<std::string, std::string>>{{"timeline", "h2d"},
                                                          {"timeline", "kernel"},
                                                          {"timeline", "d2h"},
                                                          {"roofline", "bytes"},
                                                          {"roofline", "flops"},
                                                          {"roofline", "peak-bandwidth"},
                                                          {"roofline", "peak-flops"},
                                                          {"coalescing", "stride"},
                                                          {"occupancy", "threads"}}) {
      EXPECT_EQ(api_error(name, {{key, bad}}).rfind("--" + key + ": ", 0), 0u)
          << name << " " << key << "=" << bad;
    }
    EXPECT_EQ(api_error("timeline", {{"segment", {std::string("1,") + bad + ",1"}}})
                  .rfind("--segment: ", 0),
              0u)
        << bad;
  }
}

// The answers that used to be wrong: exact at the limit, an error one step beyond.
TEST(ModelApi, LargeValuesAreExactOrRefused) {
  const std::int64_t big = std::int64_t{1} << 48;
  const json j =
      memlab::model::run("coalescing", {{"pattern", "strided"}, {"stride", big}, {"elem-size", 1}});
  EXPECT_EQ(j["result"]["sectors"], 32);
  EXPECT_EQ(j["result"]["addresses"][31], 31 * big);
  EXPECT_EQ(api_error("coalescing", {{"pattern", "strided"}, {"stride", big}, {"elem-size", 2}}),
            "--stride: the warp's highest byte address (17451448556060672) must be below 2^53");
  EXPECT_EQ(api_error("coalescing", {{"pattern", "strided"}, {"stride", std::int64_t{1} << 62}})
                .rfind("--stride: must be in [1, 2^48]", 0),
            0u);
  EXPECT_EQ(api_error("coalescing", {{"pattern", "row"}, {"row", big}, {"width", big}})
                .rfind("--row: the warp's highest byte address", 0),
            0u);
  EXPECT_EQ(api_error("coalescing", {{"pattern", "strided"},
                                     {"stride", std::int64_t{1} << 44},
                                     {"offset", big},
                                     {"elem-size", 16}})
                .rfind("--offset: the warp's highest byte address", 0),
            0u);
  EXPECT_EQ(api_error("banks", {{"pattern", "row"}, {"row", big}, {"width", big}})
                .rfind("--row: the highest byte a lane reads", 0),
            0u);
  const json b = memlab::model::run("banks", {{"pattern", "stride"}, {"stride", 1 << 20}});
  EXPECT_EQ(b["result"]["passes"], 32);  // every lane in bank 0
  const json r = memlab::model::run("roofline", {{"bytes", 1e30}, {"peak-bandwidth", 1}});
  EXPECT_DOUBLE_EQ(r["result"]["memory_time_s"].get<double>(), 1e30);
  EXPECT_EQ(api_error("roofline", {{"bytes", 0.5}, {"flops", 0}}),
            "--bytes: --bytes or --flops must be >= 1 (got both below 1)");
}

TEST(ModelApi, TimelineAtItsLimitIsFast) {
  const auto start = std::chrono::steady_clock::now();
  for (const char* queues : {"inorder", "perstream"}) {
    const json j =
        memlab::model::run("timeline", {{"segments", 1024}, {"streams", 1024}, {"queues", queues}});
    EXPECT_EQ(j["result"]["operations"].size(), 3072u);
    EXPECT_DOUBLE_EQ(j["result"]["serial"].get<double>(), 1024 * 25.0);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 10.0);
  const json tiny = memlab::model::run("timeline", {{"segment", {{5e-324, 0, 0}}}});
  EXPECT_GT(tiny["result"]["makespan"].get<double>(), 0.0);
  EXPECT_EQ(memlab("model timeline --segment 5e-324,0,0").code, 0);  // Gantt chart of it prints
}

// The inputs of issue 14 ("Bad input"), through the binary: exit 2, one line, the flag named.
TEST(ModelApi, BadInputsOfTheCommandLine) {
  expect_usage_error("model timeline --h2d 1e308 --kernel 1e308 --d2h 1e308", "--h2d");
  expect_usage_error("model timeline --segments 100000000", "--segments: must be in [1, 1024]");
  expect_usage_error("model timeline --segment 1,1,1 --segment 1e13,1,1", "--segment");
  expect_usage_error("model timeline --streams 2147483647", "--streams");
  expect_usage_error("model timeline --width 5", "--width");
  expect_usage_error("model coalescing --pattern strided --stride 9223372036854775807",
                     "--stride: must be in [1, 2^48]");
  expect_usage_error("model coalescing --pattern strided --stride 4611686018427387904", "--stride");
  expect_usage_error("model coalescing --pattern strided --stride 9223372036854775808", "--stride");
  expect_usage_error("model banks --stride 99999999999999999999", "--stride");
  expect_usage_error("model banks --pattern stride --stride 99999999999999999999", "--stride");
  expect_usage_error("model tiling --max-threads-per-block 0", "--max-threads-per-block");
  expect_usage_error("model coalescing --seed -1", "--seed");
  expect_usage_error("model coalescing --pattern random --seed 18446744073709551616", "--seed");
  expect_usage_error("model nosuchmodel",
                     "unknown model 'nosuchmodel' (accepted: coalescing, banks");
  expect_usage_error("model", "a model name is required (accepted: coalescing");
  expect_usage_error("model roofline --bytes nan", "--bytes");
  expect_usage_error("model roofline --flops inf", "--flops");
  expect_usage_error("model roofline --peak-bandwidth -inf", "--peak-bandwidth");
  expect_usage_error("model timeline --kernel nan", "--kernel");
  expect_usage_error("model timeline --segment nan,1,1", "--segment");
  expect_usage_error("model occupancy --threads 1.5", "--threads");
  expect_usage_error("model occupancy --max-warps-per-sm 100000000", "--max-warps-per-sm");
  expect_usage_error("model banks --indices 1,2,x", "--indices");
  const auto ok = memlab("model coalescing --pattern random --seed 18446744073709551615 --json");
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_NE(ok.out.find("18446744073709551615"), std::string::npos);
}

}  // namespace
