// Registration of the bandwidth lesson: axes, useful bytes, set-up, check and variants.
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "bandwidth/kernels.cuh"
#include "bandwidth/reference.hpp"
#include "common/hopper.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"

namespace memlab::lessons::bandwidth {
namespace {

using bench::Params;

Op op_of(const Params& p) {
  const std::string& o = p.s("op");
  if (o == "copy") return Op::Copy;
  if (o == "scale") return Op::Scale;
  if (o == "add") return Op::Add;
  if (o == "triad") return Op::Triad;
  return Op::Fill;
}

int inputs(Op op) {
  return op == Op::Fill ? 0 : (op == Op::Add || op == Op::Triad) ? 2 : 1;
}

double useful_bytes(const Params& p) {
  return static_cast<double>(inputs(op_of(p)) + 1) * static_cast<double>(p.n("n")) * 4.0;
}

float fill_value() {
  float f = 0;
  const unsigned char bytes[4] = {kFillByte, kFillByte, kFillByte, kFillByte};
  std::memcpy(&f, bytes, 4);
  return f;
}

struct State {
  Op op{};
  std::size_t n = 0;
  DeviceBuffer<float> a, b, c;
  std::vector<float> ha, hb;
  Args args() const { return Args{a.get(), b.get(), c.get(), 3.0f, n, fill_value()}; }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.op = op_of(p);
  st.n = static_cast<std::size_t>(p.n("n"));
  const int k = inputs(st.op);
  if (k >= 1) st.a = DeviceBuffer<float>(st.n);
  if (k >= 2) st.b = DeviceBuffer<float>(st.n);
  st.c = DeviceBuffer<float>(st.n);
  if (k >= 1) {
    fill_uniform(st.a.get(), st.n, seed, -1.0f, 1.0f, nullptr);
    st.ha.resize(st.n);
    st.a.copy_to_host(st.ha.data(), st.n);
  }
  if (k >= 2) {
    fill_uniform(st.b.get(), st.n, seed + 1, -1.0f, 1.0f, nullptr);
    st.hb.resize(st.n);
    st.b.copy_to_host(st.hb.data(), st.n);
  }
  return st;
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<float> got(st.n), want(st.n);
  st.c.copy_to_host(got.data(), st.n);
  const Args x = st.args();
  bench::parallel_for(st.n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      want[i] = reference(st.op, st.ha.empty() ? 0.0f : st.ha[i], st.hb.empty() ? 0.0f : st.hb[i],
                          x.s, x.fill);
    }
  });
  return bench::check_exact(got.data(), want.data(), st.n);
}

std::optional<bench::Prediction> streaming_model(const Params& p) {
  bench::Prediction pr;
  pr.model = "streaming: every useful byte crosses DRAM once, at the memcpy rate";
  pr.dram_bytes = useful_bytes(p);
  return pr;
}

