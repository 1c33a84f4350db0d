// memlab claims: the table of the seeds' claims (each names a line of the course text in
// docs/course/ that says it), their verdicts on the H200's full run and on synthetic records (a
// claim that fails must say so), and the level detection. The CLI front end: test_claims_cli.cpp.
#include <gtest/gtest.h>

#include <cctype>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include "memlab/claims/claims.hpp"

namespace memlab::claims {
namespace {

using Json = nlohmann::json;

std::map<std::string, Evaluation> verdicts(const Json& run) {
  std::map<std::string, Evaluation> out;
  for (const auto& r : evaluate(run)) out[r.claim->id] = r.evaluation;
  return out;
}

// The words of a UTF-8 line that identify it (4 characters or more, or holding a digit: "1.82x",
// "64"), lower case, transliterated as the claims' quotes spell them (ä -> ae, ß -> ss, × -> x).
std::set<std::string> words(const std::string& utf8) {
  static const std::map<std::string, std::string> fold = {
      {"\u00e4", "ae"}, {"\u00f6", "oe"}, {"\u00fc", "ue"}, {"\u00c4", "ae"},
      {"\u00d6", "oe"}, {"\u00dc", "ue"}, {"\u00df", "ss"}, {"\u00d7", "x"}};
  std::string ascii;
  for (std::size_t i = 0; i < utf8.size();) {
    bool folded = false;
    for (const auto& [from, to] : fold) {
      if (utf8.compare(i, from.size(), from) == 0) {
        ascii += to;
        i += from.size();
        folded = true;
        break;
      }
    }
    if (folded) continue;
    const auto ch = static_cast<unsigned char>(utf8[i++]);
    const bool keep = ch < 128 && (std::isalnum(ch) != 0 || ch == '.');
    ascii += keep ? static_cast<char>(std::tolower(ch)) : ' ';
  }
  std::set<std::string> out;
  std::istringstream in(ascii);
  for (std::string w; in >> w;) {
    while (!w.empty() && w.back() == '.') w.pop_back();
    while (!w.empty() && w.front() == '.') w.erase(w.begin());
    const bool digit = w.find_first_of("0123456789") != std::string::npos;
    if (w.size() >= 4 || (digit && w.size() >= 2)) out.insert(w);
  }
  return out;
}

Json record(const std::string& exp, const std::string& variant, Json params, double ms) {
  return {{"experiment", exp}, {"variant", variant}, {"params", params},
          {"timed", true},     {"verified", true},   {"stats", {{"median_ms", ms}}}};
}

TEST(Claims, EveryClaimNamesASeedLineThatExistsAndATest) {
  ASSERT_GE(all().size(), 15u);
  for (const auto& c : all()) {
    const auto colon = c.source.find(':');
    ASSERT_NE(colon, std::string::npos) << c.id;
    const std::string file = c.source.substr(0, colon);
    std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/course/" + file);
    ASSERT_TRUE(f.good()) << c.id << ": no course file " << file;
    const int line = std::stoi(c.source.substr(colon + 1));
    std::string text;
    for (int i = 0; i < line && std::getline(f, text); ++i) {
    }
    // The quote is the seed's sentence transliterated to ASCII; the cited line must share one of
    // its words (4 letters or more), so a wrong line number fails.
    bool shares = false;
    for (const auto& w : words(c.quote)) shares = shares || words(text).count(w) > 0;
    EXPECT_TRUE(shares) << c.id << ": " << c.source << " reads \"" << text << "\", quote \""
                        << c.quote << "\"";
    EXPECT_FALSE(c.test.empty()) << c.id;
    EXPECT_FALSE(c.rule.empty()) << c.id;
  }
}

TEST(Claims, VerdictsOnTheH200FullRun) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/h200-2026-11-29-full.json");
  ASSERT_TRUE(f.good());
  const auto v = verdicts(Json::parse(f));
  EXPECT_EQ(v.at("stride32_32way").verdict, Verdict::Holds);
  EXPECT_NEAR(v.at("stride32_32way").number, 30.2, 0.2);
  EXPECT_EQ(v.at("stride2_2way").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("gcd_degree").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("padding_33").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("broadcast_free").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("pinned_2x").verdict, Verdict::HoldsDifferent);  // 7.8x, not 2x
  EXPECT_NEAR(v.at("pinned_2x").number, 151.517 / 19.41, 0.01);
  EXPECT_EQ(v.at("effective_70_90").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("streams_1_82x").verdict, Verdict::Holds);
  EXPECT_NEAR(v.at("streams_1_82x").number, 25.979 / 13.288, 0.01);
  // Issue 19 #4: "with only one copy engine" is not judged on a GPU with 3; the ratio stays.
  EXPECT_EQ(v.at("one_copy_engine").verdict, Verdict::NotTestable);
  EXPECT_EQ(v.at("one_copy_engine").reason, "3 copy engines");
  EXPECT_LT(v.at("one_copy_engine").number, 1.0);
  EXPECT_EQ(v.at("legacy_default_stream").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("pageable_not_async").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("privatization_10x").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("shared_atomics_100x").verdict, Verdict::HoldsDifferent);
  EXPECT_EQ(v.at("constant_64k").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("registers_256k").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("shared_48_192k").verdict, Verdict::HoldsDifferent);  // 227 KiB
  // The new lessons were not in that run: no record, never a pass.
  EXPECT_EQ(v.at("shared_vs_global").verdict, Verdict::NoRecord);
  EXPECT_EQ(v.at("constant_l1_latency").verdict, Verdict::NoRecord);
  EXPECT_EQ(v.at("barrier_catches_race").verdict, Verdict::NoRecord);
}

TEST(Claims, SyntheticRecordsThatContradictAClaimSaySo) {
  const Json bank = {{"word", "4"}, {"op", "read"}, {"stride", "32"}, {"iters", "8"}};
  Json bank1 = bank;
  bank1["stride"] = "1";
  Json run = {{"context", {{"device", {{"copy_engines", 1}}}}},
              {"records",
               {record("bank_conflicts", "strided", bank, 8.0),
                record("bank_conflicts", "stride1", bank, 1.0),
                record("bank_conflicts", "stride1", bank1, 1.0),
                record("bank_conflicts", "broadcast", bank1, 3.0),
                record("default_stream", "legacy", Json::object(), 1.0),
                record("default_stream", "per_thread", Json::object(), 1.0),
                record("streams", "depth_first", {{"segments", "8"}, {"streams", "4"}}, 13.0),
                record("streams", "breadth_first", {{"segments", "8"}, {"streams", "4"}}, 15.0)}}};
  Json chase = record("hierarchy", "chase_ca", {{"ws", "1073741824"}}, 1.0);
  chase["figures"] = {{"cycles_per_load", 500.0}};
  Json shared = record("hierarchy", "chase_shared", {{"ws", "16384"}}, 1.0);
  shared["figures"] = {{"cycles_per_load", 250.0}};
  Json broken = record("syncthreads", "tiled_no_sync", {{"block", "256"}}, 0);
  broken["timed"] = false;
  broken["expected_failure"] = {{"lesson", "x"}, {"observed", false}};
  run["records"].push_back(chase);
  run["records"].push_back(shared);
  run["records"].push_back(broken);
  const auto v = verdicts(run);
  EXPECT_EQ(v.at("stride32_32way").verdict, Verdict::HoldsDifferent);
  EXPECT_DOUBLE_EQ(v.at("stride32_32way").number, 8.0);
  EXPECT_EQ(v.at("broadcast_free").verdict, Verdict::DoesNotHold);
  EXPECT_EQ(v.at("legacy_default_stream").verdict, Verdict::DoesNotHold);
  EXPECT_EQ(v.at("shared_vs_global").verdict, Verdict::HoldsDifferent);  // only 2x
  EXPECT_DOUBLE_EQ(v.at("shared_vs_global").number, 2.0);
  EXPECT_EQ(v.at("barrier_catches_race").verdict, Verdict::DoesNotHold);
  EXPECT_EQ(v.at("pinned_2x").verdict, Verdict::NoRecord);
  // One copy engine: the precondition holds, so the 0.87x is judged (and fails).
  EXPECT_EQ(v.at("one_copy_engine").verdict, Verdict::DoesNotHold);
  // chase_ca at 1 GiB is beyond this run's L2 (none recorded: the check cannot fail).
  EXPECT_TRUE(v.at("shared_vs_global").reason.empty());
}

// Issue 19 #4: every claim with a precondition names it; an unmet one is "not testable here" with
// the device's value, whatever the records say, and the JSON counts it.
TEST(Claims, PreconditionsNameWhatTheDeviceLacks) {
  int with = 0;
  for (const auto& c : all()) {
    EXPECT_EQ(c.condition.empty(), !c.unmet) << c.id;
    with += c.condition.empty() ? 0 : 1;
  }
  EXPECT_GE(with, 5);  // copy engines x3, the L2 size, concurrent kernels
  const Json p = {{"segments", "8"}, {"streams", "4"}};
  auto run = [&](Json device) {
    return Json{
        {"context", {{"device", device}}},
        {"records",
         {record("streams", "depth_first", p, 13.0), record("streams", "breadth_first", p, 15.0),
          record("streams", "serial", p, 26.0), record("streams", "pageable", p, 100.0)}}};
  };
  auto three = verdicts(run({{"copy_engines", 3}}));
  EXPECT_EQ(three.at("one_copy_engine").verdict, Verdict::NotTestable);
  EXPECT_EQ(three.at("one_copy_engine").reason, "3 copy engines");
  EXPECT_EQ(three.at("streams_1_82x").verdict, Verdict::Holds);
  auto none = verdicts(run({{"copy_engines", 0}}));
  EXPECT_EQ(none.at("streams_1_82x").verdict, Verdict::NotTestable);
  EXPECT_EQ(none.at("pageable_not_async").reason, "0 copy engines");
  auto unknown = verdicts(run(Json::object()));
  EXPECT_EQ(unknown.at("one_copy_engine").reason, "the run does not record the copy engine count");
  // A chase that stays inside the L2 is no "global memory" latency.
  Json small = record("hierarchy", "chase_ca", {{"ws", "33554432"}}, 1.0);
  small["figures"] = {{"cycles_per_load", 350.0}};
  Json shared = record("hierarchy", "chase_shared", {{"ws", "16384"}}, 1.0);
  shared["figures"] = {{"cycles_per_load", 30.0}};
  const Json l2run = {{"context", {{"device", {{"l2_bytes", 62914560}}}}},
                      {"records", {small, shared}}};
  const auto l2 = verdicts(l2run);
  EXPECT_EQ(l2.at("shared_vs_global").verdict, Verdict::NotTestable);
  EXPECT_EQ(l2.at("shared_vs_global").reason, "the largest chase (32 MiB) fits in the 60 MiB L2");
  // The JSON and the text name the verdict, the reason and the count.
  const Json j = evaluate_json(run({{"copy_engines", 3}}));
  EXPECT_EQ(j["counts"]["not_testable"], 1);
  bool seen = false;
  for (const auto& c : j["claims"]) {
    if (c["id"] != "one_copy_engine") continue;
    seen = true;
    EXPECT_EQ(c["verdict"], "not testable here");
    EXPECT_EQ(c["reason"], "3 copy engines");
    EXPECT_NE(c["condition"].get<std::string>().find("one copy engine"), std::string::npos);
  }
  EXPECT_TRUE(seen);
  const std::string text = render_table(evaluate(run({{"copy_engines", 3}})), {}, Json::object());
  EXPECT_NE(text.find("not testable here: 3 copy engines"), std::string::npos) << text;
  EXPECT_NE(text.find("1 not testable here"), std::string::npos) << text;
}

// Issue 19 #9: seed 003's claims on the 12-01 run (events lesson; the event timer's quantum from
// every sample of the run).
TEST(Claims, Seed003OnTheH200Run) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) +
                  "/docs/results/h200-2026-12-01-claims-records.json");
  ASSERT_TRUE(f.good());
  const auto v = verdicts(Json::parse(f));
  // Every event-timed sample is a multiple of 32 ns: finer than the seed's 0.5 us.
  EXPECT_EQ(v.at("event_resolution_0_5us").verdict, Verdict::HoldsDifferent);
  EXPECT_NEAR(v.at("event_resolution_0_5us").number, 0.032, 1e-9);
  EXPECT_EQ(v.at("two_streams_sum").verdict, Verdict::Holds);
  EXPECT_NEAR(v.at("two_streams_sum").number, 1.545, 0.001);
  EXPECT_EQ(v.at("host_timer_launch_only").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("event_needs_sync").verdict, Verdict::Holds);
  EXPECT_EQ(v.at("one_copy_engine").verdict, Verdict::NotTestable);
  EXPECT_EQ(v.at("shared_vs_global").verdict, Verdict::Holds);  // 1 GiB > 60 MiB L2
}

