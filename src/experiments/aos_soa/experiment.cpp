// Registration of the aos_soa lesson.
#include <fmt/format.h>

#include <vector>

#include "aos_soa/kernels.cuh"
#include "aos_soa/reference.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/bench/parallel.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/model/coalescing.hpp"

namespace memlab::lessons::aos_soa {
namespace {

using bench::Params;

Update update_of(const Params& p) {
  return p.s("update") == "one" ? Update::One : Update::All;
}

struct State {
  std::size_t n = 0;
  std::uint64_t seed = 0;
  Update update{};
  DeviceBuffer<float> in[3], out[3];  // indexed by Layout
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.seed = seed;
  st.update = update_of(p);
  for (int l = 0; l < 3; ++l) {
    const auto layout = static_cast<Layout>(l);
    st.in[l] = DeviceBuffer<float>(layout_floats(layout, st.n));
    st.out[l] = DeviceBuffer<float>(layout_floats(layout, st.n));
  }
  fill_uniform(st.in[0].get(), st.n * kFields, seed, -1.0f, 1.0f, nullptr);
  relayout_from_aos(Layout::Soa, st.in[0].get(), st.in[1].get(), st.n, nullptr);
  relayout_from_aos(Layout::Aosoa, st.in[0].get(), st.in[2].get(), st.n, nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  const Layout layout = layout_of(variant_of(kVariants, variant, "aos_soa"));
  const auto l = static_cast<int>(layout);
  std::vector<float> got(st.out[l].size());
  st.out[l].copy_to_host(got.data(), got.size());
  const int fields = st.update == Update::One ? 1 : kFields;
  std::vector<float> g(st.n * fields), w(st.n * fields);
  bench::parallel_for(st.n, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      for (int f = 0; f < fields; ++f) {
        g[i * fields + f] = got[field_index(layout, i, f, st.n)];
        w[i * fields + f] = expected_value(st.seed, st.update, i, f);
      }
    }
  });
  return bench::check_exact(g.data(), w.data(), g.size());
}

double useful(const Params& p) {
  return static_cast<double>(p.n("n")) * (update_of(p) == Update::One ? 8.0 : 64.0);
}

std::optional<bench::Prediction> predict(const Params& p, Layout layout) {
  const double n = static_cast<double>(p.n("n"));
  bench::Prediction pr;
  if (update_of(p) == Update::All) {
    pr.model = "all fields: every byte of every structure is useful in any layout";
    pr.dram_bytes = useful(p);
    return pr;
  }
  model::Pattern pat;
  if (layout == Layout::Aos) {
    pat.kind = model::AccessKind::kAosField;
    pat.fields = kFields;
  }
  const double eff = model::coalescing_efficiency(pat, 4, model::kDramGranuleBytes);
  // Reads fetch whole sectors; partial-sector writes are merged in L2 but written back whole.
  pr.model = fmt::format("coalescing: field x, {:.1f}% of each fetched sector used", 100 * eff);
  pr.dram_bytes = 2.0 * n * 4.0 / eff;
  return pr;
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "aos_soa", "Particles (8 floats): array of structures vs structure of arrays");
  b.bytes_convention(
       "update=one: read and write x (8 B per particle); update=all: read and "
       "write all 8 fields (64 B per particle)")
      .choice_axis("update", {"one", "all"}, {"one", "all"}, {}, "update field x only, or all")
      .int_axis("n", {"2^25"}, {"2^23"}, 1, std::int64_t{1} << 28, "particles (32 bytes each)")
      .test_point({{"update", "one"}, {"n", "1"}})
      .test_point({{"update", "one"}, {"n", "10007"}})
      .test_point({{"update", "all"}, {"n", "33"}})
      .test_point({{"update", "all"}, {"n", "100003"}})
      .bytes(useful)
      .footprint([](const Params& p) { return 6.0 * 32.0 * static_cast<double>(p.n("n") + 32); })
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) {
        for (auto& o : st.out) o.fill_bytes(0xFF, s);
      })
      .check(check);
  // For learners' kernels (memlab exercise): the AoS and SoA copies of the particles.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("in_aos", "const float*", st.in[0].get(), st.in[0].bytes()),
        bench::kernel_arg("out_aos", "float*", st.out[0].get(), st.out[0].bytes()),
        bench::kernel_arg("in_soa", "const float*", st.in[1].get(), st.in[1].bytes()),
        bench::kernel_arg("out_soa", "float*", st.out[1].get(), st.out[1].bytes()),
        bench::kernel_arg("n", "int", static_cast<int>(st.n))};
  });
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    const Layout layout = layout_of(id);
    b.variant(v.name, v.description, [id, layout](State& st, const Params&, cudaStream_t s) {
       const auto l = static_cast<int>(layout);
       launch(id, st.update, st.in[l].get(), st.out[l].get(), st.n, s);
     }).predict([layout](const Params& p) { return predict(p, layout); });
  }
  b.baseline(variant_name(kVariants, Variant::Aos));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Ladder,
          .title = "Useful GB/s per layout",
          .x = {"variant", false, ""},
          .y = {"gbps", false, "GB/s"},
          .facet = "update",
          .references = {"memcpy", "baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::aos_soa
