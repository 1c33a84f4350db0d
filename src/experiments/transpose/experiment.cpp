// Registration of the transpose lesson. The baseline is the copy kernel, so the speed-up column
// reads as "fraction of the copy ceiling"; the harness adds % of cudaMemcpy.
#include <fmt/format.h>

#include <memory>
#include <vector>

#include "common/cublas.hpp"
#include "common/hopper.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/buffer.hpp"
#include "memlab/cuda/fill.hpp"
#include "memlab/model/coalescing.hpp"
#include "transpose/kernels.cuh"
#include "transpose/reference.hpp"
#include "transpose/vendor.hpp"

namespace memlab::lessons::transpose {
namespace {

using bench::Params;

constexpr std::int64_t kMaxElems = std::int64_t{1} << 31;

struct State {
  int rows = 0, cols = 0;
  std::uint64_t seed = 0;
  DeviceBuffer<float> in, out;
  std::unique_ptr<CublasHandle> cublas;  // where cuBLAS is installed; else `cublas` is skipped
  std::size_t n() const { return static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols); }
};

double elems(const Params& p) {
  return static_cast<double>(p.n("rows") * p.n("cols"));
}
double useful(const Params& p) {
  return 2.0 * 4.0 * elems(p);
}

void validate(const Params& p) {
  if (p.n("rows") * p.n("cols") > kMaxElems) {
    throw UsageError(
        fmt::format("axis rows x cols: {} x {} is over 2^31 elements; accepted: "
                    "rows * cols <= 2^31",
                    p.n("rows"), p.n("cols")));
  }
}

State setup(const Params& p, std::uint64_t seed) {
  State st;
  st.rows = static_cast<int>(p.n("rows"));
  st.cols = static_cast<int>(p.n("cols"));
  st.seed = seed;
  st.in = DeviceBuffer<float>(st.n());
  st.out = DeviceBuffer<float>(st.n());
  fill_uniform(st.in.get(), st.n(), seed, -1.0f, 1.0f, nullptr);
  MEMLAB_CUDA_CHECK(cudaDeviceSynchronize());
  if (cublas_available()) st.cublas = std::make_unique<CublasHandle>();
  return st;
}

bench::Check check(State& st, const Params&, const std::string& variant) {
  std::vector<float> got(st.n());
  st.out.copy_to_host(got.data(), got.size());
  const auto rows = static_cast<std::size_t>(st.rows), cols = static_cast<std::size_t>(st.cols);
  switch (variant_of(kVariants, variant, "transpose")) {
    case Variant::TileSwap:  // reference lines: the block-transposed matrix
    case Variant::TileSwapPipe:
    case Variant::TileSwapG32:
    case Variant::TileMirror:
      return check_tile_swap(got.data(), rows, cols, st.seed, kSwapTile);
    case Variant::TileSwap128:
      return check_tile_swap(got.data(), rows, cols, st.seed, kSwapTile128);
    case Variant::Copy:  // reference lines: out = in
    case Variant::TileCopy:
      return check_output(got.data(), rows, cols, st.seed, false);
    default:
      return check_output(got.data(), rows, cols, st.seed, true);
  }
}

std::optional<bench::Prediction> coalesced(const Params& p) {
  bench::Prediction pr;
  pr.model = "coalesced rows in and out: every useful byte crosses DRAM once";
  pr.dram_bytes = useful(p);
  return pr;
}

std::optional<bench::Prediction> column_writes(const Params& p) {
  model::Pattern pat;
  pat.kind = model::AccessKind::kColumn;
  pat.width = p.n("rows");  // out's row width
  const double eff = model::coalescing_efficiency(pat, 4);
  bench::Prediction pr;
  pr.model =
      fmt::format("coalescing: column writes {:.1f}% of each written sector used", 100 * eff);
  pr.dram_bytes = 4.0 * elems(p) + 4.0 * elems(p) / eff;
  return pr;
}

// Which memory model predicts a variant: only naive writes columns.
using Model = std::optional<bench::Prediction> (*)(const Params&);
Model model_of(Variant v) {
  switch (v) {
    case Variant::Naive:
      return column_writes;
    case Variant::Smem:
    case Variant::SmemPadded:
    case Variant::PaddedCoarse:
    case Variant::Tile64F4:
    case Variant::Tile64F4Grouped:
    case Variant::Tile64F4Deep:
    case Variant::Tile64F4G32:
    case Variant::Tile64S:
    case Variant::Tile64SFull:
    case Variant::Tile64SRows:
    case Variant::Tile64SRows32:
    case Variant::Tile64SCol:
    case Variant::Tile64SL2p:
    case Variant::Tile64SColL2p:
    case Variant::Tile128F4:
    case Variant::Tile64F4Pipe:
    case Variant::Tma:
    case Variant::TmaPipelined:
    case Variant::TmaPipelinedMany:
    case Variant::TmaWs:
    case Variant::TileSwap:
    case Variant::TileSwapPipe:
    case Variant::TileSwap128:
    case Variant::TileSwapG32:
    case Variant::TileCopy:
    case Variant::TileMirror:
    case Variant::Cublas:
    case Variant::Copy:
      return coalesced;
  }
  invalid_variant("transpose");
}

bench::Experiment make() {
  bench::ExperimentBuilder<State> b(
      "transpose",
      "Matrix transpose: naive, shared-memory tiles, padding, "
      "coarsening, float4; a copy kernel as the ceiling, tile swaps as the "
      "address stream's, cuBLAS's geam as the vendor line");
  b.bytes_convention("read rows x cols floats once + write them once (2 rows cols 4 bytes)")
      .int_axis("rows", {"16384"}, {"8192"}, 1, std::int64_t{1} << 20, "rows of the input")
      .int_axis("cols", {"16384", "8192"}, {"8192"}, 1, std::int64_t{1} << 24,
                "columns of the input (default 16384^2 and the non-square 16384 x 8192)")
      .test_point({{"rows", "1"}, {"cols", "1"}})
      .test_point({{"rows", "33"}, {"cols", "65"}})
      .test_point({{"rows", "1000"}, {"cols", "999"}})
      .test_point({{"rows", "4097"}, {"cols", "31"}})
      .test_point({{"rows", "128"}, {"cols", "192"}})  // whole 64-tiles, float4 path only
      .test_point({{"rows", "260"}, {"cols", "132"}})  // float4 path plus edge tiles
      .test_point({{"rows", "36"}, {"cols", "100"}})   // tma: clipped boxes on both edges
      // tma_pipelined: 32 x 32 = 1024 tiles (clipped on both edges) over 86 blocks, so that each
      // block's ring wraps; 260 x 132 above: 45 tiles over 4 blocks; tma_pipelined_many: 1024
      // tiles over 171 blocks, 45 over 8 (its 2-stage ring wraps 2-3 times)
      .test_point({{"rows", "1000"}, {"cols", "996"}})
      // tile64_f4_grouped: 19 x 10 tiles, raster bands of 8, 8, 3 tile rows and squares 8 and 2
      // wide, float4 path plus clipped edge tiles; tile64_f4_deep: 10 x 10 tiles of 128 x 64
      // (bands 8 and 2, the last tile row 4 rows high). 260 x 132, 1000 x 996, 1000 x 999 above
      // cover both too (one band; the scalar path at 999).
      .test_point({{"rows", "1156"}, {"cols", "600"}})
      // tile_swap128 (and tile128_f4): 1 x 2 whole 128-tiles on the scalar path (257 not a
      // multiple of 4), clipped tiles 1 row high and 1 col wide; tile_swap: 2 x 4 whole tiles,
      // the same edges. 1000 x 996 above: 7 x 7 whole 128-tiles on the float4 path plus clipped
      // edges; 1000 x 999: whole tiles on the scalar path for all three; 128 x 192: one whole
      // 128-tile and a clipped 128 x 64 one; 260 x 132: 2 x 1 whole, edges 4 rows / 4 cols.
      .test_point({{"rows", "129"}, {"cols", "257"}})
      .test_point({{"rows", "1"}, {"cols", "1000"}})  // one clipped tile row, no whole tile
      .test_point({{"rows", "300"}, {"cols", "4"}})   // vec, but only clipped tiles 4 cols wide
      // tile_swap_pipe and tile64_f4_pipe (persistent grids of 4 and 6 blocks per SM: 528 and 792
      // on an H200): 40 x 33 = 1320 64-tiles, more than the blocks, so blocks walk 1-3 tiles and
      // switch between float4 tiles and the clipped last tile row (4 rows high) and col (4 cols
      // wide) inside their loop; every smaller point has fewer tiles than blocks (one tile per
      // block, the prologue and the last step only). 2050 x 2500: 33 x 40 tiles, not vec (whole
      // tiles element by element, clipped 2 rows / 4 cols), also more tiles than blocks.
      // tile64_f4_g32 and tile_swap_g32 (G = 32 raster): 2500 x 2052 has bands of 32 and 8 tile
      // rows and squares 32 and 1 wide (vec: a whole 32 x 32 square of float4 tiles, then the
      // narrow ones with the clipped last col); 2050 x 2500 bands 32 and 1 (the last clipped to
      // 2 rows), squares 32 and 8 (not vec); 4097 x 31: bands 32, 32, 1 of 1-wide squares; every
      // other point has fewer than 32 tile rows and cols (one band, one square: 1000 x 996 16 x
      // 16, 1156 x 600 19 x 10, 260 x 132 5 x 3, ...).
      .test_point({{"rows", "2500"}, {"cols", "2052"}})
      .test_point({{"rows", "2050"}, {"cols", "2500"}})
      // tile64_s, tile64_s_full (round six c) and tile64_s_rows (six d): guarded scalar accesses
      // only, no float4 path; clipped tiles at every point not a multiple of 64 (33 x 65: the last
      // tile col has half 0 1 col wide, half 1 empty; 4097 x 31: half 0 31 wide, half 1 empty;
      // 1000 x 999, 129 x 257 and the rest); round seven's tile64_s_col (1D grid, tile rows
      // fastest: at 4097 x 31 65 tile rows of one col, at 1 x 1000 16 cols of one row),
      // tile64_s_l2p, tile64_s_col_l2p and tile_mirror (a whole tile row-wise, clipped tiles
      // transposed) at the same points; tile64_s_rows32's unguarded kernel at 128 x 192 (whole
      // tiles, 3 x 2), the guarded one elsewhere.
      .validate(validate)
      .bytes(useful)
      .footprint(useful)
      .setup(setup)
      .poison([](State& st, const Params&, cudaStream_t s) { st.out.fill_bytes(0xFF, s); })
      .check(check);
  // For learners' kernels (memlab exercise): the point's buffers and sizes.
  b.kernel_args([](State& st, const Params&) {
    return std::vector<bench::KernelArg>{
        bench::kernel_arg("in", "const float*", st.in.get(), st.in.bytes()),
        bench::kernel_arg("out", "float*", st.out.get(), st.out.bytes()),
        bench::kernel_arg("rows", "int", st.rows), bench::kernel_arg("cols", "int", st.cols)};
  });
  for (const VariantInfo<Variant>& v : kVariants) {
    const Variant id = v.id;
    b.variant(v.name, v.description, [id](State& st, const Params&, cudaStream_t s) {
       if (id == Variant::Cublas) {
         if (!st.cublas) throw bench::SkipPoint(kCublasMissing);
         cublas_transpose(st.cublas->get(), st.in.get(), st.out.get(), st.rows, st.cols, s);
       } else {
         launch(id, st.in.get(), st.out.get(), st.rows, st.cols, s);
       }
     }).predict(model_of(id));
    if (id == Variant::Cublas)
      b.needs_device([](const Params&) { return cublas_available(); }, kCublasMissing);
    if (id == Variant::Tma || id == Variant::TmaPipelined || id == Variant::TmaPipelinedMany ||
        id == Variant::TmaWs) {
      b.only_if([](const Params& p) { return p.n("rows") % 4 == 0 && p.n("cols") % 4 == 0; },
                "TMA: needs rows and cols multiples of 4 (16-byte row strides)")
          .needs_device([](const Params&) { return hopper::sm90_or_no_device(); },
                        hopper::kNeedsSm90);
    }
  }
  b.baseline(variant_name(kVariants, Variant::Copy));
  // copy is the ceiling, not a transpose: a reference line like a vendor's, so the headline's
  // best is the best transpose and reads as a percentage of the copy. tile_swap, tile_swap128 and
  // tile_swap_pipe (not transposes either: the transpose's address stream without its in-SM work)
  // are reference lines too, and so are round six b's tile_swap_g32 (a swap), tile_copy (a
  // copy) and round seven's tile_mirror (tile64_s_full's kernel writing the swap). cublas (the
  // library's transpose, cublasSgeam) is the vendor line proper. The headline's "vendor" is the
  // fastest of these (copy, unless a swap, a mirror, tile_copy or cuBLAS beats it); none of them is
  // the lesson's best.
  b.vendor(variant_name(kVariants, Variant::Copy))
      .vendor(variant_name(kVariants, Variant::TileSwap))
      .vendor(variant_name(kVariants, Variant::TileSwap128))
      .vendor(variant_name(kVariants, Variant::TileSwapPipe))
      .vendor(variant_name(kVariants, Variant::TileSwapG32))
      .vendor(variant_name(kVariants, Variant::TileCopy))
      .vendor(variant_name(kVariants, Variant::TileMirror))
      .vendor(variant_name(kVariants, Variant::Cublas));
  // The controls and cuBLAS's transpose are drawn as reference lines, not as steps.
  b.plot({.id = "gbps",
          .kind = bench::PlotKind::Ladder,
          .title = "GB/s per transpose against a plain copy",
          .x = {"variant", false, ""},
          .y = {"gbps", false, "GB/s"},
          .facet = "cols",
          .references = {"memcpy", "baseline", "vendor"},
          .model = true});
  return b.build();
}

[[maybe_unused]] const bool registered = bench::register_experiment(make());

}  // namespace
}  // namespace memlab::lessons::transpose
