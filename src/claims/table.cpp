// The claims of the seeds, each with the records that test it and its verdict rule: the memory
// hierarchy, banks, transfers and bandwidth here; streams and events in table_streams.cpp.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "rules.hpp"

namespace memlab::claims {
namespace rules {

void add_memory_claims(std::vector<Claim>& c) {
  const auto bank_need =
      need("bank_conflicts", {"stride1", "strided", "broadcast", "col_32x32", "col_32x33"},
           {{"word", {"4"}}, {"op", {"read"}}});
  c.push_back(
      {"shared_vs_global",
       k000 + "45",
       "Zugriff ist ~10-100x schneller als Global Memory",
       "hierarchy chase_ca (largest ws) / chase_shared (ws <= 32 KiB), cycles per load",
       "latency ratio in [10, 100]: holds; > 1: the ratio; <= 1: does not hold",
       {need("hierarchy", {"chase_ca", "chase_shared"})},  // the default ws sweep: the levels too
       [](const Records& rs) {
         const Json* g = chase_at(rs, "chase_ca", true);
         const Json* s = chase_at(rs, "chase_shared", false);
         if (g == nullptr || s == nullptr) return missing("hierarchy chase_ca/chase_shared");
         const double a = figure(*g, "cycles_per_load"), b = figure(*s, "cycles_per_load");
         return judge(
             a / b, 10, 100, 1, "x",
             fmt::format("{}: {:.4g} cycles; {}: {:.4g} cycles", label(*g), a, label(*s), b));
       },
       "the largest chase_ca working set exceeds the L2 (else it times the L2, not "
       "global memory)",
       [](const Records& rs) {
         const Json* g = chase_at(rs, "chase_ca", true);
         const Json& ctx = rs.context();
         if (g == nullptr || !ctx.contains("device") || !ctx["device"].contains("l2_bytes"))
           return std::string();
         const double ws = std::stod(g->at("params").at("ws").get<std::string>());
         const double l2 = ctx["device"]["l2_bytes"].get<double>();
         return ws > l2 ? std::string()
                        : fmt::format(
                              "the largest chase ({:.0f} MiB) fits in the {:.0f} "
                              "MiB L2",
                              ws / 1048576, l2 / 1048576);
       }});
  c.push_back({"registers_1_cycle",
               k001 + "17",
               "Register: Latenz ~1 Takt (Groessenordnung)",
               "hierarchy chase_register: cycles per dependent IMAD",
               "<= 2 cycles: holds; otherwise the number (registers are still the fastest)",
               {need("hierarchy", {"chase_register"})},
               [](const Records& rs) {
                 return cycles_claim(rs, "hierarchy", "chase_register", {}, 0, 2, 0);
               },
               "",
               nullptr});
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
       },
       "",
       nullptr});
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
       },
       "",
       nullptr});
  c.push_back({"global_atomics_hundreds",
               k000 + "309",
               "atomicAdd auf Global Memory: ~hunderte Zyklen Latenz",
               "hierarchy atomic_chain (smallest ws): cycles per dependent atomicAdd",
               "100..999 cycles: holds; otherwise the number",
               {need("hierarchy", {"atomic_chain"})},
               [](const Records& rs) {
                 return cycles_claim(rs, "hierarchy", "atomic_chain", {}, 100, 999, 0);
               },
               "",
               nullptr});
  c.push_back({"privatization_10x",
               k000 + "346",
               "Speedup durch Privatisierung: typisch >10x gegenueber naiver globaler Atomics",
               "histogram naive / privatized at dist=text",
               ">= 10x: holds; > 1: the speed-up; <= 1: does not hold",
               {need("histogram", {"naive", "privatized"}, {{"dist", {"text", "single"}}})},
               [](const Records& rs) {
                 return time_ratio(rs, "histogram", "naive", {{"dist", "text"}}, "privatized",
                                   {{"dist", "text"}}, 10, 1e9);
               },
               "",
               nullptr});
  c.push_back({"shared_atomics_100x",
               k000 + "317",
               "Atomics auf Shared Memory: ~100x schneller als DRAM-Atomics",
               "histogram naive / privatized at dist=single (one hot bin)",
               "30..300x: holds; > 1: the speed-up; <= 1: does not hold",
               {need("histogram", {"naive", "privatized"}, {{"dist", {"text", "single"}}})},
               [](const Records& rs) {
                 return time_ratio(rs, "histogram", "naive", {{"dist", "single"}}, "privatized",
                                   {{"dist", "single"}}, 30, 300);
               },
               "",
               nullptr});
  c.push_back({"stride32_32way",
               k000 + "123",
               "Stride 32 ist der schlimmste Fall: 32-fache Serialisierung",
               "bank_conflicts strided / stride1 at stride=32, 4-byte words",
               "27..37x (32 +-15%): holds; > 1: the factor",
               {bank_need},
               [](const Records& rs) {
                 return time_ratio(rs, "bank_conflicts", "strided", bank("32"), "stride1",
                                   bank("32"), 27.2, 36.8);
               },
               "",
               nullptr});
  c.push_back({"stride2_2way",
               k000 + "116",
               "s[threadIdx.x * 2]: 2-facher Bank Conflict",
               "bank_conflicts strided / stride1 at stride=2, 4-byte words",
               "1.7..2.3x: holds; > 1: the factor",
               {bank_need},
               [](const Records& rs) {
                 return time_ratio(rs, "bank_conflicts", "strided", bank("2"), "stride1", bank("2"),
                                   1.7, 2.3);
               },
               "",
               nullptr});
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
               },
               "",
               nullptr});
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
               },
               "",
               nullptr});
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
               },
               "",
               nullptr});
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
               },
               "",
               nullptr});
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
       },
       "",
       nullptr});
  // Found re-reading the seeds line by line (issue 19 #9).
  const Point e4 = {{"elem", "4"}, {"offset", "0"}};
  Point e4s8 = e4, e4s1 = e4, e4s32 = e4;
  e4s8["stride"] = "8";
  e4s1["stride"] = "1";
  e4s32["stride"] = "32";
  c.push_back(
      {"sector_32b_waste",
       k001 + "111",
       "Bei grossem Stride holt die Hardware ganze 32-Byte-Sektoren, obwohl nur 4 Byte davon "
       "gebraucht werden",
       "coalescing strided_read, 4-byte elements: time at stride 8 (32 B apart) / stride 1",
       "6.8..9.2x (32 B fetched per 4 useful, +-15%): holds; > 1: the factor",
       {need("coalescing", {"strided_read"},
             {{"elem", {"4"}}, {"stride", {"1", "8", "32"}}, {"offset", {"0"}}})},
       [=](const Records& rs) {
         return time_ratio(rs, "coalescing", "strided_read", e4s8, "strided_read", e4s1, 6.8, 9.2);
       },
       "",
       nullptr});
  c.push_back({"strided_below_peak",
               k002 + "22",
               "stridierte Kernel liegen deutlich darunter",
               "coalescing strided_read, 4-byte elements, stride 32: % of the theoretical peak",
               "< 35% of peak (half the 70% of coalesced kernels): holds; otherwise does not hold",
               {need("coalescing", {"strided_read"},
                     {{"elem", {"4"}}, {"stride", {"1", "8", "32"}}, {"offset", {"0"}}})},
               [=](const Records& rs) {
                 const Json* r = rs.find("coalescing", "strided_read", e4s32);
                 if (r == nullptr) return missing("coalescing strided_read elem=4 stride=32");
                 return judge(r->value("pct_peak_bandwidth", NAN), 0, 35, 1e9, "% of peak",
                              label(*r));
               },
               "",
               nullptr});
  c.push_back(
      {"global_same_address_32",
       k000 + "222",
       "Global Memory: 32 Threads x gleiche Adresse = 32 separate Anfragen",
       "constant_memory global mode=throughput: cycles at distinct=32 / distinct=1 (32 lines "
       "against one address per warp load)",
       "<= 1.5x (one address as dear as 32): holds; more: does not hold (one request serves the "
       "warp)",
       {need("constant_memory", {"global"}, {{"distinct", {"1", "32"}}, {"mode", {"throughput"}}})},
       [](const Records& rs) {
         const Json* a =
             rs.find("constant_memory", "global", {{"distinct", "32"}, {"mode", "throughput"}});
         const Json* b =
             rs.find("constant_memory", "global", {{"distinct", "1"}, {"mode", "throughput"}});
         if (a == nullptr || b == nullptr) return missing("constant_memory global throughput");
         const double x = figure(*a, "cycles_per_load"), y = figure(*b, "cycles_per_load");
         return judge(x / y, 0, 1.5, 1e9, "x",
                      fmt::format("distinct=32: {:.4g} cycles, distinct=1: {:.4g}", x, y));
       },
       "",
       nullptr});
}

