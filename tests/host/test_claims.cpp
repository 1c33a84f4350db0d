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
  EXPECT_EQ(v.at("one_copy_engine").verdict, Verdict::DoesNotHold);  // 3 copy engines
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
                record("default_stream", "per_thread", Json::object(), 1.0)}}};
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

TEST(Claims, LevelsAreDetectedWhereTheLatencySteps) {
  const auto levels = detect_levels({{1 << 14, 33},
                                     {1 << 17, 34},
                                     {1 << 20, 250},
                                     {1 << 23, 260},
                                     {1 << 25, 262},
                                     {1 << 27, 610},
                                     {1 << 30, 640}});
  ASSERT_EQ(levels.size(), 3u);
  EXPECT_EQ(levels[0].to_bytes, 1 << 17);
  EXPECT_EQ(levels[1].from_bytes, 1 << 20);
  EXPECT_EQ(levels[1].to_bytes, 1 << 25);
  EXPECT_EQ(levels[1].cycles, 260);
  EXPECT_EQ(levels[2].from_bytes, 1 << 27);
  EXPECT_TRUE(detect_levels({}).empty());
}

}  // namespace
}  // namespace memlab::claims
