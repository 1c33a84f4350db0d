// Registration of the histogram lessons: text_histogram, histogram, histogram_float, atomics.
#include <fmt/format.h>

#include <climits>
#include <cstring>
#include <numeric>
#include <tuple>
#include <vector>

#include "histogram/kernels.cuh"
#include "histogram/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/check.hpp"

namespace memlab::lessons::histogram {
namespace {

using bench::Params;

constexpr std::size_t kReadBackLimit = std::size_t{1} << 24;  // sum check from the input itself

Dist dist_of(const Params& p) {
  const std::string& d = p.s("dist");
  if (d == "text") return Dist::Text;
  if (d == "single") return Dist::Single;
  if (d == "smooth") return Dist::Smooth;
  return Dist::Uniform;
}

std::size_t n_of(const Params& p) {
  return static_cast<std::size_t>(p.n("n"));
}

// ---- byte inputs (text_histogram and histogram) -------------------------------------------------

struct ByteState {
  std::size_t n = 0;
  DeviceBuffer<unsigned char> in;
  DeviceBuffer<unsigned> bins;
  DeviceBuffer<unsigned char> cub_temp;
  std::array<std::uint64_t, 256> want{};
  std::uint64_t in_range_letters = 0;  // counted from the input read back (small n), else ref
};

ByteState setup_bytes(const Params& p, std::uint64_t seed, bool cub) {
  ByteState st;
  st.n = n_of(p);
  const Dist dist = dist_of(p);
  const std::string_view corpus = corpus_text();
  st.in = DeviceBuffer<unsigned char>(st.n);
  st.bins = DeviceBuffer<unsigned>(256);
  DeviceBuffer<unsigned char> text(corpus.size());
  text.copy_from_host(reinterpret_cast<const unsigned char*>(corpus.data()), corpus.size());
  make_bytes(dist, seed, st.in.get(), st.n, text.get(), corpus.size(), nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  if (cub) st.cub_temp = DeviceBuffer<unsigned char>(cub_temp_bytes(st.n));
  st.want = byte_counts(dist, seed, st.n, corpus);
  const auto letters = letter_counts(st.want);
  st.in_range_letters = std::accumulate(letters.begin(), letters.end(), std::uint64_t{0});
  if (st.n <= kReadBackLimit) {
    std::vector<unsigned char> h(st.n);
    if (st.n > 0) st.in.copy_to_host(h.data(), st.n);
    st.in_range_letters = 0;
    for (const unsigned char c : h) st.in_range_letters += letter_bin(c) >= 0 ? 1 : 0;
  }
  return st;
}

// Exact equality of every bin, and the bins sum to the number of in-range inputs.
bench::Check check_bins(const std::vector<std::uint64_t>& got, const std::uint64_t* want,
                        std::uint64_t in_range) {
  bench::Check c = bench::check_exact(got.data(), want, got.size());
  const std::uint64_t sum = std::accumulate(got.begin(), got.end(), std::uint64_t{0});
  if (sum != in_range) {
    c.ok = false;
    c.detail += fmt::format(" bins sum to {}, {} inputs are in range;", sum, in_range);
  }
  return c;
}

std::vector<std::uint64_t> read_bins(const DeviceBuffer<unsigned>& b, std::size_t count) {
  std::vector<unsigned> h(count);
  b.copy_to_host(h.data(), count);
  return {h.begin(), h.end()};
}

void common_byte_axes(bench::ExperimentBuilder<ByteState>& b) {
  b.choice_axis("dist", {"uniform", "text", "single", "smooth"},
                {"uniform", "text", "single", "smooth"}, {"uniform", "text", "single", "smooth"},
                "input bytes: uniform random; English prose; one repeated 'e' (worst "
                "contention); image-like smooth row with noise")
      .int_axis("n", {"2^30"}, {"2^28"}, 0, INT32_MAX, "input bytes (default 1 GiB)")
      .test_point({{"dist", "uniform"}, {"n", "0"}})
      .test_point({{"dist", "text"}, {"n", "1"}})
      .test_point({{"dist", "uniform"}, {"n", "1000003"}})
      .test_point({{"dist", "text"}, {"n", "1000003"}})
      .test_point({{"dist", "single"}, {"n", "65557"}})
      .test_point({{"dist", "smooth"}, {"n", "300001"}})
      .test_point({{"dist", "text"}, {"n", "4099"}})
      // More than 4 grid strides of 16-byte vectors on a 132-SM GPU (per_lane_fused: 264 x 1024
      // threads, 17.3 MB per 4 strides): the unrolled main loops run, then the remainder and tail
      // (per_lane_deep: 792 x 256 threads, 12.3 strides: its steady loop runs twice, then a
      // partial batch of one vector for the first 66977 threads, then the 1 tail byte;
      // per_lane_early6: 660 x 256 threads, 14.8 strides: one steady iteration, then a partial
      // batch of 2 vectors, 3 for the first 134,561 threads).
      .test_point({{"dist", "uniform"}, {"n", "40000017"}})
      .test_point({{"dist", "single"}, {"n", "40000017"}})
      // 15 tail bytes, and per_lane_early6 (660 x 256 threads, 5.92 strides of vectors): a whole
      // first batch of 6 for the first 155,200 threads only, the rest a partial one; per_lane_early
      // and per_lane_deep (4.93 strides): no steady loop, a partial batch of 1 for 188,992 threads.
      .test_point({{"dist", "uniform"}, {"n", "16000015"}})
      .bytes([](const Params& p) { return static_cast<double>(p.n("n")); })
      .footprint([](const Params& p) { return static_cast<double>(p.n("n")) + 4096.0; })
      .poison([](ByteState& st, const Params&, cudaStream_t s) { st.bins.fill_bytes(0xFF, s); });
}

// What limits each variant (the model line of its prediction).
const char* limit(TextVariant v) {
  switch (v) {
    case TextVariant::Naive:
      return "L2 atomics on 7 addresses: serialized, far below DRAM on text";
    case TextVariant::Privatized:
      return "7 global atomics per 256 bytes still contend in L2";
    case TextVariant::CoarseContiguous:
      return "uncoalesced 1-byte loads: one sector per lane per load";
    case TextVariant::CoarseInterleaved:
      return "shared atomics on 7 words: same-address serialization";
    case TextVariant::Aggregated:
      return "one shared atomic per run: fast on long runs only";
    case TextVariant::WarpAggregated:
      return "match.any per byte: instruction-bound";
    case TextVariant::LaneCopies:
      return "one shared wavefront per 32 bytes: DRAM-bound";
    case TextVariant::Registers:
      return "~8 integer instructions per byte: DRAM-bound";
  }
  invalid_variant("text_histogram");
}

const char* limit(ByteVariant v) {
  switch (v) {
    case ByteVariant::Naive:
      return "one L2 atomic per byte; one address for a repeated value";
    case ByteVariant::Privatized:
      return "1-byte loads and bank-conflicted shared atomics";
    case ByteVariant::PrivatizedV16:
      return "~3.5 shared wavefronts per warp atomic on random bytes: ~2.4 TB/s";
    case ByteVariant::PerWarp:
      return "bank conflicts within the warp remain";
    case ByteVariant::PerLane:
      return "conflict-free: one wavefront per 32 bytes, DRAM-bound";
    case ByteVariant::PerThread:
      return "two wavefronts per 32 bytes (16 B/clk/SM ~ 4.2 TB/s): DRAM-bound";
    case ByteVariant::PerLaneFused:
      return "per_lane without the memset launch and 3.5x fewer merge atomics: DRAM read plateau";
    case ByteVariant::PerLaneLean:
      return "per_lane's shape, one launch, 2 ALU + 1 ATOMS per byte: DRAM read plateau";
    case ByteVariant::PerLaneDeep:
      return "per_lane_lean's ALU work, 48-64 B in flight per thread while counting: read plateau";
    case ByteVariant::PerLaneEarly:
      return "per_lane_deep's stream, zeroing under the first loads, 16-copy merge: read plateau";
    case ByteVariant::PerLaneEarly6:
      return "per_lane_early, 80-96 B in flight per thread at 5 blocks per SM: read plateau";
    case ByteVariant::Cub:
      return "vendor: shared atomics, RLE";
  }
  invalid_variant("histogram");
}

const char* limit(AtomicVariant v) {
  switch (v) {
    case AtomicVariant::Global:
      return "same-address L2 atomics serialize (~1 per clock)";
    case AtomicVariant::Warp:
      return "32x fewer atomics";
    case AtomicVariant::Block:
      return "DRAM-bound";
  }
  invalid_variant("atomics");
}

std::optional<bench::Prediction> stream_once(const Params& p, const char* limit) {
  bench::Prediction pr;
  pr.model = limit;
  pr.dram_bytes = static_cast<double>(p.n("n"));
  return pr;
}

bench::Experiment make_text() {
  bench::ExperimentBuilder<ByteState> b(
      "text_histogram", "The seeds' letter histogram (a-z in 7 bins of 4): atomics, privatization");
  b.home("histogram");
  b.bytes_convention("input bytes, each read once (the 7 counters are negligible)");
  common_byte_axes(b);
  b.setup([](const Params& p, std::uint64_t seed) {
     return setup_bytes(p, seed, false);
   }).check([](ByteState& st, const Params&, const std::string&) {
    const auto want = letter_counts(st.want);
    return check_bins(read_bins(st.bins, kLetterBins), want.data(), st.in_range_letters);
  });
  // For learners' kernels (memlab exercise): the bytes, their count and the 7 counters.
  b.kernel_args([](ByteState& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("in", "const unsigned char*", st.in.get(), st.in.bytes()),
        bench::kernel_arg("n", "int", static_cast<int>(st.n)),
        bench::kernel_arg("bins", "unsigned int*", st.bins.get(), kLetterBins * sizeof(unsigned))};
  });
  for (const VariantInfo<TextVariant>& v : kTextVariants) {
    const TextVariant id = v.id;
    b.variant(v.name, v.description, [id](ByteState& st, const Params&, cudaStream_t s) {
       letter_histogram(id, st.in.get(), st.n, st.bins.get(), s);
     }).predict([id](const Params& p) { return stream_once(p, limit(id)); });
  }
  b.baseline(variant_name(kTextVariants, TextVariant::Naive));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Bars,
          .title = "Input GB/s per variant and distribution",
          .x = {"dist", false, ""},
          .y = {"gbps", false, "GB/s"},
          .references = {"memcpy"},
          .model = true});
  return b.build();
}

