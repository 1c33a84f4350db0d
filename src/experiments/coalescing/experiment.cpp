// Registration of the coalescing lesson: two experiments over the same kernels.
//   coalescing    stride 1..64 for element sizes 1..16 bytes (offset 0 unless overridden)
//   misalignment  stride 1, the window shifted by 0..32 elements from 128-byte alignment
#include <fmt/format.h>

#include <climits>

#include "coalescing/kernels.cuh"
#include "coalescing/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/model/coalescing.hpp"
#include "memlab/model/coalescing_time.hpp"

namespace memlab::lessons::coalescing {
namespace {

using bench::Params;

struct Shape {
  std::size_t n, stride, offset;
  int elem;
  std::size_t span_bytes() const { return ((n - 1) * stride + offset + 1) * elem; }
  std::size_t read_blocks() const { return (n + kBlock - 1) / kBlock; }
};

Shape shape(const Params& p) {
  Shape s{};
  s.elem = static_cast<int>(p.n("elem"));
  s.n = static_cast<std::size_t>(p.n("bytes")) / static_cast<std::size_t>(s.elem);
  s.stride = static_cast<std::size_t>(p.n("stride"));
  s.offset = static_cast<std::size_t>(p.n("offset"));
  return s;
}

void validate(const Params& p) {
  const std::int64_t e = p.n("elem");
  if (e != 1 && e != 2 && e != 4 && e != 8 && e != 16) {
    throw UsageError(fmt::format("axis elem: {} is not accepted; accepted: 1, 2, 4, 8 or 16", e));
  }
  if (p.n("bytes") % e != 0) {
    throw UsageError(
        fmt::format("axis bytes: {} is not a multiple of elem={}; accepted: a "
                    "multiple of the element size",
                    p.n("bytes"), e));
  }
}

struct State {
  Shape shape{};
  std::uint64_t seed = 0;
  DeviceBuffer<unsigned char> in, out;
  Args args() const {
    return Args{in.get(), out.get(), shape.n, shape.stride, shape.offset, shape.elem};
  }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.shape = shape(p);
  st.seed = seed;
  st.in = DeviceBuffer<unsigned char>(st.shape.span_bytes());
  st.out = DeviceBuffer<unsigned char>(
      std::max(st.shape.n * static_cast<std::size_t>(st.shape.elem), st.shape.read_blocks() * 4));
  fill_random_bytes(st.in.get(), st.in.bytes(), seed, nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  const Shape& s = st.shape;
  switch (variant_of(kVariants, variant, "coalescing")) {
    case Variant::StridedRead: {
      const auto want =
          reference_read(st.seed, s.n, s.stride, s.offset, s.elem, kBlock, read_grid(s.n, s.elem));
      std::vector<std::uint32_t> got(want.size());
      MEMLAB_CUDA_CHECK(
          cudaMemcpy(got.data(), st.out.get(), got.size() * 4, cudaMemcpyDeviceToHost));
      return bench::check_exact(got.data(), want.data(), want.size());
    }
    case Variant::StridedCopy: {
      const auto want = reference_copy(st.seed, s.n, s.stride, s.offset, s.elem);
      std::vector<std::uint8_t> got(want.size());
      MEMLAB_CUDA_CHECK(cudaMemcpy(got.data(), st.out.get(), got.size(), cudaMemcpyDeviceToHost));
      return bench::check_exact(got.data(), want.data(), want.size());
    }
  }
  invalid_variant("coalescing");
}

double read_bytes(const Params& p) {
  const Shape s = shape(p);
  return static_cast<double>(s.n) * s.elem;
}

// Whether a variant writes what it reads (useful bytes 2 n elem instead of n elem).
bool copies(Variant v) {
  switch (v) {
    case Variant::StridedRead:
      return false;
    case Variant::StridedCopy:
      return true;
  }
  invalid_variant("coalescing");
}

// The time model (memlab/model/coalescing_time.hpp): DRAM bytes at the memcpy rate, Little's law
// for the requests in flight, and L1 wavefronts; the largest names the bound.
std::optional<bench::Prediction> predict(const Params& p, bool copy,
                                         const bench::PredictContext& ctx) {
  const Shape s = shape(p);
  if (ctx.memcpy_gbps <= 0 || ctx.sm_count <= 0 || ctx.sm_clock_mhz <= 0) return std::nullopt;
  model::Pattern pat;
  pat.kind = s.stride == 1 ? model::AccessKind::kOffset : model::AccessKind::kStrided;
  pat.stride = static_cast<std::int64_t>(s.stride);
  pat.offset = static_cast<std::int64_t>(s.offset);
  model::PassDevice dev;
  dev.sm_count = ctx.sm_count;
  dev.sm_clock_mhz = ctx.sm_clock_mhz;
  dev.max_threads_per_sm = ctx.max_threads_per_sm;
  dev.memcpy_gbps = ctx.memcpy_gbps;
  const model::PassTime t = model::pass_time(
      pat, s.elem, read_bytes(p),
      copy ? model::KernelShape::kCopyPerThread : model::KernelShape::kResidentRead, dev);
  const double eff = model::coalescing_efficiency(pat, s.elem, model::kDramGranuleBytes);
  bench::Prediction pr;
  pr.model = fmt::format("coalescing: {} sectors/request, {:.1f}% of fetched bytes used; bound: {}",
                         t.sectors_per_request, 100.0 * eff, model::to_string(t.bound));
  pr.dram_bytes = t.dram_bytes;
  pr.time_ms = t.time_ms;
  pr.bound = std::string(model::to_string(t.bound));
  pr.bounds_ms = {{"dram", t.dram_ms}, {"latency", t.latency_ms}, {"lsu", t.lsu_ms}};
  pr.sectors_per_request = static_cast<double>(t.sectors_per_request);  // checked by --counters
  return pr;
}

// The element type a learner's kernel names for an element size (memlab exercise; the exercises
// fix elem = 4: float, as the seeds write it). The data are random bytes, copied bit for bit.
const char* element_type(int elem) {
  switch (elem) {
    case 1:
      return "unsigned char";
    case 2:
      return "unsigned short";
    case 4:
      return "float";
    case 8:
      return "unsigned long long";
    default:
      return "uint4";
  }
}

// For learners' kernels (memlab exercise): the input (the whole strided span), the output (n
// elements), n and the stride and offset in elements, as ints (a learner writes `int n`).
std::vector<bench::KernelArg> kernel_args(State& st, const Params&) {
  const Shape& s = st.shape;
  if (s.n > static_cast<std::size_t>(INT_MAX) || s.stride > static_cast<std::size_t>(INT_MAX) ||
      s.offset > static_cast<std::size_t>(INT_MAX)) {
    throw UsageError(
        fmt::format("coalescing: n = {} does not fit the int n of a learner's kernel", s.n));
  }
  const std::string type = element_type(s.elem);
  return {bench::kernel_arg("in", "const " + type + "*", st.in.get(), st.in.bytes()),
          bench::kernel_arg("out", type + "*", st.out.get(), st.out.bytes()),
          bench::kernel_arg("n", "int", static_cast<int>(s.n)),
          bench::kernel_arg("stride", "int", static_cast<int>(s.stride)),
          bench::kernel_arg("offset", "int", static_cast<int>(s.offset))};
}

template <class B>
B& common(B& b) {
  b.int_axis("bytes", {"256Mi"}, {"64Mi"}, 1, std::int64_t{1} << 32,
             "useful bytes read (n = bytes / elem elements)")
      .validate(validate)
      .footprint([](const Params& p) {
        const Shape s = shape(p);
        return static_cast<double>(s.span_bytes()) + static_cast<double>(s.n) * s.elem;
      })
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check)
      .kernel_args(kernel_args);
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    const bool copy = copies(id);
    b.variant(v.name, v.description,
              [id](State& st, const Params&, cudaStream_t s) { launch(id, st.args(), s); })
        .variant_bytes([copy](const Params& p) { return (copy ? 2.0 : 1.0) * read_bytes(p); })
        .predict_on_device([copy](const Params& p, const bench::PredictContext& ctx) {
          return predict(p, copy, ctx);
        });
  }
  return b;
}

bench::Experiment make_coalescing() {
  bench::ExperimentBuilder<State> b("coalescing",
                                    "Strided access: GB/s against stride per element size");
  b.bytes_convention("read: n*elem; copy: 2*n*elem (the strided gaps are not useful bytes)")
      .int_axis("elem", {"1", "2", "4", "8", "16"}, {"1", "4", "16"}, 1, 16,
                "element size in bytes: 1, 2, 4, 8 or 16")
      .int_axis("stride", {"1", "2", "4", "8", "16", "32", "64"}, {}, 1, 1 << 20,
                "elements between neighbouring lanes")
      .int_axis("offset", {"0"}, {}, 0, 1 << 20, "elements added to every index")
      .test_point({{"elem", "1"}, {"stride", "1"}, {"offset", "3"}, {"bytes", "1003"}})
      .test_point({{"elem", "2"}, {"stride", "3"}, {"offset", "1"}, {"bytes", "1554"}})
      .test_point({{"elem", "4"}, {"stride", "64"}, {"offset", "32"}, {"bytes", "40028"}})
      .test_point({{"elem", "8"}, {"stride", "7"}, {"offset", "5"}, {"bytes", "32792"}})
      .test_point({{"elem", "16"}, {"stride", "2"}, {"offset", "31"}, {"bytes", "4800"}})
      .test_point({{"elem", "16"}, {"stride", "1"}, {"offset", "0"}, {"bytes", "16"}})
      // Large enough for the read kernel's grid-stride loop and its 4-load unrolled path.
      .test_point({{"elem", "4"}, {"stride", "3"}, {"offset", "7"}, {"bytes", "20000044"}})
      .test_point({{"elem", "1"}, {"stride", "1"}, {"offset", "0"}, {"bytes", "3000017"}});
  common(b);  // no baseline: the curve against stride is the result
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Curve,
          .title = "Useful GB/s against the stride, per element size",
          .x = {"stride", true, "elements"},
          .y = {"gbps", false, "GB/s"},
          .facet = "elem",
          .references = {"memcpy"},
          .model = true});
  return b.build();
}