// Issue 19 #9, found re-reading seeds 000-002: sectors, strided kernels far below the peak, and a
// false one (a warp's same-address global loads are one request, not 32).
TEST(Claims, SeedsRereadOnTheH200Run) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) +
                  "/docs/results/h200-2026-12-01-claims-records.json");
  std::ifstream g(std::string(MEMLAB_SOURCE_DIR) + "/docs/results/h200-2026-12-01-coalescing.json");
  ASSERT_TRUE(f.good() && g.good());
  const auto v = verdicts(Json::parse(f));
  EXPECT_EQ(v.at("global_same_address_32").verdict, Verdict::DoesNotHold);
  EXPECT_NEAR(v.at("global_same_address_32").number, 588.04 / 59.49, 0.05);
  const auto c = verdicts(Json::parse(g));
  EXPECT_EQ(c.at("sector_32b_waste").verdict, Verdict::Holds);  // 7.5x
  EXPECT_NEAR(c.at("sector_32b_waste").number, 0.4949 / 0.0660, 0.05);
  EXPECT_EQ(c.at("strided_below_peak").verdict, Verdict::Holds);  // 4.7% of peak
}

TEST(Claims, EventQuantumWithoutACommonMultipleDoesNotHold) {
  Json a = record("events", "kernel", Json::object(), 1.0);
  a["timing"] = "warm";
  a["stats"]["samples_ms"] = {1.0, 1.0007, 1.0019};  // 700 ns and 1.2 us apart: no 0.5 us grid
  const auto v = verdicts({{"records", {a}}});
  EXPECT_EQ(v.at("event_resolution_0_5us").verdict, Verdict::DoesNotHold);
}

