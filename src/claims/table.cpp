// The claims of the seeds, each with the records that test it and its verdict rule.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "memlab/claims/claims.hpp"

namespace memlab::claims {
namespace {

using Json = nlohmann::json;
using Point = std::map<std::string, std::string>;

const std::string k000 = "000_8337f15f37bac5ed.txt:";
const std::string k001 = "001_ac69ca6544deb750.txt:";
const std::string k002 = "002_e800db24ba7d1405.txt:";
const std::string k004 = "004_0b408c8cb173ece1.txt:";

double median(const Json& r) {
  return r.at("stats").at("median_ms").get<double>();
}

double figure(const Json& r, const std::string& name) {
  if (!r.contains("figures") || !r["figures"].contains(name)) return NAN;
  return r["figures"][name].get<double>();
}

std::string label(const Json& r) {
  std::string s = r.value("experiment", "") + " " + r.value("variant", "");
  if (r.contains("params")) {
    for (const auto& [k, v] : r["params"].items()) s += " " + k + "=" + v.get<std::string>();
  }
  return s;
}

// In [lo, hi]: holds; on the claimed side of 1 (same direction) but outside: a different number;
// otherwise it does not hold.
Evaluation judge(double x, double lo, double hi, double direction, const std::string& unit,
                 std::string evidence) {
  Evaluation e;
  e.number = x;
  e.measured = fmt::format("{:.3g}{}", x, unit);
  e.evidence = std::move(evidence);
  if (!std::isfinite(x)) {
    e.verdict = Verdict::NoRecord;
  } else if (x >= lo && x <= hi) {
    e.verdict = Verdict::Holds;
  } else if (x > direction) {
    e.verdict = Verdict::HoldsDifferent;
  } else {
    e.verdict = Verdict::DoesNotHold;
  }
  return e;
}

Evaluation missing(const std::string& what) {
  Evaluation e;
  e.evidence = "no record of " + what;
  return e;
}

// Time ratio slow / fast of two records (fast, slow given as experiment/variant/point).
Evaluation time_ratio(const Records& rs, const std::string& exp, const std::string& slow,
                      const Point& ps, const std::string& fast, const Point& pf, double lo,
                      double hi) {
  const Json* a = rs.find(exp, slow, ps);
  // The fast record at the slow one's point (all its parameters, not only those the claim names).
  Point differ;
  for (const auto& [k, v] : pf) {
    if (!ps.count(k) || ps.at(k) != v) differ[k] = v;
  }
  const Json* b = a == nullptr ? nullptr : rs.find_like(*a, fast, differ);
  if (a == nullptr || b == nullptr) return missing(exp + " " + slow + "/" + fast);
  return judge(
      median(*a) / median(*b), lo, hi, 1.0, "x",
      fmt::format("{}: {:.4g} ms; {}: {:.4g} ms", label(*a), median(*a), label(*b), median(*b)));
}

// Cycles per load of a hierarchy chase at the largest (or smallest) working set recorded.
const Json* chase_at(const Records& rs, const std::string& variant, bool largest) {
  const Json* best = nullptr;
  double best_ws = 0;
  for (const Json* r : rs.all("hierarchy", variant)) {
    const double ws = std::stod(r->at("params").at("ws").get<std::string>());
    if (best == nullptr || (largest ? ws > best_ws : ws < best_ws)) {
      best = r;
      best_ws = ws;
    }
  }
  return best;
}

Evaluation cycles_claim(const Records& rs, const std::string& exp, const std::string& variant,
                        const Point& p, double lo, double hi, double same_side) {
  const Json* r = exp == "hierarchy" ? chase_at(rs, variant, false) : rs.find(exp, variant, p);
  if (r == nullptr) return missing(exp + " " + variant);
  const double c = figure(*r, "cycles_per_load");
  return judge(c, lo, hi, same_side, " cycles",
               fmt::format("{}: {:.3g} cycles/load", label(*r), c));
}

Evaluation device_claim(const Records& rs, const std::string& key, double lo, double hi,
                        const std::string& unit, double scale) {
  const Json& ctx = rs.context();
  if (!ctx.contains("device") || !ctx["device"].contains(key)) return missing("device " + key);
  const double x = ctx["device"][key].get<double>() / scale;
  return judge(x, lo, hi, 0.0, unit, fmt::format("device {} = {}", key, ctx["device"][key].dump()));
}

Need need(std::string exp, std::vector<std::string> variants,
          std::map<std::string, std::vector<std::string>> axes = {}) {
  return Need{std::move(exp), std::move(variants), std::move(axes)};
}

const Point kBank4 = {{"word", "4"}, {"op", "read"}};
Point bank(const std::string& stride) {
  Point p = kBank4;
  p["stride"] = stride;
  return p;
}

std::vector<Claim> make_claims() {
  std::vector<Claim> c;
  const auto bank_need =
      need("bank_conflicts", {"stride1", "strided", "broadcast", "col_32x32", "col_32x33"},
           {{"word", {"4"}}, {"op", {"read"}}});
  c.push_back({"shared_vs_global",
               k000 + "45",
               "Zugriff ist ~10-100x schneller als Global Memory",
               "hierarchy chase_ca (largest ws) / chase_shared (ws <= 32 KiB), cycles per load",
               "latency ratio in [10, 100]: holds; > 1: the ratio; <= 1: does not hold",
               {need("hierarchy", {"chase_ca", "chase_shared"}, {{"ws", {"16384", "1073741824"}}})},
               [](const Records& rs) {
                 const Json* g = chase_at(rs, "chase_ca", true);
                 const Json* s = chase_at(rs, "chase_shared", false);
                 if (g == nullptr || s == nullptr)
                   return missing("hierarchy chase_ca/chase_shared");
                 const double a = figure(*g, "cycles_per_load"), b = figure(*s, "cycles_per_load");
                 return judge(a / b, 10, 100, 1, "x",
                              fmt::format("{}: {:.4g} cycles; {}: {:.4g} cycles", label(*g), a,
                                          label(*s), b));
               }});
  c.push_back({"registers_1_cycle",
               k001 + "17",
               "Register: Latenz ~1 Takt (Groessenordnung)",
               "hierarchy chase_register: cycles per dependent IMAD",
               "<= 2 cycles: holds; otherwise the number (registers are still the fastest)",
               {need("hierarchy", {"chase_register"}, {{"ws", {"16384"}}})},
               [](const Records& rs) {
                 return cycles_claim(rs, "hierarchy", "chase_register", {}, 0, 2, 0);
               }});
  c.push_back(
      {"constant_l1_latency",
       k000 + "230",
       "Constant Memory: Latenz wie L1-Cache (~1-5 Zyklen) bei Cache-Hit und identischer "
       "Adresse",
       "constant_memory constant distinct=1 mode=latency: cycles per dependent load",
       "<= 5 cycles: holds; otherwise the number",
       {need("constant_memory", {"constant"}, {{"distinct", {"1", "32"}}, {"mode", {"latency"}}})},
       [](const Records& rs) {
         return cycles_claim(rs, "constant_memory", "constant",
                             {{"distinct", "1"}, {"mode", "latency"}}, 0, 5, 0);
       }});
  c.push_back(
      {"constant_serialized",
       k000 + "232",
       "Bei unterschiedlichen Adressen wird der Zugriff serialisiert",
       "constant_memory constant mode=latency: cycles at distinct=32 / distinct=1",
       ">= 8x: holds (serialized); > 1: the ratio; <= 1: does not hold",
       {need("constant_memory", {"constant"}, {{"distinct", {"1", "32"}}, {"mode", {"latency"}}})},
       [](const Records& rs) {
         const Json* a =
             rs.find("constant_memory", "constant", {{"distinct", "32"}, {"mode", "latency"}});
         const Json* b =
             rs.find("constant_memory", "constant", {{"distinct", "1"}, {"mode", "latency"}});
         if (a == nullptr || b == nullptr) return missing("constant_memory constant");
         const double x = figure(*a, "cycles_per_load"), y = figure(*b, "cycles_per_load");
         return judge(x / y, 8, 64, 1, "x",
                      fmt::format("distinct=32: {:.4g} cycles, distinct=1: {:.4g}", x, y));
       }});
  c.push_back({"global_atomics_hundreds",
               k000 + "309",
               "atomicAdd auf Global Memory: ~hunderte Zyklen Latenz",
               "hierarchy atomic_chain (smallest ws): cycles per dependent atomicAdd",
               "100..999 cycles: holds; otherwise the number",
               {need("hierarchy", {"atomic_chain"}, {{"ws", {"16384"}}})},
               [](const Records& rs) {
                 return cycles_claim(rs, "hierarchy", "atomic_chain", {}, 100, 999, 0);
               }});
  c.push_back({"privatization_10x",
               k000 + "346",
               "Speedup durch Privatisierung: typisch >10x gegenueber naiver globaler Atomics",
               "histogram naive / privatized at dist=text",
               ">= 10x: holds; > 1: the speed-up; <= 1: does not hold",
               {need("histogram", {"naive", "privatized"}, {{"dist", {"text", "single"}}})},
               [](const Records& rs) {
                 return time_ratio(rs, "histogram", "naive", {{"dist", "text"}}, "privatized",
                                   {{"dist", "text"}}, 10, 1e9);
               }});
  c.push_back({"shared_atomics_100x",
               k000 + "317",
               "Atomics auf Shared Memory: ~100x schneller als DRAM-Atomics",
               "histogram naive / privatized at dist=single (one hot bin)",
               "30..300x: holds; > 1: the speed-up; <= 1: does not hold",
               {need("histogram", {"naive", "privatized"}, {{"dist", {"text", "single"}}})},
               [](const Records& rs) {
                 return time_ratio(rs, "histogram", "naive", {{"dist", "single"}}, "privatized",
                                   {{"dist", "single"}}, 30, 300);
               }});
  c.push_back({"stride32_32way",
               k000 + "123",
               "Stride 32 ist der schlimmste Fall: 32-fache Serialisierung",
               "bank_conflicts strided / stride1 at stride=32, 4-byte words",
               "27..37x (32 +-15%): holds; > 1: the factor",
               {bank_need},
               [](const Records& rs) {
                 return time_ratio(rs, "bank_conflicts", "strided", bank("32"), "stride1",
                                   bank("32"), 27.2, 36.8);
               }});
  c.push_back({"stride2_2way",
               k000 + "116",
               "s[threadIdx.x * 2]: 2-facher Bank Conflict",
               "bank_conflicts strided / stride1 at stride=2, 4-byte words",
               "1.7..2.3x: holds; > 1: the factor",
               {bank_need},
               [](const Records& rs) {
                 return time_ratio(rs, "bank_conflicts", "strided", bank("2"), "stride1", bank("2"),
                                   1.7, 2.3);
               }});
  c.push_back({"broadcast_free",
               k000 + "121",
               "Alle Threads lesen denselben Wert -> Broadcast, keine Serialisierung",
               "bank_conflicts broadcast / stride1, 4-byte words",
               "<= 1.1x: holds; otherwise the factor (does not hold)",
               {bank_need},
               [](const Records& rs) {
                 const Json* a = rs.find("bank_conflicts", "broadcast", kBank4);
                 const Json* b = a == nullptr ? nullptr : rs.find_like(*a, "stride1");
                 if (a == nullptr || b == nullptr) return missing("bank_conflicts broadcast");
                 Evaluation e =
                     judge(median(*a) / median(*b), 0, 1.1, 1e9, "x",
                           fmt::format("{:.4g} ms vs {:.4g} ms", median(*a), median(*b)));
                 return e;
               }});
  c.push_back({"gcd_degree",
               k001 + "195",
               "Fuer Stride s gilt: Konfliktgrad = ggT(s, 32)",
               "bank_conflicts strided / stride1 at every recorded stride, 4-byte words",
               "every ratio within 15% of gcd(s, 32): holds; worst deviation reported",
               {bank_need},
               [](const Records& rs) {
                 double worst = 0;
                 std::string ev;
                 int n = 0;
                 for (const Json* r : rs.all("bank_conflicts", "strided")) {
                   if (r->at("params").value("word", "") != "4" ||
                       r->at("params").value("op", "") != "read")
                     continue;
                   const std::string s = r->at("params").at("stride").get<std::string>();
                   const Json* b = rs.find_like(*r, "stride1");
                   if (b == nullptr) continue;
                   const double ratio = median(*r) / median(*b);
                   const double g = static_cast<double>(std::gcd(std::stoi(s), 32));
                   worst = std::max(worst, std::abs(ratio / g - 1));
                   ev += fmt::format("s={}: {:.2f}x (gcd {}); ", s, ratio, g);
                   ++n;
                 }
                 if (n == 0) return missing("bank_conflicts strided");
                 Evaluation e = judge(worst, 0, 0.15, 1e9, " worst relative deviation", ev);
                 if (e.verdict == Verdict::DoesNotHold && worst < 0.5)
                   e.verdict = Verdict::HoldsDifferent;
                 return e;
               }});
  c.push_back({"padding_33",
               k001 + "195",
               "Mit einer Fuellspalte (tile[32][33]) -> konfliktfrei",
               "bank_conflicts col_32x32 / col_32x33 and col_32x33 / stride1",
               "col_32x33 within 10% of stride1: holds; the 32x32/33 factor reported",
               {bank_need},
               [](const Records& rs) {
                 const Json* a = rs.find("bank_conflicts", "col_32x32", kBank4);
                 const Json* b = a == nullptr ? nullptr : rs.find_like(*a, "col_32x33");
                 const Json* s = a == nullptr ? nullptr : rs.find_like(*a, "stride1");
                 if (a == nullptr || b == nullptr || s == nullptr)
                   return missing("bank_conflicts col_*");
                 Evaluation e = judge(
                     median(*b) / median(*s), 0, 1.1, 1e9, "x of conflict-free",
                     fmt::format("32x32: {:.4g} ms, 32x33: {:.4g} ms ({:.1f}x "
                                 "faster), stride1: {:.4g} ms",
                                 median(*a), median(*b), median(*a) / median(*b), median(*s)));
                 return e;
               }});
  c.push_back({"pinned_2x",
               k000 + "374",
               "cudaMemcpy ist mit Pinned Memory typisch ~2x schneller",
               "transfers pageable / pinned, h2d, 1 GiB",
               "1.5..2.5x: holds; > 1: the factor; <= 1: does not hold",
               {need("transfers", {"pinned", "pageable"},
                     {{"direction", {"h2d"}}, {"size", {"1073741824"}}})},
               [](const Records& rs) {
                 const Point p = {{"direction", "h2d"}, {"size", "1073741824"}};
                 return time_ratio(rs, "transfers", "pageable", p, "pinned", p, 1.5, 2.5);
               }});
  c.push_back(
      {"effective_70_90",
       k002 + "22",
       "Koaleszierte, speichergebundene Kernel erreichen haeufig 70-90% der Spitzenbandbreite",
       "bandwidth f4_unroll4 op=copy: % of the theoretical peak",
       "70..90%: holds; otherwise the percentage",
       {need("bandwidth", {"f4_unroll4"}, {{"op", {"copy"}}})},
       [](const Records& rs) {
         const Json* r = rs.find("bandwidth", "f4_unroll4", {{"op", "copy"}});
         if (r == nullptr) return missing("bandwidth f4_unroll4 copy");
         const double pct = r->value("pct_peak_bandwidth", NAN);
         return judge(pct, 70, 90, 0, "% of peak", label(*r));
       }});
  c.push_back({"streams_1_82x",
               k001 + "254",
               "seriell 100, mit Streams 55: Beschleunigung 1.82x",
               "streams serial / best of depth_first, breadth_first at segments=8, streams=4",
               "1.55..2.09x (1.82 +-15%): holds; > 1: the speed-up",
               {need("streams", {"serial", "depth_first", "breadth_first"},
                     {{"segments", {"8"}}, {"streams", {"4"}}})},
               [](const Records& rs) {
                 const Point p = {{"segments", "8"}, {"streams", "4"}};
                 const Json* s = rs.find("streams", "serial", p);
                 const Json* d = rs.find("streams", "depth_first", p);
                 const Json* b = rs.find("streams", "breadth_first", p);
                 if (s == nullptr || d == nullptr || b == nullptr) return missing("streams");
                 const double best = std::min(median(*d), median(*b));
                 return judge(
                     median(*s) / best, 1.55, 2.09, 1, "x",
                     fmt::format("serial {:.4g} ms, depth-first {:.4g}, breadth-first {:.4g}",
                                 median(*s), median(*d), median(*b)));
               }});
  c.push_back(
      {"one_copy_engine",
       k001 + "256",
       "Mit nur einer Kopier-Engine blockiert depth-first; 'erst alle Kopien hin' hilft",
       "streams depth_first / breadth_first at segments=8, streams=4 (and the engine count)",
       ">= 1.05x: holds; otherwise does not hold on this GPU (its copy engines say why)",
       {need("streams", {"depth_first", "breadth_first"},
             {{"segments", {"8"}}, {"streams", {"4"}}})},
       [](const Records& rs) {
         const Point p = {{"segments", "8"}, {"streams", "4"}};
         Evaluation e = time_ratio(rs, "streams", "depth_first", p, "breadth_first", p, 1.05, 1e9);
         if (e.verdict == Verdict::HoldsDifferent) e.verdict = Verdict::DoesNotHold;
         const Json& ctx = rs.context();
         if (ctx.contains("device")) {
           e.evidence += fmt::format("; copy engines: {}", ctx["device"].value("copy_engines", 0));
         }
         return e;
       }});
  c.push_back({"legacy_default_stream",
               k001 + "273",
               "Der legacy Default-Stream synchronisiert mit allen anderen Streams",
               "default_stream legacy / per_thread",
               ">= 1.3x: holds; otherwise does not hold",
               {need("default_stream", {"legacy", "per_thread"})},
               [](const Records& rs) {
                 Evaluation e =
                     time_ratio(rs, "default_stream", "legacy", {}, "per_thread", {}, 1.3, 1e9);
                 if (e.verdict == Verdict::HoldsDifferent) e.verdict = Verdict::DoesNotHold;
                 return e;
               }});
  c.push_back(
      {"pageable_not_async",
       k001 + "259",
       "Host-Speicher muss pinned sein, sonst ist cudaMemcpyAsync nicht asynchron",
       "streams pageable / breadth_first at segments=8, streams=4",
       ">= 1.5x slower: holds; otherwise does not hold",
       {need("streams", {"pageable", "breadth_first"}, {{"segments", {"8"}}, {"streams", {"4"}}})},
       [](const Records& rs) {
         const Point p = {{"segments", "8"}, {"streams", "4"}};
         Evaluation e = time_ratio(rs, "streams", "pageable", p, "breadth_first", p, 1.5, 1e9);
         if (e.verdict == Verdict::HoldsDifferent) e.verdict = Verdict::DoesNotHold;
         return e;
       }});
  c.push_back({"tiling_reuse",
               k004 + "28",
               "Jeder geladene Wert wird von TILE Threads statt nur von einem verwendet",
               "matmul naive / tiled16 (time; the global reads fall 16x by the tiling model)",
               ">= 1x faster: holds with the speed-up as the number (time is not reads); <= 1: "
               "does not hold",
               {need("matmul", {"naive", "tiled16"})},
               [](const Records& rs) {
                 Evaluation e = time_ratio(rs, "matmul", "naive", {}, "tiled16", {}, 1e9, 1e9);
                 if (e.verdict == Verdict::HoldsDifferent)
                   e.evidence += "; reads / 16 by the model";
                 return e;
               }});
  c.push_back({"constant_64k",
               k000 + "228",
               "Constant Memory: 64 kB pro GPU",
               "memlab info: const_mem_bytes",
               "== 64 KiB: holds",
               {},
               [](const Records& rs) {
                 return device_claim(rs, "const_mem_bytes", 64, 64, " KiB", 1024);
               }});
  c.push_back({"registers_256k",
               k001 + "15",
               "Register: 64 K x 32 Bit = 256 KB je SM",
               "memlab info: regs_per_sm",
               "== 65536: holds",
               {},
               [](const Records& rs) {
                 return device_claim(rs, "regs_per_sm", 65536, 65536, " registers", 1);
               }});
  c.push_back({"shared_48_192k",
               k000 + "352",
               "Shared Memory begrenzt auf ~48-192 kB",
               "memlab info: smem_per_block_optin_bytes",
               "48..192 KiB: holds; otherwise the size",
               {},
               [](const Records& rs) {
                 return device_claim(rs, "smem_per_block_optin_bytes", 48, 192, " KiB", 1024);
               }});
  c.push_back({"barrier_catches_race",
               k004 + "23",
               "Wird __syncthreads() uebersprungen, entstehen falsche Ergebnisse",
               "syncthreads tiled_no_sync (expected failure) at block=256",
               "the check failed: holds; it passed (race not seen): does not hold this time",
               {need("syncthreads", {"tiled_sync", "tiled_no_sync"}, {{"block", {"256"}}})},
               [](const Records& rs) {
                 const Json* r = rs.find("syncthreads", "tiled_no_sync", {{"block", "256"}});
                 if (r == nullptr || !r->contains("expected_failure"))
                   return missing("syncthreads tiled_no_sync");
                 const bool seen = (*r)["expected_failure"].value("observed", false);
                 Evaluation e;
                 e.verdict = seen ? Verdict::Holds : Verdict::DoesNotHold;
                 e.number = r->value("check_error", 0.0);
                 e.measured = fmt::format("{:.0f} wrong elements", e.number);
                 e.evidence = label(*r) + ": " + r->value("check_detail", std::string("passed"));
                 return e;
               }});
  return c;
}

}  // namespace

const std::vector<Claim>& all() {
  static const std::vector<Claim> claims = make_claims();
  return claims;
}

std::vector<Result> evaluate(const nlohmann::json& run) {
  const Records rs(run);
  std::vector<Result> out;
  for (const auto& c : all()) out.push_back(Result{&c, c.evaluate(rs)});
  return out;
}

}  // namespace memlab::claims
