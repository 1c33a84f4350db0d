// Registration of the l2_persistence lesson: a hot table gathered while cold data streams past,
// with and without an L2 access policy window (see kernels.cuh).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <utility>
#include <vector>

#include "l2_persistence/kernels.cuh"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::l2_persistence {
namespace {

using bench::Params;

enum class Variant { kNoWindow, kPersisting, kStreaming, kColdEvictFirst };
struct VariantInfo {
  Variant id;
  const char* name;
  const char* description;
};
constexpr VariantInfo kVariants[] = {
    {Variant::kNoWindow, "no_window", "no access policy: the table competes with the stream"},
    {Variant::kPersisting, "persisting", "window over the table, hitProp persisting (set-aside)"},
    {Variant::kStreaming, "streaming", "the same window with hitProp streaming (evict-first)"},
    {Variant::kColdEvictFirst, "cold_evict_first",
     "no window; the cold stream loaded and stored with evict-first hints (.cs)"},
};

// What the device allows, read once from its attributes.
struct L2Limits {
  std::size_t l2 = 0, max_persisting = 0, max_window = 0;
};
const L2Limits& limits() {
  static const L2Limits l = [] {
    int device = 0, l2 = 0, persist = 0, window = 0;
    MEMLAB_CUDA_CHECK(cudaGetDevice(&device));
    MEMLAB_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
    MEMLAB_CUDA_CHECK(
        cudaDeviceGetAttribute(&persist, cudaDevAttrMaxPersistingL2CacheSize, device));
    MEMLAB_CUDA_CHECK(
        cudaDeviceGetAttribute(&window, cudaDevAttrMaxAccessPolicyWindowSize, device));
    return L2Limits{static_cast<std::size_t>(l2), static_cast<std::size_t>(persist),
                    static_cast<std::size_t>(window)};
  }();
  return l;
}

std::size_t table_floats(const Params& p) {
  return static_cast<std::size_t>(p.n("hot_kb")) * 1024 / 4;
}
std::size_t window_bytes(const Params& p) {
  const std::size_t want = table_floats(p) * 4 * static_cast<std::size_t>(p.n("window_pct")) / 100;
  return std::min(want, limits().max_window);
}
float hit_ratio(const Params& p) {
  return static_cast<float>(p.n("hit_pct")) / 100.0f;
}

// Sets cudaLimitPersistingL2CacheSize for the life of one point and restores the old value.
class PersistingLimit {
 public:
  PersistingLimit() = default;
  void set(std::size_t bytes) {
    active_ = true;
    MEMLAB_CUDA_CHECK(cudaDeviceGetLimit(&old_, cudaLimitPersistingL2CacheSize));
    MEMLAB_CUDA_CHECK(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, bytes));
    MEMLAB_CUDA_CHECK(cudaDeviceGetLimit(&granted_, cudaLimitPersistingL2CacheSize));
  }
  PersistingLimit(PersistingLimit&& o) noexcept
      : active_(std::exchange(o.active_, false)), old_(o.old_), granted_(o.granted_) {}
  PersistingLimit& operator=(PersistingLimit&&) = delete;
  ~PersistingLimit() {
    if (active_) {
      cudaCtxResetPersistingL2Cache();
      cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, old_);
    }
  }
  std::size_t granted() const { return granted_; }

 private:
  bool active_ = false;
  std::size_t old_ = 0, granted_ = 0;
};

struct State {
  std::size_t n = 0, table_n = 0;
  std::uint64_t seed = 0;
  DeviceBuffer<float> cold, table, out;
  PersistingLimit limit;
  Window window;
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.table_n = table_floats(p);
  st.seed = seed;
  st.cold = DeviceBuffer<float>(st.n);
  st.table = DeviceBuffer<float>(st.table_n);
  st.out = DeviceBuffer<float>(st.n);
  fill_uniform(st.cold.get(), st.n, seed, -1.0f, 1.0f, nullptr);
  fill_uniform(st.table.get(), st.table_n, seed + 1, -1.0f, 1.0f, nullptr);
  st.window.bytes = window_bytes(p);
  st.window.hit_ratio = hit_ratio(p);
  if (limits().max_persisting > 0) {
    st.limit.set(std::min(st.window.bytes, limits().max_persisting));
  }
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

void run(State& st, Variant v, cudaStream_t s) {
  // Every sample starts with no persisting lines: the L2 flush between samples writes normal
  // lines, which do not evict persisting ones, so without this reset the table would stay warm.
  if (limits().max_persisting > 0) MEMLAB_CUDA_CHECK(cudaCtxResetPersistingL2Cache());
  Window w = st.window;
  bool evict_first = false;
  switch (v) {
    case Variant::kNoWindow:
      w.policy = Policy::kNone;
      break;
    case Variant::kPersisting:
      w.policy = Policy::kPersisting;
      break;
    case Variant::kStreaming:
      w.policy = Policy::kStreaming;
      break;
    case Variant::kColdEvictFirst:
      w.policy = Policy::kNone;
      evict_first = true;
      break;
  }
  launch_gather(st.cold.get(), st.table.get(), st.out.get(), st.n, st.table_n, w, evict_first, s);
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<float> got(st.n);
  st.out.copy_to_host(got.data(), st.n);
  std::atomic<std::size_t> bad{0};
  std::mutex m;
  std::string detail;
  bench::parallel_for(st.n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      const float g = random_uniform(st.seed + 1, table_index(i / kGroup, st.table_n), -1.f, 1.f);
      const float want = random_uniform(st.seed, i, -1.0f, 1.0f) + g;
      if (!(got[i] == want) && bad.fetch_add(1) < 5) {
        std::lock_guard<std::mutex> lock(m);
        detail += bench::describe_mismatch(i, got[i], want);
      }
    }
  });
  bench::Check c;
  c.error = static_cast<double>(bad.load());
  c.ok = bad.load() == 0;
  if (!c.ok) c.detail = fmt::format("{} of {} differ;{}", bad.load(), st.n, detail);
  return c;
}