// A run with two values of an axis the claim does not name (bank_conflicts iters): the ratio pairs
// records of the same point. Pairing the first stride1 record found (iters=64, 0.043 ms) with the
// strided one at iters=8192 (4.25 ms) gave 99x for the stride-32 conflict instead of 30x.
TEST(Claims, RatiosPairRecordsOfTheSamePoint) {
  auto at = [](const std::string& stride, const std::string& iters) {
    return Json{{"word", "4"}, {"op", "read"}, {"stride", stride}, {"iters", iters}};
  };
  const Json run = {{"records",
                     {record("bank_conflicts", "stride1", at("32", "64"), 0.043),
                      record("bank_conflicts", "strided", at("32", "8192"), 4.25),
                      record("bank_conflicts", "stride1", at("32", "8192"), 0.1404),
                      record("bank_conflicts", "strided", at("32", "64"), 1.30),
                      record("bank_conflicts", "strided", at("2", "64"), 0.086),
                      record("bank_conflicts", "stride1", at("2", "8192"), 0.1404),
                      record("bank_conflicts", "strided", at("2", "8192"), 0.2725),
                      record("bank_conflicts", "stride1", at("2", "64"), 0.043),
                      record("bank_conflicts", "stride1", at("1", "64"), 0.043),
                      record("bank_conflicts", "broadcast", at("1", "8192"), 0.1404),
                      record("bank_conflicts", "stride1", at("1", "8192"), 0.1404)}}};
  const auto v = verdicts(run);
  EXPECT_EQ(v.at("stride32_32way").verdict, Verdict::Holds);
  EXPECT_NEAR(v.at("stride32_32way").number, 4.25 / 0.1404, 1e-9);  // 30.3x, not 4.25 / 0.043
  EXPECT_NE(v.at("stride32_32way").evidence.find("iters=8192"), std::string::npos);
  EXPECT_EQ(v.at("stride32_32way").evidence.find("iters=64"), std::string::npos);
  EXPECT_EQ(v.at("stride2_2way").verdict, Verdict::Holds);    // 0.086 / 0.043 and 0.2725 / 0.1404
  EXPECT_EQ(v.at("broadcast_free").verdict, Verdict::Holds);  // 1.0x at iters=8192, not 3.3x
  // gcd(s, 32) at every (stride, iters) pair: 2.0, 1.94, 30.3, 30.2 -> within 15%.
  EXPECT_EQ(v.at("gcd_degree").verdict, Verdict::Holds);
}

