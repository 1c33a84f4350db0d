// transfers: host <-> device copies over PCIe from four kinds of host memory (seed 000 section 5).
//
// Variants: the enumerators of `Variant` below (no kernels: every operation is a copy engine's
// DMA, so the variants are named here rather than in a kernels.cuh).
// direction=both runs the H2D copy in the timed stream and the D2H copy in a second stream at
// the same time (forked and joined with events); its bytes count each byte moved once: 2 x size.
//
// Napkin math (H200, PCIe gen5 x16): 32 GT/s x 16 lanes x 128/130 / 8 = 63.0 GB/s per direction;
// TLP headers leave ~55 GB/s: 256 MiB takes ~4.9 ms one way. Both directions at once can reach
// up to twice that; pageable copies add a CPU memcpy per chunk (~7 GB/s seen).
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <vector>

#include "common/variants.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/cuda/event.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/cuda/stream.hpp"
#include "transfers/link.hpp"

namespace memlab::lessons::transfers {
namespace {

using bench::Params;
using Clock = std::chrono::steady_clock;

enum class Variant {
  // malloc'd memory: the driver copies through its own pinned staging buffer, chunk by chunk, with
  // the CPU in the loop (memcpy into the staging buffer).
  Pageable,
  // cudaHostAlloc: DMA straight from/to the user's pages.
  Pinned,
  // cudaHostAlloc(cudaHostAllocWriteCombined): no CPU caching; PCIe reads may be faster, CPU reads
  // are uncached (slow): the check reads it back through the GPU.
  PinnedWc,
  // malloc'd memory pinned in place with cudaHostRegister.
  Registered,
  // Plain, synchronous cudaMemcpy from pinned memory: the ceiling at the same size
  // (direction=both: the two copies one after the other).
  CudaMemcpy,
};

constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Pageable, "pageable", "malloc'd host memory: staged by the driver"},
    {Variant::Pinned, "pinned", "cudaHostAlloc: direct DMA"},
    {Variant::PinnedWc, "pinned_wc",
     "cudaHostAlloc write-combined: direct DMA, uncached for the CPU"},
    {Variant::Registered, "registered", "malloc'd memory pinned with cudaHostRegister"},
    {Variant::CudaMemcpy, "cudaMemcpy",
     "plain synchronous cudaMemcpy from pinned memory: the ceiling"},
};

enum class Kind { kPageable, kPinned, kPinnedWc, kRegistered };
enum class Dir { kH2D, kD2H, kBoth };

// The host memory a variant copies from or to.
Kind kind_of(Variant v) {
  switch (v) {
    case Variant::Pageable:
      return Kind::kPageable;
    case Variant::Pinned:
    case Variant::CudaMemcpy:
      return Kind::kPinned;
    case Variant::PinnedWc:
      return Kind::kPinnedWc;
    case Variant::Registered:
      return Kind::kRegistered;
  }
  invalid_variant("transfers");
}
Dir dir_of(const Params& p) {
  const std::string& d = p.s("direction");
  return d == "h2d" ? Dir::kH2D : d == "d2h" ? Dir::kD2H : Dir::kBoth;
}
bool needs_src(Dir d) {
  return d != Dir::kD2H;
}
bool needs_dst(Dir d) {
  return d != Dir::kH2D;
}

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

struct FreeDeleter {
  void operator()(unsigned char* p) const noexcept { std::free(p); }
};
using HostPtr = std::unique_ptr<unsigned char, FreeDeleter>;

// Page-aligned malloc'd memory (whole pages: two registrations never share a page).
HostPtr page_alloc(std::size_t bytes) {
  const std::size_t rounded = (bytes + 4095) / 4096 * 4096;
  auto* p = static_cast<unsigned char*>(std::aligned_alloc(4096, rounded));
  if (p == nullptr) throw std::bad_alloc();
  return HostPtr(p);
}

// Random bytes: byte b is random_byte(seed, b) (8 bytes per random_u64, little-endian).
void fill_host_random(unsigned char* dst, std::size_t bytes, std::uint64_t seed) {
  const std::size_t words = bytes / 8;
  bench::parallel_for(words, [&](std::size_t b, std::size_t e) {
    for (std::size_t w = b; w < e; ++w) {
      const std::uint64_t v = random_u64(seed, w);
      std::memcpy(dst + 8 * w, &v, 8);
    }
  });
  for (std::size_t b = 8 * words; b < bytes; ++b) dst[b] = random_byte(seed, b);
}

