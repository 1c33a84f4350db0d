// The six models as the user sees them: one input struct per model whose members are the CLI
// flags (with their defaults), `validate` (UsageError naming the flag, e.g. `--threads`), a pure
// `compute`, and JSON in and out. `memlab model X`, the JSON API (api.hpp), the web server and
// the WebAssembly build all go through these; docs/models.md lists the limits.
//
// Host-only: no CUDA, no CLI11; compiles with emscripten. The structs of the individual model
// headers (Pattern, TilingParams, ...) stay the lessons' C++ interface.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/model/banks.hpp"
#include "memlab/model/coalescing.hpp"
#include "memlab/model/coalescing_time.hpp"
#include "memlab/model/occupancy.hpp"
#include "memlab/model/params.hpp"
#include "memlab/model/roofline.hpp"
#include "memlab/model/tiling.hpp"
#include "memlab/model/timeline.hpp"

namespace memlab::model {

// Byte addresses and indices stay below 2^53, the largest integer a JSON number (JavaScript)
// holds exactly.
inline constexpr std::int64_t kMaxIndex = std::int64_t{1} << 48;
inline constexpr double kMaxAddress = 9007199254740992.0;  // 2^53

// ---- coalescing: `memlab model coalescing`
struct CoalescingInput {
  std::string pattern = "linear";  // --pattern linear|strided|offset|random|aos|row|column
  std::int64_t elem_size = 4;      // --elem-size 1, 2, 4, 8 or 16
  std::int64_t stride = 1;         // --stride [1, 2^48]
  std::int64_t offset = 0;         // --offset [0, 2^48]
  std::uint64_t seed = 1;          // --seed [0, 2^64 - 1]
  std::int64_t range = 1 << 20;    // --range [1, 2^48]
  std::int64_t fields = 4;         // --fields [1, 2^48]
  std::int64_t field = 0;          // --field [0, fields)
  std::int64_t width = 1024;       // --width [1, 2^48]
  std::int64_t row = 0;            // --row [0, 2^48]
  std::int64_t col = 0;            // --col [0, width)
  // The time of a whole pass (coalescing_time.hpp); device defaults: the H200 of docs/results.
  std::string kernel = "read";         // --kernel read|copy (the lesson's two kernels)
  std::int64_t bytes = 268435456;      // --bytes useful bytes read [32, 2^48]
  std::int64_t sms = 132;              // --sms [1, 1024]
  double clock_mhz = 1980.0;           // --clock-mhz (0, 10000]
  std::int64_t threads_per_sm = 2048;  // --threads-per-sm [32, 4096]
  double memcpy_gbps = 4227.0;         // --memcpy-gbps (0, 1e6]
};
struct CoalescingOutput {
  Pattern pattern;
  int elem_size = 4;
  WarpAccess warp;
  double array_pass_efficiency = 0.0;
  KernelShape kernel = KernelShape::kResidentRead;
  double bytes = 0;
  PassDevice device;
  PassTime time;
};

// ---- banks: `memlab model banks`
struct BanksInput {
  std::string pattern = "column";     // --pattern stride|column|row|broadcast
  std::int64_t elem_size = 4;         // --elem-size 4, 8 or 16
  std::int64_t stride = 1;            // --stride [1, 2^48]
  std::int64_t offset = 0;            // --offset [0, 2^48]
  std::int64_t width = 32;            // --width [1, 2^48]
  std::int64_t col = 0;               // --col [0, width)
  std::int64_t row = 0;               // --row [0, 2^48]
  std::vector<std::int64_t> indices;  // --indices: 32 indices in [0, 2^48] (replace the pattern)
};
struct BanksOutput {
  std::string what;  // "tile[lane][0] of tile[32][32]", "custom indices", ...
  BankAccess access;
};

// ---- tiling: `memlab model tiling`
struct TilingInput {
  std::int64_t output_tile = 1020;            // --output-tile [1, 2^20]
  std::int64_t mask = 5;                      // --mask odd, [1, output-tile]
  std::int64_t dims = 1;                      // --dims 1 or 2
  std::int64_t elem_size = 4;                 // --elem-size [1, 1024]
  std::int64_t shared_limit = 48 * 1024;      // --shared-limit [1, 2^40]
  std::int64_t max_threads_per_block = 1024;  // --max-threads-per-block [1, 2^20]
};
struct TilingOutput {
  TilingParams params;
  TilingResult result;
};

// ---- timeline: `memlab model timeline`
inline constexpr std::int64_t kMaxSegments = 1024;
inline constexpr double kMaxDuration = 1e12;
struct TimelineInput {
  std::int64_t segments = 4;                   // --segments [1, 1024]
  double h2d = 10.0;                           // --h2d [0, 1e12]
  double kernel = 10.0;                        // --kernel [0, 1e12]
  double d2h = 5.0;                            // --d2h [0, 1e12]
  std::vector<std::array<double, 3>> segment;  // --segment H2D,KERNEL,D2H (replaces the above)
  std::int64_t streams = 4;                    // --streams [1, 1024]
  std::int64_t copy_engines = 2;               // --copy-engines [1, 64]
  std::string order = "depth";                 // --order depth|breadth|rounds
  std::string queues = "inorder";              // --queues inorder|perstream
  bool concurrent_kernels = false;             // --concurrent-kernels
  std::int64_t width = 60;                     // --width [10, 400]: Gantt chart (text only)
};
struct TimelineOutput {
  TimelineParams params;
  TimelineResult result;
};

// ---- roofline: `memlab model roofline` (default: SAXPY over 2^28 floats)
struct RooflineInput {
  double bytes = 12.0 * (1 << 28);             // --bytes [0, 1e30]
  double flops = 2.0 * (1 << 28);              // --flops [0, 1e30]
  double peak_bandwidth = kH200PeakBandwidth;  // --peak-bandwidth [1, 1e30] B/s
  double peak_flops = kH200PeakFp32Flops;      // --peak-flops [1, 1e30] flop/s
};
struct RooflineOutput {
  RooflineParams params;
  RooflineResult result;
};

// ---- occupancy: `memlab model occupancy` (default limits: H200)
struct OccupancyInput {
  std::int64_t threads = 256;  // --threads [1, max-threads-per-block]
  std::int64_t regs = 32;      // --regs [0, max-regs-per-thread]
  std::int64_t smem = 0;       // --smem [0, max-smem-per-block]
  DeviceLimits limits;         // --regs-per-sm, --max-regs-per-thread, ... (see the catalog)
};
struct OccupancyOutput {
  OccupancyParams params;
  DeviceLimits limits;
  OccupancyResult result;
};

// validate: throws UsageError naming the flag; compute: validates, then computes (pure).
void validate(const CoalescingInput& in);
void validate(const BanksInput& in);
void validate(const TilingInput& in);
void validate(const TimelineInput& in);
void validate(const RooflineInput& in);
void validate(const OccupancyInput& in);
CoalescingOutput compute(const CoalescingInput& in);
BanksOutput compute(const BanksInput& in);
TilingOutput compute(const TilingInput& in);
TimelineOutput compute(const TimelineInput& in);
RooflineOutput compute(const RooflineInput& in);
OccupancyOutput compute(const OccupancyInput& in);

// JSON out: exactly what `memlab model X --json` prints ({"model", "params", "result"}).
nlohmann::json to_json(const CoalescingOutput& out);
nlohmann::json to_json(const BanksInput& in, const BanksOutput& out);
nlohmann::json to_json(const TilingOutput& out);
nlohmann::json to_json(const TimelineOutput& out);
nlohmann::json to_json(const RooflineOutput& out);
nlohmann::json to_json(const OccupancyOutput& out);

// JSON in: the parameters by key (CLI flag without dashes; null = all defaults), then validate.
CoalescingInput coalescing_input(const nlohmann::json& params);
BanksInput banks_input(const nlohmann::json& params);
TilingInput tiling_input(const nlohmann::json& params);
TimelineInput timeline_input(const nlohmann::json& params);
RooflineInput roofline_input(const nlohmann::json& params);
OccupancyInput occupancy_input(const nlohmann::json& params);

// The parameter tables (catalog, CLI options).
const Fields<CoalescingInput>& coalescing_fields();
const Fields<BanksInput>& banks_fields();
const Fields<TilingInput>& tiling_fields();
const Fields<TimelineInput>& timeline_fields();
const Fields<RooflineInput>& roofline_fields();
const Fields<OccupancyInput>& occupancy_fields();

}  // namespace memlab::model