// The findings hook (docs/lessons-json.md): per op, the fastest kernel of the run (not a ceiling)
// and its share of cudaMemcpy. Host-only: called on a run's JSON records, stored or fresh.
std::vector<bench::Finding> findings(const nlohmann::json& records, const nlohmann::json&) {
  std::map<std::string, std::pair<double, std::string>> best;  // op -> (GB/s, variant)
  for (const nlohmann::json& r : records) {
    if (r.value("status", "") != "timed" || !r.contains("params")) continue;
    const std::string variant = r.value("variant", "");
    if (variant == variant_name(kVariants, Variant::CudaMemcpy) ||
        variant == variant_name(kVariants, Variant::CudaMemset)) {
      continue;
    }
    const std::string op = r["params"].value("op", "");
    const double gbps = r.value("gbps", 0.0);
    if (gbps > best[op].first) best[op] = {gbps, variant};
  }
  std::vector<bench::Finding> out;
  for (const auto& [op, b] : best) {
    if (b.first <= 0) continue;
    out.push_back(
        {"best." + op, "fastest " + op + " kernel: " + b.second, b.first, "GB/s", {}, {}});
  }
  return out;
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b("bandwidth",
                                    "Streaming copy/scale/add/triad/fill against cudaMemcpy");
  b.bytes_convention(
       "copy, scale: read n + write n floats; add, triad: read 2n + write n; "
       "fill: write n")
      .choice_axis("op", {"copy", "scale", "add", "triad", "fill"},
                   {"copy", "scale", "add", "triad", "fill"}, {"copy", "add", "triad"},
                   "c = a; c = s*a; c = a + b (the seeds' vecAdd); c = a + s*b; c = const")
      .int_axis("n", {"268435456"}, {"67108864"}, 1, std::int64_t{1} << 32,
                "floats per array (default 2^28 = 1 GiB per array)")
      .test_point({{"op", "copy"}, {"n", "1"}})
      .test_point({{"op", "copy"}, {"n", "100003"}})
      .test_point({{"op", "copy"}, {"n", "8192"}})  // bulk_copy: two whole 16 KiB chunks
      // bulk_ring: 245 chunks over 21 blocks (each ring wraps twice), a short last chunk, a
      // 3-float tail; n = 100003 above: 25 chunks over 3 blocks
      .test_point({{"op", "copy"}, {"n", "1000003"}})
      .test_point({{"op", "scale"}, {"n", "4097"}})
      .test_point({{"op", "add"}, {"n", "1000"}})
      .test_point({{"op", "add"}, {"n", "1048579"}})
      .test_point({{"op", "triad"}, {"n", "33333"}})
      .test_point({{"op", "fill"}, {"n", "65539"}})
      .bytes(useful_bytes)
      .footprint(useful_bytes)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.c.fill_bytes(0xFF, s); })
      .check(check);
  // For learners' kernels (memlab exercise): the point's arrays, length and scalar.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("a", "const float*", st.a.get(), st.a.bytes()),
        bench::kernel_arg("b", "const float*", st.b.get(), st.b.bytes()),
        bench::kernel_arg("c", "float*", st.c.get(), st.c.bytes()),
        bench::kernel_arg("n", "int", static_cast<int>(st.n)),
        bench::kernel_arg("s", "float", st.args().s)};
  });
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description, [id](State& st, const Params&, cudaStream_t s) {
       launch(st.op, id, st.args(), s);
     }).predict(streaming_model);
    switch (id) {  // the ceilings apply to one op each; the kernels to every op
      case Variant::CudaMemcpy:
        b.variant_axis("op", {"copy"}, "cudaMemcpy is the copy ceiling: op=copy only");
        break;
      case Variant::BulkCopy:
      case Variant::BulkRing:
      case Variant::BulkRingHint:
      case Variant::BulkRingMany:
        b.variant_axis("op", {"copy"}, "cp.async.bulk copies: op=copy only")
            .needs_device([](const Params&) { return hopper::sm90_or_no_device(); },
                          hopper::kNeedsSm90);
        break;
      case Variant::CudaMemset:
        b.variant_axis("op", {"fill"}, "cudaMemset is the write-only ceiling: op=fill only");
        break;
      case Variant::ElemF1:
      case Variant::GridstrideF1:
      case Variant::ElemF4:
      case Variant::GridstrideF4:
      case Variant::F4Unroll4:
      case Variant::F4Unroll4Cs:
        break;
    }
  }
  b.baseline(variant_name(kVariants, Variant::ElemF1));
  b.vendor(variant_name(kVariants, Variant::CudaMemcpy))
      .vendor(variant_name(kVariants, Variant::CudaMemset))
      .findings(findings);
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Bars,
          .title = "Useful GB/s per operation against cudaMemcpy",
          .x = {"op", false, ""},
          .y = {"gbps", false, "GB/s"},
          .references = {"memcpy", "peak_bandwidth", "vendor"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::bandwidth