bench::Check check_random(const unsigned char* got, std::size_t bytes, std::uint64_t seed,
                          const char* what) {
  std::atomic<std::size_t> wrong{0}, first{bytes};
  bench::parallel_for(bytes / 8, [&](std::size_t b, std::size_t e) {
    std::size_t bad = 0;
    for (std::size_t w = b; w < e; ++w) {
      std::uint64_t v = 0;
      std::memcpy(&v, got + 8 * w, 8);
      if (v != random_u64(seed, w)) {
        if (bad == 0) {
          std::size_t f = first.load();
          while (8 * w < f && !first.compare_exchange_weak(f, 8 * w)) {
          }
        }
        ++bad;
      }
    }
    wrong += bad;
  });
  for (std::size_t b = bytes / 8 * 8; b < bytes; ++b) {
    if (got[b] != random_byte(seed, b)) {
      ++wrong;
      first = std::min(first.load(), b);
    }
  }
  bench::Check c;
  c.error = static_cast<double>(wrong.load());
  c.ok = wrong == 0;
  if (!c.ok) {
    c.detail = fmt::format(
        " {}: {} 8-byte words differ, first at byte {}: got {:#04x}, want {:#04x}", what,
        wrong.load(), first.load(), got[first.load()], random_byte(seed, first.load()));
  }
  return c;
}

struct HostSide {
  unsigned char* src = nullptr;  // H2D source (random bytes)
  unsigned char* dst = nullptr;  // D2H destination
};

struct State {
  std::size_t bytes = 0;
  Dir dir = Dir::kH2D;
  std::uint64_t seed = 0;
  HostPtr page_src, page_dst, reg_src, reg_dst;
  PinnedBuffer<unsigned char> pin_src, pin_dst, wc_src, wc_dst;
  std::unique_ptr<HostRegistration> reg_src_pin, reg_dst_pin;
  DeviceBuffer<unsigned char> d_src, d_dst;
  Stream second;  // the D2H stream of direction=both
  Event fork{cudaEventDisableTiming}, join{cudaEventDisableTiming};
  double hostalloc_ms = 0, hostalloc_bytes = 0, wc_alloc_ms = 0, register_ms = 0,
         register_bytes = 0, malloc_touch_ms = 0;

  HostSide host(Kind k) const {
    switch (k) {
      case Kind::kPageable:
        return {page_src.get(), page_dst.get()};
      case Kind::kPinned:
        return {pin_src.get(), pin_dst.get()};
      case Kind::kPinnedWc:
        return {wc_src.get(), wc_dst.get()};
      case Kind::kRegistered:
        return {reg_src.get(), reg_dst.get()};
    }
    return {};
  }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.bytes = static_cast<std::size_t>(p.n("size"));
  st.dir = dir_of(p);
  st.seed = seed;
  const bool src = needs_src(st.dir), dst = needs_dst(st.dir);
  const std::size_t n = st.bytes;
  auto t0 = Clock::now();
  if (src) st.page_src = page_alloc(n);
  if (dst) st.page_dst = page_alloc(n);
  if (src) fill_host_random(st.page_src.get(), n, seed);
  if (dst) std::memset(st.page_dst.get(), 0, n);  // first touch: the pages exist
  st.malloc_touch_ms = ms_since(t0);

  t0 = Clock::now();
  if (src) st.pin_src = PinnedBuffer<unsigned char>(n);
  if (dst) st.pin_dst = PinnedBuffer<unsigned char>(n);
  st.hostalloc_ms = ms_since(t0);
  st.hostalloc_bytes = static_cast<double>(n) * (src + dst);
  t0 = Clock::now();
  if (src) st.wc_src = PinnedBuffer<unsigned char>(n, cudaHostAllocWriteCombined);
  if (dst) st.wc_dst = PinnedBuffer<unsigned char>(n, cudaHostAllocWriteCombined);
  st.wc_alloc_ms = ms_since(t0);

  if (src) st.reg_src = page_alloc(n);
  if (dst) st.reg_dst = page_alloc(n);
  if (src) fill_host_random(st.reg_src.get(), n, seed);
  if (dst) std::memset(st.reg_dst.get(), 0, n);
  t0 = Clock::now();  // registering memory that is already touched, as an application would
  if (src) st.reg_src_pin = std::make_unique<HostRegistration>(st.reg_src.get(), n);
  if (dst) st.reg_dst_pin = std::make_unique<HostRegistration>(st.reg_dst.get(), n);
  st.register_ms = ms_since(t0);
  st.register_bytes = st.hostalloc_bytes;