TEST(Claims, LevelsArePlateausFlatWithin3Percent) {
  // A slow rise never chains into one plateau; transitions belong to none.
  const auto levels = detect_levels({{1 << 14, 33},
                                     {1 << 17, 33.5},
                                     {1 << 18, 150},
                                     {1 << 20, 250},
                                     {1 << 23, 252},
                                     {1 << 25, 255},
                                     {1 << 26, 420},
                                     {1 << 27, 610},
                                     {1 << 29, 640},
                                     {1 << 30, 650}});
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].to_bytes, 1 << 17);
  EXPECT_EQ(levels[1].from_bytes, 1 << 20);
  EXPECT_EQ(levels[1].to_bytes, 1 << 25);
  EXPECT_EQ(levels[1].cycles, 252);
  EXPECT_EQ(levels[1].points, 3);
  // 610, 640, 650 is no plateau (610 is 4.7% below 640); of 610, 640 and 640, 650 the flatter.
  EXPECT_EQ(levels[2].from_bytes, 1 << 29);
  EXPECT_EQ(levels[2].to_bytes, 1 << 30);
  EXPECT_TRUE(detect_levels({}).empty());
  EXPECT_TRUE(detect_levels({{1 << 14, 33}}).empty());  // one point shows no plateau
}

// Issue 19 #5: the 12-01 sweep (4 KiB .. 4 GiB) has L1, L2, the L2's far partition and HBM; the
// claims run of that day (two working sets) found only two "levels".
TEST(Claims, LevelsOfTheH200Sweep) {
  std::ifstream f(std::string(MEMLAB_SOURCE_DIR) +
                  "/docs/results/h200-2026-12-01-hierarchy-sweep.json");
  ASSERT_TRUE(f.good());
  const auto levels = levels_of(Json::parse(f));
  ASSERT_EQ(levels.size(), 4u);
  const char* names[] = {"L1", "L2", "L2 far", "HBM"};
  const double cycles[] = {41.0, 290.4, 343.2, 664.9};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(levels[i].name, names[i]);
    EXPECT_NEAR(levels[i].cycles, cycles[i], 0.1) << names[i];
    EXPECT_LE(levels[i].spread, 0.03) << names[i];
    EXPECT_GE(levels[i].points, 2) << names[i];
  }
  EXPECT_EQ(levels[0].to_bytes, 131072);
  EXPECT_EQ(levels[1].from_bytes, 524288);
  EXPECT_EQ(levels[1].to_bytes, 8388608);
  EXPECT_EQ(levels[2].from_bytes, 16777216);
  EXPECT_EQ(levels[3].from_bytes, 536870912);
  EXPECT_EQ(levels[3].to_bytes, 4294967296.0);
  // The lesson's findings (docs/lessons-json.md): the levels by key, then the other chains.
  std::ifstream full(std::string(MEMLAB_SOURCE_DIR) +
                     "/docs/results/h200-2026-12-01-claims-records.json");
  std::ifstream sweep(std::string(MEMLAB_SOURCE_DIR) +
                      "/docs/results/h200-2026-12-01-hierarchy-sweep.json");
  std::map<std::string, Json> by_key;
  for (const auto& x : hierarchy_findings(Json::parse(sweep))) by_key[x["key"]] = x;
  EXPECT_NEAR(by_key.at("level.L2_far")["value"].get<double>(), 343.2, 0.1);
  EXPECT_EQ(by_key.at("level.HBM")["x_from"].get<double>(), 536870912.0);
  EXPECT_EQ(by_key.count("level.TLB"), 0u);  // none shows up to 4 GiB
  by_key.clear();
  for (const auto& x : hierarchy_findings(Json::parse(full))) by_key[x["key"]] = x;
  EXPECT_NEAR(by_key.at("latency.chase_shared")["value"].get<double>(), 30.0, 0.1);
  EXPECT_NEAR(by_key.at("latency.chase_register")["value"].get<double>(), 5.19, 0.01);
  EXPECT_NEAR(by_key.at("latency.atomic_chain")["value"].get<double>(), 382.7, 0.1);
  EXPECT_NEAR(by_key.at("latency.chase_host")["value"].get<double>(), 2380, 1);
  EXPECT_EQ(by_key.at("level.L1")["unit"], "cycles");
  // A later plateau 1.1x above HBM is a TLB step; without the device's sizes: numbered levels.
  auto level = [](double from, double to, double c) {
    Level x;
    x.from_bytes = from;
    x.to_bytes = to;
    x.cycles = c;
    return x;
  };
  std::vector<Level> l = {level(1, 2, 40), level(4, 8, 290), level(100, 200, 600),
                          level(400, 800, 700)};
  name_levels(l, 3, 50);
  EXPECT_EQ(l[3].name, "TLB");
  name_levels(l, 0, 0);
  EXPECT_EQ(l[0].name, "level 1");
}

}  // namespace
}  // namespace memlab::claims