// DRAM bytes: the cold stream (read + write), the table once, and a 64-byte DRAM access for each
// gather that misses. Misses: LRU keeps the table while 3 x table fits in L2 (kernels.cuh); a
// persisting window protects min(window x hitRatio, set-aside) bytes of it; streaming: all miss.
std::optional<bench::Prediction> predict(Variant v, const Params& p) {
  if (device_count_or_zero() == 0) return std::nullopt;  // the model needs the L2 sizes
  const double n = static_cast<double>(p.n("n"));
  const double table = 4.0 * static_cast<double>(table_floats(p));
  const double l2 = static_cast<double>(limits().l2);
  const double gathers = std::ceil(n / kGroup);
  auto lru_miss = [](double bytes, double cache) {
    return bytes <= 0 || 3.0 * bytes <= cache ? 0.0 : 1.0 - cache / (3.0 * bytes);
  };
  double miss = 0;
  std::string why;
  switch (v) {
    case Variant::kNoWindow:
      miss = lru_miss(table, l2);
      why = "LRU: table stays while 3 x table fits in L2";
      break;
    case Variant::kColdEvictFirst:
      miss = table <= l2 ? 0.0 : 1.0 - l2 / table;
      why = "cold stream evict-first: the table alone competes for L2";
      break;
    case Variant::kPersisting: {
      const double aside = static_cast<double>(std::min(window_bytes(p), limits().max_persisting));
      const double kept = std::min(static_cast<double>(window_bytes(p)) * hit_ratio(p), aside);
      const double rest = table - std::min(kept, table);
      miss = (rest / table) * (rest > 0 ? std::max(0.5, lru_miss(rest, l2 - aside)) : 0.0);
      why = fmt::format("persisting: {:.1f} MB of the table protected", kept / 1e6);
      break;
    }
    case Variant::kStreaming:
      miss = 1.0;
      why = "hitProp streaming: every gather misses";
      break;
  }
  bench::Prediction pr;
  pr.dram_bytes = 8.0 * n + table + 64.0 * gathers * miss;
  pr.model = fmt::format("l2: {}; miss {:.2f}", why, miss);
  return pr;
}

void inspect(State& st, const Params& p, bench::Extras& x) {
  const L2Limits& l = limits();
  x.figures = {{"l2_mb", static_cast<double>(l.l2) / 1e6},
               {"max_persisting_l2_mb", static_cast<double>(l.max_persisting) / 1e6},
               {"max_window_mb", static_cast<double>(l.max_window) / 1e6},
               {"set_aside_mb", static_cast<double>(st.limit.granted()) / 1e6},
               {"window_mb", static_cast<double>(window_bytes(p)) / 1e6},
               {"hit_ratio", static_cast<double>(hit_ratio(p))}};
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "l2_persistence", "A hot table in L2 while cold data streams past: access policy windows");
  b.bytes_convention("cold read + out written (8 bytes per element) + the table once")
      .int_axis("hot_kb", {"4096", "16384", "32768"}, {"16384"}, 1, 1 << 22,
                "hot table size in KiB (4 MiB .. 32 MiB by default)")
      .int_axis("n", {"268435456"}, {"67108864"}, 1, std::int64_t{1} << 31,
                "cold floats streamed (default 2^28 = 1 GiB, read once and written once)")
      .int_axis("window_pct", {"100"}, {"100"}, 1, 100, "window size, % of the table")
      .int_axis("hit_pct", {"100"}, {"100"}, 1, 100, "hitRatio in % (lines marked persisting)")
      .test_point({{"hot_kb", "1"}, {"n", "13"}, {"window_pct", "100"}, {"hit_pct", "100"}})
      .test_point({{"hot_kb", "3"}, {"n", "1000003"}, {"window_pct", "50"}, {"hit_pct", "60"}})
      .test_point({{"hot_kb", "1025"}, {"n", "4194311"}, {"window_pct", "100"}, {"hit_pct", "100"}})
      .bytes([](const Params& p) {
        return 8.0 * static_cast<double>(p.n("n")) + 4.0 * static_cast<double>(table_floats(p));
      })
      .footprint([](const Params& p) {
        return 8.0 * static_cast<double>(p.n("n")) + 4.0 * static_cast<double>(table_floats(p));
      })
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check);
  for (const VariantInfo& info : kVariants) {
    const Variant v = info.id;
    b.variant(info.name, info.description,
              [v](State& st, const Params&, cudaStream_t s) { run(st, v, s); })
        .predict([v](const Params& p) { return predict(v, p); })
        .inspect(inspect);
    if (v == Variant::kPersisting || v == Variant::kStreaming) {
      b.needs_device(
          [](const Params&) {
            return device_count_or_zero() == 0 || limits().max_persisting > 0;  // plan: listed
          },
          "this GPU has no persisting L2 set-aside (cudaDevAttrMaxPersistingL2CacheSize is 0)");
    }
  }
  b.baseline("no_window");
  b.plot({.id = "time",
          .kind = bench::PlotKind::Curve,
          .title = "Time against the hot-set size: window against none",
          .x = {"hot_kb", true, "KiB"},
          .y = {"median_ms", true, "ms"},
          .references = {"baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::l2_persistence