bench::Experiment make_bytes256() {
  bench::ExperimentBuilder<ByteState> b(
      "histogram", "256-bin histogram of uint8: privatization against CUB HistogramEven");
  b.bytes_convention("input bytes, each read once (256 counters written: negligible)");
  common_byte_axes(b);
  b.setup([](const Params& p, std::uint64_t seed) {
     return setup_bytes(p, seed, true);
   }).check([](ByteState& st, const Params&, const std::string&) {
    return check_bins(read_bins(st.bins, 256), st.want.data(), st.n);
  });
  for (const VariantInfo<ByteVariant>& v : kByteVariants) {
    const ByteVariant id = v.id;
    b.variant(v.name, v.description, [id](ByteState& st, const Params&, cudaStream_t s) {
       byte_histogram(id, st.in.get(), st.n, st.bins.get(), st.cub_temp.get(), st.cub_temp.size(),
                      s);
     }).predict([id](const Params& p) { return stream_once(p, limit(id)); });
  }
  b.vendor("cub");
  b.baseline(variant_name(kByteVariants, ByteVariant::Naive));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Bars,
          .title = "Input GB/s per variant and distribution",
          .x = {"dist", false, ""},
          .y = {"gbps", false, "GB/s"},
          .references = {"memcpy", "vendor"},
          .model = true});
  return b.build();
}

