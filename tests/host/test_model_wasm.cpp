// One source of truth for the models: the WebAssembly build (wasm/, run here by node) answers
// every parameter set exactly as the native library does -- the same JSON text, byte for byte,
// results and errors alike. Skipped (never passed) when the build has MEMLAB_WASM=OFF.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "memlab/model/api.hpp"

namespace {

using nlohmann::json;

struct Case {
  std::string name;
  std::string params;  // JSON text, as a page would pass it
};

[[maybe_unused]] std::vector<Case> cases() {
  std::vector<Case> out;
  // Every model at its defaults, and every parameter of the catalog at its default, its minimum
  // and its maximum, one at a time (many of the extremes are errors: those must agree too).
  const json catalog = memlab::model::catalog();
  for (const auto& m : catalog["models"]) {
    const std::string name = m["name"];
    out.push_back({name, ""});
    out.push_back({name, "{}"});
    for (const auto& p : m["params"]) {
      const std::string key = p["key"];
      for (const char* which : {"default", "min", "max"}) {
        if (!p.contains(which)) continue;
        if (p["type"] == "int_list" || p["type"] == "segment_list") continue;
        out.push_back({name, json{{key, p[which]}}.dump()});
      }
      for (const auto& choice : p.value("choices", json::array())) {
        out.push_back({name, json{{key, choice}}.dump()});
      }
    }
  }
  const std::vector<Case> edge = {
      {"coalescing", R"({"pattern":"strided","stride":2})"},
      {"coalescing", R"({"pattern":"strided","stride":281474976710656,"elem-size":1})"},
      {"coalescing", R"({"pattern":"random","seed":18446744073709551615,"range":1000})"},
      {"coalescing", R"({"pattern":"random","seed":7,"elem_size":16,"offset":3})"},
      {"coalescing", R"({"pattern":"aos","fields":5,"field":4,"elem-size":2})"},
      {"coalescing", R"({"pattern":"row","width":1000,"row":7,"elem-size":8})"},
      {"coalescing", R"({"pattern":"column","width":33,"col":32})"},
      {"coalescing", R"({"pattern":"offset","offset":"1"})"},
      {"banks", R"({"width":33})"},
      {"banks", R"({"pattern":"stride","stride":12})"},
      {"banks", R"({"pattern":"stride","stride":3,"elem-size":16})"},
      {"banks", R"({"pattern":"broadcast","offset":5,"elem-size":8})"},
      {"banks", R"({"pattern":"row","row":3,"width":40})"},
      {"banks",
       R"({"indices":"0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32,0,32"})"},
      {"banks",
       R"({"indices":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,64]})"},
      {"tiling", R"({"output-tile":28,"mask":5,"dims":2})"},
      {"tiling", R"({"output-tile":7,"mask":7,"dims":2,"elem-size":8})"},
      {"timeline", R"({"copy-engines":1})"},
      {"timeline", R"({"copy-engines":1,"order":"breadth"})"},
      {"timeline", R"({"segment":["4,1,1","1,6,1","1,1,4"],"streams":3})"},
      {"timeline",
       R"({"segment":[[0.1,0.25,0.05],[1e-3,2,3]],"queues":"perstream","order":"rounds"})"},
      {"timeline", R"({"segments":33,"streams":5,"concurrent-kernels":true,"queues":"perstream"})"},
      {"timeline", R"({"segments":1024,"streams":7,"order":"rounds"})"},
      {"roofline", R"({"bytes":1e9,"flops":1e12,"peak-bandwidth":1e12,"peak-flops":1e13})"},
      {"roofline", R"({"bytes":0,"flops":1})"},
      {"roofline", R"({"bytes":3.3333333333333335,"flops":0.1})"},
      {"occupancy", R"({"threads":256,"regs":64})"},
      {"occupancy",
       R"({"threads":256,"regs":0,"smem":40960,"smem-per-sm":167936,"max-smem-per-block":166912})"},
      {"occupancy", R"({"threads":1000,"regs":255,"smem":1})"},
      // Bad input: the same error text and parameter.
      {"coalescing", R"({"pattern":"strided","stride":0})"},
      {"coalescing", R"({"pattern":"strided","stride":9223372036854775807})"},
      {"coalescing", R"({"pattern":"strided","stride":4611686018427387904})"},
      {"coalescing", R"({"seed":-1})"},
      {"coalescing", R"({"elem-size":3})"},
      {"coalescing", R"({"pattern":"zigzag"})"},
      {"coalescing", R"({"bogus":1})"},
      {"coalescing", R"([1,2])"},
      {"coalescing", R"({"stride":)"},
      {"coalescing", R"({"stride":"two"})"},
      {"coalescing", R"({"stride":1.5})"},
      {"banks", R"({"stride":"99999999999999999999"})"},
      {"banks", R"({"indices":[1,2,3]})"},
      {"tiling", R"({"max-threads-per-block":0})"},
      {"tiling", R"({"mask":4})"},
      {"tiling", R"({"output-tile":200,"dims":2})"},
      {"timeline", R"({"h2d":1e308,"kernel":1e308,"d2h":1e308})"},
      {"timeline", R"({"segments":100000000})"},
      {"timeline", R"({"h2d":"nan"})"},
      {"timeline", R"({"kernel":"inf"})"},
      {"timeline", R"({"segment":["1,2"]})"},
      {"timeline", R"({"h2d":0,"kernel":0,"d2h":0})"},
      {"roofline", R"({"bytes":"nan"})"},
      {"roofline", R"({"peak-flops":0})"},
      {"occupancy", R"({"threads":2048})"},
      {"occupancy", R"({"smem":300000})"},
      {"nosuchmodel", "{}"},
  };
  out.insert(out.end(), edge.begin(), edge.end());
  return out;
}

TEST(ModelWasm, SameJsonAsNative) {
#ifndef MEMLAB_WASM_MODULE
  GTEST_SKIP() << "built with MEMLAB_WASM=OFF: no WebAssembly module to check";
#else
  ASSERT_TRUE(std::filesystem::exists(MEMLAB_WASM_MODULE))
      << MEMLAB_WASM_MODULE << " is missing: build the target memlab_wasm";
  const std::vector<Case> all = cases();
  ASSERT_GT(all.size(), 150u);
  const auto dir =
      std::filesystem::temp_directory_path() /
      ("memlab_wasm_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
       std::to_string(static_cast<long>(::getpid())));
  std::filesystem::create_directories(dir);
  json list = json::array();
  for (const auto& c : all) list.push_back({{"name", c.name}, {"params", c.params}});
  std::ofstream(dir / "cases.json") << list.dump();

  const std::string cmd = std::string(MEMLAB_NODE) + " " + MEMLAB_WASM_CHECK + " " +
                          MEMLAB_WASM_MODULE + " " + (dir / "cases.json").string() + " 2>&1";
  std::string out;
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::array<char, 1 << 16> buf{};
  std::size_t n = 0;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) out.append(buf.data(), n);
  ASSERT_EQ(pclose(pipe), 0) << out.substr(0, 2000);
  std::filesystem::remove_all(dir);

  std::istringstream lines(out);
  std::string line;
  std::size_t errors = 0;
  for (const auto& c : all) {
    ASSERT_TRUE(std::getline(lines, line)) << "node printed fewer answers than cases";
    const std::string native = memlab::model::run_text(c.name, c.params);
    EXPECT_EQ(line, native) << c.name << " " << c.params;
    if (json::parse(native).contains("error")) ++errors;
  }
  ASSERT_TRUE(std::getline(lines, line));
  EXPECT_EQ(line, memlab::model::catalog().dump());
  // The table holds both kinds, and the errors are the documented ones.
  EXPECT_GT(errors, 30u);
  EXPECT_LT(errors, all.size() - 50);
  const json bad = json::parse(memlab::model::run_text("coalescing", R"({"seed":-1})"));
  EXPECT_EQ(bad["parameter"], "--seed");
#endif
}

}  // namespace