  if (src) {
    fill_host_random(st.pin_src.get(), n, seed);
    fill_host_random(st.wc_src.get(), n, seed);  // CPU writes to write-combined memory are fine
    st.d_dst = DeviceBuffer<unsigned char>(n);
  }
  if (dst) {
    st.d_src = DeviceBuffer<unsigned char>(n);
    fill_random_bytes(st.d_src.get(), n, seed + 1, nullptr);
    if (!src) st.d_dst = DeviceBuffer<unsigned char>(n);  // scratch for the write-combined check
  }
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

void enqueue(State& st, Kind k, bool plain, cudaStream_t s) {
  const HostSide h = st.host(k);
  const std::size_t n = st.bytes;
  if (plain) {  // synchronous cudaMemcpy (legacy default stream), one after the other
    if (needs_src(st.dir)) {
      MEMLAB_CUDA_CHECK(cudaMemcpy(st.d_dst.get(), h.src, n, cudaMemcpyHostToDevice));
    }
    if (needs_dst(st.dir)) {
      MEMLAB_CUDA_CHECK(cudaMemcpy(h.dst, st.d_src.get(), n, cudaMemcpyDeviceToHost));
    }
    return;
  }
  switch (st.dir) {
    case Dir::kH2D:
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(st.d_dst.get(), h.src, n, cudaMemcpyHostToDevice, s));
      break;
    case Dir::kD2H:
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(h.dst, st.d_src.get(), n, cudaMemcpyDeviceToHost, s));
      break;
    case Dir::kBoth:
      st.fork.record(s);
      MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(st.second, st.fork, 0));
      MEMLAB_CUDA_CHECK(cudaMemcpyAsync(st.d_dst.get(), h.src, n, cudaMemcpyHostToDevice, s));
      MEMLAB_CUDA_CHECK(
          cudaMemcpyAsync(h.dst, st.d_src.get(), n, cudaMemcpyDeviceToHost, st.second));
      st.join.record(st.second);
      MEMLAB_CUDA_CHECK(cudaStreamWaitEvent(s, st.join, 0));
      break;
  }
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  const Kind k = kind_of(variant_of(kVariants, variant, "transfers"));
  std::vector<unsigned char> got(st.bytes);
  bench::Check c;
  c.ok = true;
  if (needs_src(st.dir)) {
    st.d_dst.copy_to_host(got.data(), st.bytes);
    c = check_random(got.data(), st.bytes, st.seed, "H2D");
    if (!c.ok) return c;
  }
  if (needs_dst(st.dir)) {
    const unsigned char* dst = st.host(k).dst;
    if (k == Kind::kPinnedWc) {  // CPU reads of write-combined memory are uncached: go via DMA
      st.d_dst.copy_from_host(dst, st.bytes);
      st.d_dst.copy_to_host(got.data(), st.bytes);
      dst = got.data();
    }
    c = check_random(dst, st.bytes, st.seed + 1, "D2H");
  }
  return c;
}

// The link, read through NVML right after traffic (an idle link may train down to gen1).
std::optional<LiveClocks> link_now() {
  if (device_count_or_zero() == 0) return std::nullopt;  // the plan without a GPU
  static const DeviceInfo device = query_device(0);
  auto c = read_live_clocks(device);
  if (!c || c->pcie_gen <= 0 || c->pcie_width <= 0) return std::nullopt;
  return c;
}

std::optional<bench::Prediction> predict(const Params& p) {
  auto link = link_now();
  if (!link) return std::nullopt;
  const double gbps = pcie_link_gbps(link->pcie_gen, link->pcie_width);
  if (!(gbps > 0)) return std::nullopt;
  bench::Prediction pr;
  // Both directions run at once: the time of one direction.
  pr.time_ms = 1e3 * static_cast<double>(p.n("size")) / (gbps * 1e9);
  pr.model = fmt::format("PCIe gen{} x{}: {:.1f} GB/s per direction after encoding", link->pcie_gen,
                         link->pcie_width, gbps);
  return pr;
}