// ---- histogram_float ----------------------------------------------------------------------------

struct FloatState {
  std::size_t n = 0;
  unsigned bins = 0;
  float scale = 0;
  DeviceBuffer<float> in;
  DeviceBuffer<unsigned> out;
  std::vector<std::uint64_t> want;
  std::uint64_t in_range = 0;
};

bench::Experiment make_float() {
  bench::ExperimentBuilder<FloatState> b(
      "histogram_float", "N-bin histogram of floats in [0, 0.75): shared copy or global fallback");
  b.home("histogram");
  b.bytes_convention("input floats x 4 bytes, each read once (bins written: negligible)")
      .int_axis("bins", {"256", "16384", "1048576"}, {"256", "1048576"}, 1, 1 << 24,
                "bins over [0, 0.75); up to 57344 fit in shared memory")
      .int_axis("n", {"2^28"}, {"2^26"}, 0, INT32_MAX, "input floats (default 1 GiB)")
      .test_point({{"bins", "256"}, {"n", "0"}})
      .test_point({{"bins", "7"}, {"n", "1"}})
      .test_point({{"bins", "1000"}, {"n", "100003"}})
      .test_point({{"bins", "57344"}, {"n", "300007"}})
      .test_point({{"bins", "100000"}, {"n", "300007"}})
      .bytes([](const Params& p) { return 4.0 * static_cast<double>(p.n("n")); })
      .footprint([](const Params& p) {
        return 4.0 * static_cast<double>(p.n("n")) + 4.0 * static_cast<double>(p.n("bins"));
      })
      .setup([](const Params& p, std::uint64_t seed) {
        FloatState st;
        st.n = n_of(p);
        st.bins = static_cast<unsigned>(p.n("bins"));
        st.scale = static_cast<float>(st.bins) / (kFloatHi - kFloatLo);
        st.in = DeviceBuffer<float>(st.n);
        st.out = DeviceBuffer<unsigned>(st.bins);
        make_floats(seed, st.in.get(), st.n, nullptr);
        MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
        st.want = float_counts(seed, st.n, st.bins, st.scale);
        st.in_range = std::accumulate(st.want.begin(), st.want.end(), std::uint64_t{0});
        if (st.n <= kReadBackLimit) {
          std::vector<float> h(st.n);
          if (st.n > 0) st.in.copy_to_host(h.data(), st.n);
          st.in_range = 0;
          for (const float x : h) st.in_range += (x >= kFloatLo && x < kFloatHi) ? 1 : 0;
        }
        return st;
      })
      .poison([](FloatState& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check([](FloatState& st, const Params&, const std::string&) {
        return check_bins(read_bins(st.out, st.bins), st.want.data(), st.in_range);
      });
  for (const VariantInfo<FloatVariant>& v : kFloatVariants) {
    const FloatVariant id = v.id;
    b.variant(v.name, v.description, [id](FloatState& st, const Params&, cudaStream_t s) {
       float_histogram(id, st.in.get(), st.n, st.bins, st.scale, st.out.get(), s);
     }).predict([](const Params& p) {
      bench::Prediction pr;
      pr.model = "input read once; atomics on N bins spread over L2 or shared memory";
      pr.dram_bytes = 4.0 * static_cast<double>(p.n("n"));
      return std::optional<bench::Prediction>(pr);
    });
  }
  b.baseline(variant_name(kFloatVariants, FloatVariant::Naive));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Curve,
          .title = "Input GB/s against the number of bins",
          .x = {"bins", true, ""},
          .y = {"gbps", false, "GB/s"},
          .references = {"memcpy"},
          .model = true});
  return b.build();
}

