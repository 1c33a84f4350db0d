// The claims of the seeds on streams and events (seeds 001 and 003): the records of the streams,
// default_stream and events lessons, and the device's copy engines they depend on.
#include <algorithm>
#include <cmath>

#include "rules.hpp"

namespace memlab::claims::rules {
namespace {

// The device's copy engines (asyncEngineCount), or -1 when the run does not record them.
int copy_engines(const Records& rs) {
  const Json& ctx = rs.context();
  if (!ctx.contains("device") || !ctx["device"].contains("copy_engines")) return -1;
  return ctx["device"]["copy_engines"].get<int>();
}

std::string engines(int n) {
  return n < 0 ? "the run does not record the copy engine count"
               : fmt::format("{} copy engine{}", n, n == 1 ? "" : "s");
}

// Overlapping a copy with a kernel needs a copy engine (asyncEngineCount >= 1).
std::string unless_copy_engine(const Records& rs) {
  const int n = copy_engines(rs);
  return n >= 1 ? "" : engines(n);
}

// The resolution of the event timer: the quantum every event-timed sample of the run is a
// multiple of (the smallest positive difference between two samples of one record, in ns, checked
// against all samples). Records of 10 ms or more are left out: their float milliseconds round to
// more than 1 ns.
struct Quantum {
  double ns = NAN;
  std::size_t samples = 0, multiples = 0;
};
Quantum event_quantum(const Records& rs) {
  Quantum q;
  std::vector<std::vector<double>> all;
  for (const Json* r : rs.all()) {
    if (!r->contains("stats") || !(*r)["stats"].contains("samples_ms")) continue;
    if (r->value("timing", "") != "warm" && r->value("timing", "") != "cold") continue;
    if (median(*r) >= 10) continue;
    std::vector<double> ns;
    for (const auto& x : (*r)["stats"]["samples_ms"]) ns.push_back(x.get<double>() * 1e6);
    std::sort(ns.begin(), ns.end());
    for (std::size_t i = 1; i < ns.size(); ++i) {
      const double d = ns[i] - ns[i - 1];
      if (d > 1.5 && !(d >= q.ns)) q.ns = d;
    }
    all.push_back(std::move(ns));
  }
  if (!std::isfinite(q.ns)) return q;
  q.ns = std::round(q.ns);
  for (const auto& ns : all) {
    for (const double x : ns) {
      ++q.samples;
      q.multiples += std::abs(x - q.ns * std::round(x / q.ns)) <= 1.5 ? 1 : 0;
    }
  }
  return q;
}

}  // namespace

void add_event_claims(std::vector<Claim>& c);

void add_stream_claims(std::vector<Claim>& c) {
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
               },
               "a copy engine, so that copies overlap kernels",
               unless_copy_engine});
  c.push_back(
      {"one_copy_engine",
       k001 + "256",
       "Mit nur einer Kopier-Engine blockiert depth-first; 'erst alle Kopien hin' hilft",
       "streams depth_first / breadth_first at segments=8, streams=4 (and the engine count)",
       ">= 1.05x: holds; otherwise does not hold (only on a GPU with one copy engine: memlab "
       "cannot make a GPU with more use only one)",
       {need("streams", {"depth_first", "breadth_first"},
             {{"segments", {"8"}}, {"streams", {"4"}}})},
       [](const Records& rs) {
         const Point p = {{"segments", "8"}, {"streams", "4"}};
         Evaluation e = time_ratio(rs, "streams", "depth_first", p, "breadth_first", p, 1.05, 1e9);
         if (e.verdict == Verdict::HoldsDifferent) e.verdict = Verdict::DoesNotHold;
         if (e.verdict != Verdict::NoRecord) e.evidence += "; " + engines(copy_engines(rs));
         return e;
       },
       "one copy engine (the device's asyncEngineCount == 1)",
       [](const Records& rs) {
         const int n = copy_engines(rs);
         return n == 1 ? std::string() : engines(n);
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
               },
               "",
               nullptr});
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
       },
       "a copy engine (without one, pinned copies do not overlap kernels either)",
       unless_copy_engine});
  add_event_claims(c);
}

}  // namespace memlab::claims::rules

