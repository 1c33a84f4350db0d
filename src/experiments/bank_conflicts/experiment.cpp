// Registration of the bank_conflicts lesson.
//
// Design: stride, word and op are axes; at every point the variant `stride1` (the same op, word,
// warps and iterations, but lane l on element l: conflict-free) is the baseline. So the harness's
// speed-up column is 1 / (slowdown over s=1) and each variant's Prediction gives `slowdown` = the
// bank model's degree (memlab::model::analyze_banks), which the runner turns into a predicted time
// against the stride1 time of the same point; ratio = measured / predicted. The per-access times
// come from the kernel itself (clock64 and globaltimer around the loop, per block = per SM) and
// are added as figures.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <vector>

#include "bank_conflicts/kernels.cuh"
#include "bank_conflicts/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/model/banks.hpp"

namespace memlab::lessons::bank_conflicts {
namespace {

using bench::Params;

int word_of(const Params& p) {
  return p.s("word") == "8" ? 8 : 4;
}
bool write_of(const Params& p) {
  return p.s("op") == "write";
}

void validate(const Params& p) {
  if (p.n("iters") % kUnroll != 0) {
    throw UsageError(
        fmt::format("axis iters: {} is not a multiple of {}; accepted: multiples of "
                    "{} in [8, 2^20]",
                    p.n("iters"), kUnroll, kUnroll));
  }
}

struct State {
  int word = 4, iters = 0, blocks = 0;
  bool write = false;
  std::int64_t stride = 1, region = 0;
  std::vector<std::uint64_t> x;  // the initial region values (the largest region of the point)
  DeviceBuffer<unsigned char> in, out;
  DeviceBuffer<long long> cycles, ns;
  Args args(Variant variant) const {
    Args a;
    a.in = in.get();
    a.out = out.get();
    a.cycles = cycles.get();
    a.nanoseconds = ns.get();
    a.layout = layout_of(variant, stride);
    a.word = word;
    a.write = write;
    a.iters = iters;
    a.blocks = blocks;
    return a;
  }
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.word = word_of(p);
  st.write = write_of(p);
  st.iters = static_cast<int>(p.n("iters"));
  st.stride = p.n("stride");
  st.blocks = sm_count();
  for (const VariantInfo<Variant>& v : kVariants) {
    st.region = std::max(st.region, layout_of(v.id, st.stride).region());
  }
  st.x = region_values(seed, st.region, st.word);
  const auto words = static_cast<std::size_t>(st.region);
  st.in = DeviceBuffer<unsigned char>(words * static_cast<std::size_t>(st.word));
  std::vector<unsigned char> bytes(st.in.size());
  for (std::size_t i = 0; i < words; ++i) {
    std::memcpy(bytes.data() + i * static_cast<std::size_t>(st.word), &st.x[i],
                static_cast<std::size_t>(st.word));  // little-endian: the low word
  }
  st.in.copy_from_host(bytes.data(), bytes.size());
  const std::size_t per_block = std::max<std::size_t>(kThreads, words);
  st.out = DeviceBuffer<unsigned char>(static_cast<std::size_t>(st.blocks) * per_block *
                                       static_cast<std::size_t>(st.word));
  st.cycles = DeviceBuffer<long long>(static_cast<std::size_t>(st.blocks));
  st.ns = DeviceBuffer<long long>(static_cast<std::size_t>(st.blocks));
  return st;
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  const Layout layout = layout_of(variant_of(kVariants, variant, "bank_conflicts"), st.stride);
  const std::vector<std::uint64_t> x(st.x.begin(), st.x.begin() + layout.region());
  const std::vector<std::uint64_t> want1 = expected_block(x, layout, st.word, st.write, st.iters);
  const std::size_t per = want1.size(), total = per * static_cast<std::size_t>(st.blocks);
  std::vector<unsigned char> bytes(total * static_cast<std::size_t>(st.word));
  MEMLAB_CUDA_CHECK(cudaMemcpy(bytes.data(), st.out.get(), bytes.size(), cudaMemcpyDeviceToHost));
  std::vector<std::uint64_t> got(total, 0), want(total);
  for (std::size_t i = 0; i < total; ++i) {
    std::memcpy(&got[i], bytes.data() + i * static_cast<std::size_t>(st.word),
                static_cast<std::size_t>(st.word));
    want[i] = want1[i % per];
  }
  return bench::check_exact(got.data(), want.data(), total);
}

model::BankAccess model_of(Variant variant, const Params& p) {
  const Layout layout = layout_of(variant, p.n("stride"));
  std::array<std::int64_t, 32> idx{};
  for (int l = 0; l < 32; ++l) idx[static_cast<std::size_t>(l)] = layout.element(0, l);
  return model::analyze_banks(idx, word_of(p));
}

void add(bench::ExperimentBuilder<State>& b, const VariantInfo<Variant>& info) {
  const Variant v = info.id;
  b.variant(info.name, info.description,
            [v](State& st, const Params&, cudaStream_t s) { launch(st.args(v), s); })
      .predict([v](const Params& p) -> std::optional<bench::Prediction> {
        const model::BankAccess m = model_of(v, p);
        bench::Prediction pr;
        pr.model =
            fmt::format("bank model: {} wavefronts per warp access ({} minimum), degree {:g}",
                        m.passes, m.min_passes, m.degree);
        pr.slowdown = m.degree;  // stride1 has degree 1 at every point
        pr.wavefronts_per_request = static_cast<double>(m.passes);  // checked by --counters
        return pr;
      })
      .inspect([v](State& st, const Params& p, bench::Extras& x) {
        std::vector<long long> cyc(static_cast<std::size_t>(st.blocks)),
            ns(static_cast<std::size_t>(st.blocks));
        st.cycles.copy_to_host(cyc.data(), cyc.size());
        st.ns.copy_to_host(ns.data(), ns.size());
        double c = 0, t = 0;
        for (std::size_t i = 0; i < cyc.size(); ++i) {
          c += static_cast<double>(cyc[i]);
          t += static_cast<double>(ns[i]);
        }
        const double accesses = static_cast<double>(kWarps) * st.iters * st.blocks;
        const model::BankAccess m = model_of(v, p);
        x.figures.push_back({"sm_cycles_per_warp_access", c / accesses});
        x.figures.push_back({"ns_per_warp_access_per_sm", t / accesses});
        x.figures.push_back({"model_wavefronts", m.passes});
        x.figures.push_back({"model_degree", m.degree});
      });
  switch (v) {
    case Variant::Stride1:
    case Variant::Strided:
      break;  // every point
    case Variant::Col32x32:
    case Variant::Col32x33:
    case Variant::Broadcast:  // fixed read patterns: the stride axis does not apply
      b.variant_axis("op", {"read"})
          .variant_axis("stride", {"1"}, "a fixed read pattern: runs once, at op=read stride=1");
      break;
  }
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "bank_conflicts", "Shared-memory bank conflicts: lane i accesses word i*s, time per access");
  b.bytes_convention("none: the timed loop touches shared memory only (time per access instead)")
      .choice_axis("op", {"read", "write"}, {"read", "write"}, {"read", "write"},
                   "volatile shared loads, or volatile shared stores")
      .choice_axis("word", {"4", "8"}, {"4", "8"}, {"4"}, "bytes per access (u32 or u64)")
      .int_axis("stride", {"1", "2", "3", "4", "8", "16", "32", "64"},
                {"1", "2", "4", "8", "16", "32"}, 1, 64, "elements between neighbouring lanes")
      .int_axis("iters", {"8192"}, {"8192"}, 8, std::int64_t{1} << 20,
                "accesses per thread in the timed loop (multiple of 8)")
      .test_point({{"op", "read"}, {"word", "4"}, {"stride", "1"}, {"iters", "8"}})
      .test_point({{"op", "read"}, {"word", "8"}, {"stride", "1"}, {"iters", "24"}})
      .test_point({{"op", "read"}, {"word", "4"}, {"stride", "33"}, {"iters", "16"}})
      .test_point({{"op", "read"}, {"word", "8"}, {"stride", "64"}, {"iters", "8"}})
      .test_point({{"op", "write"}, {"word", "4"}, {"stride", "3"}, {"iters", "16"}})
      .test_point({{"op", "write"}, {"word", "8"}, {"stride", "64"}, {"iters", "8"}})
      .test_point({{"op", "write"}, {"word", "4"}, {"stride", "1"}, {"iters", "8"}})
      .validate(validate)
      .flush_l2(false)
      .footprint([](const Params&) { return 132.0 * kThreads * 8.0 + 2048.0 * 8.0 * 2.0; })
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check);
  for (const VariantInfo<Variant>& v : kVariants) add(b, v);
  b.baseline(variant_name(kVariants, Variant::Stride1));
  b.plot({.id = "slowdown",
          .kind = bench::PlotKind::Curve,
          .title = "Slowdown against the stride (x the conflict-free time)",
          .x = {"stride", true, ""},
          .y = {"slowdown", true, "x"},
          .facet = "word",
          .where = {{"op", "read"}},
          .variants = {"strided"},
          .model = true});
  b.plot({.id = "cycles",
          .kind = bench::PlotKind::Bars,
          .title = "SM cycles per warp access: fixed patterns",
          .x = {"variant", false, ""},
          .y = {"figure:sm_cycles_per_warp_access", true, "cycles"},
          .facet = "word",
          .where = {{"op", "read"}, {"stride", "1"}}});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::bank_conflicts