// ---- atomics ------------------------------------------------------------------------------------

struct AtomicState {
  bool fmax = false;
  std::size_t n = 0;
  DeviceBuffer<std::int32_t> in;  // int32 values, or floats (op fmax) in the same 4-byte words
  DeviceBuffer<std::int32_t> out;
  std::int32_t want_lo = 0, want_hi = 0;
  float want_max = 0;
};

bench::Experiment make_atomics() {
  bench::ExperimentBuilder<AtomicState> b(
      "atomics", "One result from a large array: atomics on one address vs privatized reduction");
  b.home("histogram");
  b.bytes_convention("input words x 4 bytes, each read once")
      .choice_axis("op", {"minmax", "fmax"}, {"minmax", "fmax"}, {"minmax", "fmax"},
                   "minmax: atomicMin + atomicMax on int32; fmax: float max via atomicCAS")
      .int_axis("n", {"2^26"}, {"2^25"}, 0, INT32_MAX, "input words (default 256 MiB)")
      .test_point({{"op", "minmax"}, {"n", "0"}})
      .test_point({{"op", "minmax"}, {"n", "1"}})
      .test_point({{"op", "minmax"}, {"n", "100003"}})
      .test_point({{"op", "fmax"}, {"n", "0"}})
      .test_point({{"op", "fmax"}, {"n", "1"}})
      .test_point({{"op", "fmax"}, {"n", "100003"}})
      .bytes([](const Params& p) { return 4.0 * static_cast<double>(p.n("n")); })
      .footprint([](const Params& p) { return 4.0 * static_cast<double>(p.n("n")) + 8.0; })
      .setup([](const Params& p, std::uint64_t seed) {
        AtomicState st;
        st.fmax = p.s("op") == "fmax";
        st.n = n_of(p);
        st.in = DeviceBuffer<std::int32_t>(st.n);
        st.out = DeviceBuffer<std::int32_t>(2);
        make_words(st.fmax, seed, st.in.get(), st.n, nullptr);
        MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
        if (st.fmax) {
          st.want_max = float_max_ref(seed, st.n);
        } else {
          std::tie(st.want_lo, st.want_hi) = min_max_ref(seed, st.n);
        }
        return st;
      })
      .poison([](AtomicState& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check([](AtomicState& st, const Params&, const std::string&) {
        std::int32_t got[2] = {};
        st.out.copy_to_host(got, 2);
        if (st.fmax) {
          float g = 0;
          std::memcpy(&g, got, sizeof(g));
          return bench::check_exact(&g, &st.want_max, 1);
        }
        const std::int32_t want[2] = {st.want_lo, st.want_hi};
        return bench::check_exact(got, want, 2);
      });
  for (const VariantInfo<AtomicVariant>& v : kAtomicVariants) {
    const AtomicVariant id = v.id;
    b.variant(v.name, v.description, [id](AtomicState& st, const Params&, cudaStream_t s) {
       if (st.fmax) {
         float_max(id, reinterpret_cast<const float*>(st.in.get()), st.n,
                   reinterpret_cast<float*>(st.out.get()), s);
       } else {
         min_max(id, st.in.get(), st.n, st.out.get(), s);
       }
     }).predict([id](const Params& p) {
      bench::Prediction pr;
      pr.model = limit(id);
      pr.dram_bytes = 4.0 * static_cast<double>(p.n("n"));
      return std::optional<bench::Prediction>(pr);
    });
  }
  b.baseline(variant_name(kAtomicVariants, AtomicVariant::Global));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Ladder,
          .title = "Input GB/s per reduction",
          .x = {"variant", false, ""},
          .y = {"gbps", false, "GB/s"},
          .facet = "op",
          .references = {"memcpy", "baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered =
    bench::register_experiment(make_text()) && bench::register_experiment(make_bytes256()) &&
    bench::register_experiment(make_float()) && bench::register_experiment(make_atomics());

}  // namespace
}  // namespace memlab::lessons::histogram