void add_device_claims(std::vector<Claim>& c) {
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
               },
               "",
               nullptr});
  c.push_back(
      {"constant_64k",
       k000 + "228",
       "Constant Memory: 64 kB pro GPU",
       "memlab info: const_mem_bytes",
       "== 64 KiB: holds",
       {},
       [](const Records& rs) { return device_claim(rs, "const_mem_bytes", 64, 64, " KiB", 1024); },
       "",
       nullptr});
  c.push_back({"registers_256k",
               k001 + "15",
               "Register: 64 K x 32 Bit = 256 KB je SM",
               "memlab info: regs_per_sm",
               "== 65536: holds",
               {},
               [](const Records& rs) {
                 return device_claim(rs, "regs_per_sm", 65536, 65536, " registers", 1);
               },
               "",
               nullptr});
  c.push_back({"shared_48_192k",
               k000 + "352",
               "Shared Memory begrenzt auf ~48-192 kB",
               "memlab info: smem_per_block_optin_bytes",
               "48..192 KiB: holds; otherwise the size",
               {},
               [](const Records& rs) {
                 return device_claim(rs, "smem_per_block_optin_bytes", 48, 192, " KiB", 1024);
               },
               "",
               nullptr});
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
               },
               "",
               nullptr});
}

}  // namespace rules

namespace {

std::vector<Claim> make_claims() {
  std::vector<Claim> c;
  rules::add_memory_claims(c);
  rules::add_stream_claims(c);
  rules::add_device_claims(c);
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
  for (const auto& c : all()) {
    Evaluation e = c.evaluate(rs);
    const std::string why = c.unmet ? c.unmet(rs) : std::string();
    if (!why.empty()) {
      e.verdict = Verdict::NotTestable;
      e.reason = why;
    }
    out.push_back(Result{&c, std::move(e)});
  }
  return out;
}

}  // namespace memlab::claims