namespace memlab::claims::rules {

// Seed 003 (events and timing).
void add_event_claims(std::vector<Claim>& c) {
  c.push_back(
      {"host_timer_launch_only",
       k003 + "5",
       "CUDA内核启动后，CPU并不会等待GPU执行完毕，而是立即返回继续执行后续代码。因此，CPU侧计时器记"
       "录到的往往只是"
       "“内核启动指令发出”的时间，而非GPU真正完成计算的时间",
       "events kernel: host timer without synchronisation / event time of the same kernel",
       "< 0.1 of the event time: holds; otherwise does not hold",
       {need("events", {"kernel"})},
       [](const Records& rs) {
         const Json* r = rs.find("events", "kernel");
         if (r == nullptr) return missing("events kernel");
         const double host = figure(*r, "host_timer_no_sync_ms"), ev = figure(*r, "event_ms");
         Evaluation e =
             judge(host / ev, 0, 0.1, 1e9, "x of the event time",
                   fmt::format("{}: host timer {:.4g} ms, events {:.4g} ms", label(*r), host, ev));
         return e;
       },
       "",
       nullptr});
  c.push_back(
      {"event_resolution_0_5us",
       k003 + "12",
       "微秒级精度：在大多数现代GPU上，事件时间戳分辨率可达约0.5微秒",
       "the quantum of every event-timed sample of the run (samples_ms of records under 10 ms)",
       "0.25..1 us: holds; finer: holds with the finer number; coarser: does not hold",
       {need("events", {"kernel"})},
       [](const Records& rs) {
         const Quantum q = event_quantum(rs);
         Evaluation e;
         if (!std::isfinite(q.ns) || q.samples == 0) return missing("event-timed samples");
         e.number = q.ns / 1000.0;
         e.measured = fmt::format("{:.3g} us", e.number);
         e.evidence = fmt::format("{} of {} samples are multiples of {:.0f} ns", q.multiples,
                                  q.samples, q.ns);
         const bool quantum = q.multiples >= q.samples * 99 / 100;
         if (!quantum) {
           e.verdict = Verdict::DoesNotHold;
           e.evidence += ": no common quantum";
         } else if (e.number > 1.0) {
           e.verdict = Verdict::DoesNotHold;
         } else {
           e.verdict = e.number >= 0.25 ? Verdict::Holds : Verdict::HoldsDifferent;
         }
         return e;
       },
       "",
       nullptr});
  c.push_back({"event_needs_sync",
               k003 + "43",
               "如果不调用同步，cudaEventElapsedTime 可能读取到尚未更新的时间戳，导致结果不准确",
               "events kernel: cudaEventElapsedTime before the stop event completed",
               "cudaErrorNotReady (no time): holds; a time came back: does not hold this time",
               {need("events", {"kernel"})},
               [](const Records& rs) {
                 const Json* r = rs.find("events", "kernel");
                 if (r == nullptr) return missing("events kernel");
                 const double nr = figure(*r, "early_read_not_ready");
                 if (!std::isfinite(nr)) return missing("events kernel early_read_not_ready");
                 Evaluation e;
                 e.number = nr;
                 e.verdict = nr > 0.5 ? Verdict::Holds : Verdict::DoesNotHold;
                 e.measured = nr > 0.5 ? "cudaErrorNotReady" : "a time, no error";
                 e.evidence = label(*r) + ": early_read_not_ready = " + fmt::format("{}", nr);
                 return e;
               },
               "",
               nullptr});
  c.push_back({"two_streams_sum",
               k003 + "105",
               "两个内核可能部分重叠，此时 ms0 + ms1 会大于实际墙钟时间",
               "events two_streams: (stream0_ms + stream1_ms) / wall_ms, each from its own events",
               "> 1.05 with the kernels overlapping: holds; <= 1.05: does not hold",
               {need("events", {"two_streams"})},
               [](const Records& rs) {
                 const Json* r = rs.find("events", "two_streams");
                 if (r == nullptr) return missing("events two_streams");
                 const double sum = figure(*r, "sum_over_wall");
                 Evaluation e = judge(
                     sum, 1.05, 1e9, 1e9, "x the wall time",
                     fmt::format("{}: stream 0 {:.4g} ms + stream 1 {:.4g} ms over {:.4g} ms wall; "
                                 "{:.0f}% of the shorter kernel overlapped",
                                 label(*r), figure(*r, "stream0_ms"), figure(*r, "stream1_ms"),
                                 figure(*r, "wall_ms"), 100 * figure(*r, "overlap_of_shorter")));
                 return e;
               },
               "concurrent kernels (every GPU since compute capability 2.0; a run that records "
               "concurrent_kernels = false has none)",
               [](const Records& rs) {
                 const Json& ctx = rs.context();
                 const bool none = ctx.contains("device") &&
                                   ctx["device"].contains("concurrent_kernels") &&
                                   !ctx["device"]["concurrent_kernels"].get<bool>();
                 return none ? std::string("no concurrent kernels") : std::string();
               }});
}

}  // namespace memlab::claims::rules