void inspect(State& st, const Params& p, Variant variant, bench::Extras& x) {
  const Kind k = kind_of(variant);
  const bool plain = variant == Variant::CudaMemcpy;
  Stream s;
  Event a, b;
  std::vector<double> ms;
  for (int r = 0; r < 3; ++r) {
    a.record(s);
    enqueue(st, k, plain, s);
    b.record(s);
    b.synchronize();
    ms.push_back(b.elapsed_ms_since(a));
  }
  std::sort(ms.begin(), ms.end());
  const double directions = st.dir == Dir::kBoth ? 2.0 : 1.0;
  const double gbps = directions * static_cast<double>(st.bytes) / (ms[1] * 1e-3) / 1e9;
  if (auto link = link_now()) {
    const double rate = pcie_link_gbps(link->pcie_gen, link->pcie_width);
    x.figures.emplace_back("pcie_gen", link->pcie_gen);
    x.figures.emplace_back("pcie_width", link->pcie_width);
    x.figures.emplace_back("link_GBps_per_dir", rate);
    if (rate > 0) x.figures.emplace_back("pct_link", 100.0 * gbps / (directions * rate));
  }
  x.figures.emplace_back("inspect_GBps", gbps);
  if (k == Kind::kPinned && !plain) {
    x.figures.emplace_back("hostalloc_ms", st.hostalloc_ms);
    x.figures.emplace_back("hostalloc_ms_per_GiB", ms_per_gib(st.hostalloc_ms, st.hostalloc_bytes));
  }
  if (k == Kind::kPinnedWc) {
    x.figures.emplace_back("hostalloc_wc_ms_per_GiB",
                           ms_per_gib(st.wc_alloc_ms, st.hostalloc_bytes));
  }
  if (k == Kind::kRegistered) {
    x.figures.emplace_back("register_ms", st.register_ms);
    x.figures.emplace_back("register_ms_per_GiB", ms_per_gib(st.register_ms, st.register_bytes));
  }
  if (k == Kind::kPageable) {
    x.figures.emplace_back("malloc_fill_ms_per_GiB",
                           ms_per_gib(st.malloc_touch_ms, st.hostalloc_bytes));
  }
  (void)p;
}

double moved(const Params& p) {
  return static_cast<double>(p.n("size")) * (dir_of(p) == Dir::kBoth ? 2.0 : 1.0);
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "transfers", "Host <-> device copies: pageable, pinned, write-combined, registered memory");
  b.bytes_convention(
       "each byte moved once: h2d, d2h = size; both = 2 x size (size each way, at "
       "the same time). GB/s over PCIe, not DRAM: ignore the % peak columns")
      .int_axis("size", {"4Ki", "1Mi", "64Mi", "256Mi", "1Gi"}, {"1Mi", "256Mi"}, 1,
                std::int64_t{1} << 32, "bytes per copy")
      .choice_axis("direction", {"h2d", "d2h", "both"}, {"h2d", "d2h", "both"},
                   {"h2d", "d2h", "both"}, "host to device, device to host, both at once")
      .test_point({{"size", "1"}, {"direction", "h2d"}})
      .test_point({{"size", "4097"}, {"direction", "d2h"}})
      .test_point({{"size", "100003"}, {"direction", "both"}})
      .test_point({{"size", "1048579"}, {"direction", "both"}})
      .bytes(moved)
      .footprint(moved)
      .flush_l2(false)  // PCIe, not the L2
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        // Synchronous: the plain cudaMemcpy variant runs in the legacy stream, not in `s`.
        if (needs_src(st.dir)) st.d_dst.fill_bytes(0xFF, s);
        MEMLAB_CUDA_CHECK(cudaStreamSynchronize(s));
        if (needs_dst(st.dir)) {
          for (Kind k : {Kind::kPageable, Kind::kPinned, Kind::kPinnedWc, Kind::kRegistered}) {
            unsigned char* d = st.host(k).dst;
            bench::parallel_for(st.bytes, [d](std::size_t lo, std::size_t hi) {
              std::memset(d + lo, 0xFF, hi - lo);
            });
          }
        }
      })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description,
              [id](State& st, const Params&, cudaStream_t s) {
                enqueue(st, kind_of(id), id == Variant::CudaMemcpy, s);
              })
        .predict(predict)
        .inspect([id](State& st, const Params& p, bench::Extras& x) { inspect(st, p, id, x); });
  }
  b.vendor(variant_name(kVariants, Variant::CudaMemcpy));
  b.baseline(variant_name(kVariants, Variant::CudaMemcpy));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Curve,
          .title = "Host-device GB/s against the transfer size",
          .x = {"size", true, "bytes"},
          .y = {"gbps", false, "GB/s"},
          .facet = "direction",
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::transfers