bench::Experiment make_misalignment() {
  bench::ExperimentBuilder<State> b(
      "misalignment", "Stride-1 access shifted by 0..32 elements from 128-byte alignment");
  b.home("coalescing");
  b.bytes_convention("read: n*elem; copy: 2*n*elem")
      .int_axis("elem", {"1", "4", "16"}, {"4"}, 1, 16, "element size in bytes: 1, 2, 4, 8 or 16")
      .int_axis("stride", {"1"}, {}, 1, 1 << 20, "elements between neighbouring lanes")
      .int_axis("offset", {"0", "1", "2", "4", "8", "16", "31", "32"}, {"0", "1", "16", "32"}, 0,
                1 << 20, "elements added to every index")
      .test_point({{"elem", "4"}, {"stride", "1"}, {"offset", "1"}, {"bytes", "4004"}})
      .test_point({{"elem", "16"}, {"stride", "1"}, {"offset", "31"}, {"bytes", "16016"}});
  common(b);  // no baseline: the curve against the offset is the result
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Curve,
          .title = "Useful GB/s against the offset from 128-byte alignment, per element size",
          .x = {"offset", false, "elements"},
          .y = {"gbps", false, "GB/s"},
          .facet = "elem",
          .references = {"memcpy"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make_coalescing()) &&
                                         bench::register_experiment(make_misalignment());

}  // namespace
}  // namespace memlab::lessons::coalescing
