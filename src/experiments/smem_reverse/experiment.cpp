// Registration of the smem_reverse lesson.
#include <vector>

#include "common/hopper.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "smem_reverse/kernels.cuh"
#include "smem_reverse/reference.hpp"

namespace memlab::lessons::smem_reverse {
namespace {

using bench::Params;

struct State {
  std::size_t n = 0;
  std::uint64_t seed = 0;
  DeviceBuffer<float> in, out;
};

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.n = static_cast<std::size_t>(p.n("n"));
  st.seed = seed;
  st.in = DeviceBuffer<float>(st.n);
  st.out = DeviceBuffer<float>(st.n);
  fill_uniform(st.in.get(), st.n, seed, -1.0f, 1.0f, nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  return st;
}

bench::Check check(State& st, const Params&, const std::string&) {
  std::vector<float> got(st.n);
  st.out.copy_to_host(got.data(), st.n);
  return check_reversed(got.data(), st.n, st.seed);
}

double useful(const Params& p) {
  return 2.0 * 4.0 * static_cast<double>(p.n("n"));
}

std::optional<bench::Prediction> streaming(const Params& p) {
  bench::Prediction pr;
  pr.model = "streaming: in read once, out written once (descending or ascending, same sectors)";
  pr.dram_bytes = useful(p);
  return pr;
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "smem_reverse", "Reverse an array: global memory only vs static/dynamic shared memory");
  b.bytes_convention("read n floats + write n floats (2 n 4 bytes)")
      .int_axis("n", {"2^28"}, {"2^26"}, 1, std::int64_t{1} << 31, "floats in the array")
      .test_point({{"n", "1"}})
      .test_point({{"n", "64"}})  // the seeds' size
      .test_point({{"n", "1023"}})
      .test_point({{"n", "4099"}})
      .test_point({{"n", "24577"}})  // one full 96 KiB segment + 1
      .test_point({{"n", "1000003"}})
      .test_point({{"n", "4096"}})   // bulk: exactly one 16 KiB segment
      .test_point({{"n", "10000"}})  // bulk: two segments and a 1808-float tail
      // bulk_pipelined: 245 segments over 21 blocks (each ring wraps twice), a 580-float last
      // segment (145 quads: an odd count, a middle quad); bulk_pipelined_many: 489 8 KiB
      // segments over 41 blocks, a 580-float last one; n = 10000: 5 over 1 block (wraps once)
      .test_point({{"n", "1000004"}})
      .bytes(useful)
      .footprint(useful)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check);
  // For learners' kernels (memlab exercise): the point's buffers and size.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("in", "const float*", st.in.get(), st.in.bytes()),
        bench::kernel_arg("out", "float*", st.out.get(), st.out.bytes()),
        bench::kernel_arg("n", "int", static_cast<int>(st.n))};
  });
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description, [id](State& st, const Params&, cudaStream_t s) {
       launch(id, st.in.get(), st.out.get(), st.n, s);
     }).predict(streaming);
    if (id == Variant::Bulk || id == Variant::BulkPipelined || id == Variant::BulkPipelinedMany) {
      b.only_if([](const Params& p) { return p.n("n") % 4 == 0; },
                "cp.async.bulk: needs n a multiple of 4 (16-byte aligned mirrored segments)")
          .needs_device([](const Params&) { return hopper::sm90_or_no_device(); },
                        hopper::kNeedsSm90);
    }
  }
  b.baseline(variant_name(kVariants, Variant::Global));
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Ladder,
          .title = "GB/s per variant",
          .x = {"variant", false, ""},
          .y = {"gbps", false, "GB/s"},
          .references = {"memcpy", "baseline"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::smem_reverse
