// `memlab model ...`: the analytical models as tables, ASCII pictures or JSON.
#include "memlab/cli/model_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/common/error.hpp"
#include "memlab/model/banks.hpp"
#include "memlab/model/coalescing.hpp"
#include "memlab/model/occupancy.hpp"
#include "memlab/model/roofline.hpp"
#include "memlab/model/tiling.hpp"
#include "memlab/model/timeline.hpp"

namespace memlab::cli {
namespace {

using nlohmann::json;
namespace m = memlab::model;

// "0-7,9,12-13": a sorted list of lanes, compressed into ranges.
std::string lane_ranges(const std::vector<int>& lanes) {
  std::string out;
  for (std::size_t i = 0; i < lanes.size();) {
    std::size_t j = i;
    while (j + 1 < lanes.size() && lanes[j + 1] == lanes[j] + 1) ++j;
    if (!out.empty()) out += ',';
    out += j == i ? fmt::format("{}", lanes[i]) : fmt::format("{}-{}", lanes[i], lanes[j]);
    i = j + 1;
  }
  return out;
}

std::string percent(double fraction) {
  return fmt::format("{:.1f} %", 100.0 * fraction);
}

// ---------------------------------------------------------------------------------- coalescing
struct CoalescingOptions {
  std::string pattern = "linear";
  int elem_size = 4;
  m::Pattern p;
  std::int64_t row = 0;
  std::int64_t col = 0;
  bool json = false;
};

json coalescing_json(const CoalescingOptions& o, const m::Pattern& p, const m::WarpAccess& w,
                     double pass_efficiency) {
  json params = {{"pattern", std::string(m::to_string(p.kind))},
                 {"elem_size", o.elem_size},
                 {"offset", p.offset}};
  switch (p.kind) {
    case m::AccessKind::kStrided:
      params["stride"] = p.stride;
      break;
    case m::AccessKind::kRandom:
      params["seed"] = p.seed;
      params["range"] = p.range;
      break;
    case m::AccessKind::kAosField:
      params["fields"] = p.fields;
      params["field"] = p.field;
      break;
    case m::AccessKind::kRow:
      params["width"] = p.width;
      params["row"] = p.row_or_col;
      break;
    case m::AccessKind::kColumn:
      params["width"] = p.width;
      params["col"] = p.row_or_col;
      break;
    default:
      break;
  }
  return {{"model", "coalescing"},
          {"params", params},
          {"result",
           {{"addresses", w.addresses},
            {"sectors", w.sectors.size()},
            {"lines", w.lines.size()},
            {"sector_ids", w.sectors},
            {"line_ids", w.lines},
            {"min_sectors", w.min_sectors},
            {"bytes_moved", w.bytes_moved},
            {"bytes_needed", w.bytes_needed},
            {"efficiency", w.efficiency},
            {"array_pass_efficiency", pass_efficiency}}}};
}

void print_coalescing(const m::Pattern& p, int elem_size, const m::WarpAccess& w,
                      double pass_efficiency) {
  fmt::print("Coalescing model: one warp load, pattern {}, {}-byte elements\n",
             m::to_string(p.kind), elem_size);
  fmt::print("(32-byte sectors, 128-byte lines; the array starts on a 128-byte boundary)\n\n");
  fmt::print("  {:<28}{}\n", "32-byte sectors", w.sectors.size());
  fmt::print("  {:<28}{}\n", "128-byte lines", w.lines.size());
  fmt::print("  {:<28}{} / {} B\n", "moved / needed", w.bytes_moved, w.bytes_needed);
  fmt::print("  {:<28}{}\n", "efficiency (this warp)", percent(w.efficiency));
  fmt::print("  {:<28}{}\n", "efficiency (array pass)", percent(pass_efficiency));
  fmt::print("  {:<28}{}\n\n", "ideal sectors", w.min_sectors);

  fmt::print("Lanes -> byte address\n");
  for (int row = 0; row < 4; ++row) {
    std::string line = " ";
    for (int lane = row * 8; lane < row * 8 + 8; ++lane) {
      line += fmt::format(" {:>2}:{:<8}", lane, w.addresses[static_cast<std::size_t>(lane)]);
    }
    fmt::print("{}\n", line);
  }

  fmt::print("\nSectors touched (# = 4 bytes needed, . = fetched but unused) and their lanes\n");
  for (std::int64_t sector : w.sectors) {
    std::string cells(8, '.');
    std::vector<int> lanes;
    for (int lane = 0; lane < m::kWarpSize; ++lane) {
      const std::int64_t a = w.addresses[static_cast<std::size_t>(lane)];
      if (a / m::kSectorBytes != sector) continue;
      lanes.push_back(lane);
      const std::int64_t first = (a % m::kSectorBytes) / 4;
      const std::int64_t last = (a % m::kSectorBytes + elem_size - 1) / 4;
      for (std::int64_t c = first; c <= last; ++c) cells[static_cast<std::size_t>(c)] = '#';
    }
    fmt::print("  line {:>6} sector {} [{}]  bytes {:>8}..{:<8} lanes {}\n",
               sector * m::kSectorBytes / m::kLineBytes, sector % 4, cells,
               sector * m::kSectorBytes, sector * m::kSectorBytes + m::kSectorBytes - 1,
               lane_ranges(lanes));
  }
}

void add_coalescing(CLI::App& model, int& exit_code) {
  auto o = std::make_shared<CoalescingOptions>();
  auto* cmd = model.add_subcommand(
      "coalescing", "Sectors and lines one warp load touches (seed 001: stride 1, 4 B -> 100 %)");
  cmd->add_option("--pattern", o->pattern, "linear|strided|offset|random|aos|row|column")
      ->capture_default_str();
  cmd->add_option("--elem-size", o->elem_size, "bytes per element: 1, 2, 4, 8 or 16")
      ->capture_default_str();
  cmd->add_option("--stride", o->p.stride, "strided: elements between lanes (>= 1)")
      ->capture_default_str();
  cmd->add_option("--offset", o->p.offset, "elements added to every index (>= 0)")
      ->capture_default_str();
  cmd->add_option("--seed", o->p.seed, "random: generator seed")->capture_default_str();
  cmd->add_option("--range", o->p.range, "random: indices in [0, range)")->capture_default_str();
  cmd->add_option("--fields", o->p.fields, "aos: fields per structure")->capture_default_str();
  cmd->add_option("--field", o->p.field, "aos: the field read")->capture_default_str();
  cmd->add_option("--width", o->p.width, "row/column: row width of the 2D array (elements)")
      ->capture_default_str();
  cmd->add_option("--row", o->row, "row: the row read")->capture_default_str();
  cmd->add_option("--col", o->col, "column: the column read")->capture_default_str();
  cmd->add_flag("--json", o->json, "print JSON instead of a table");
  cmd->callback([o, &exit_code] {
    m::Pattern p = o->p;
    p.kind = m::parse_access_kind(o->pattern);
    p.row_or_col = p.kind == m::AccessKind::kColumn ? o->col : o->row;
    const auto w = m::analyze_warp(p, o->elem_size);
    const double pass = m::coalescing_efficiency(p, o->elem_size);
    if (o->json) {
      fmt::print("{}\n", coalescing_json(*o, p, w, pass).dump(2));
    } else {
      print_coalescing(p, o->elem_size, w, pass);
    }
    exit_code = kExitOk;
  });
}

// ---------------------------------------------------------------------------------------- banks
struct BanksOptions {
  std::string pattern = "column";
  int elem_size = 4;
  m::BankPattern p;
  std::vector<std::int64_t> indices;
  bool json = false;
};

void print_banks(const std::string& what, const m::BankAccess& b) {
  fmt::print("Shared-memory bank model: {}, {}-byte elements\n", what, b.elem_size);
  fmt::print("(32 banks of 4 bytes; bank = word address mod 32; same word = broadcast)\n\n");
  fmt::print("  {:<28}{}-way\n", "conflict degree",
             b.degree == std::floor(b.degree) ? fmt::format("{:.0f}", b.degree)
                                              : fmt::format("{:.2f}", b.degree));
  fmt::print("  {:<28}{} (conflict-free: {})\n", "passes (wavefronts)", b.passes, b.min_passes);
  fmt::print("  {:<28}{}\n", "lanes with broadcast", b.broadcast_lanes);
  if (b.phases.size() > 1) {
    fmt::print("  {:<28}{} phases of {} lanes\n", "phases", b.phases.size(), b.phases[0].lanes);
  }
  for (const auto& phase : b.phases) {
    fmt::print("\n");
    if (b.phases.size() > 1) {
      fmt::print("Phase lanes {}-{}: {} pass(es)\n", phase.first_lane,
                 phase.first_lane + phase.lanes - 1, phase.passes);
    }
    std::string header = "bank   |";
    for (int bank = 0; bank < m::kBanks; ++bank) header += fmt::format("{:>3} ", bank);
    fmt::print("{}\n", header);
    fmt::print("{}\n", std::string(header.size(), '-'));
    for (int pass = 0; pass < phase.passes; ++pass) {
      std::string row = fmt::format("pass {:<2}|", pass + 1);
      for (int bank = 0; bank < m::kBanks; ++bank) {
        const auto& lanes = phase.lanes_of_word[static_cast<std::size_t>(bank)];
        if (pass < static_cast<int>(lanes.size())) {
          const auto& readers = lanes[static_cast<std::size_t>(pass)];
          row += fmt::format("{:>3}{}", readers.front(), readers.size() > 1 ? '*' : ' ');
        } else {
          row += "  . ";
        }
      }
      fmt::print("{}\n", row);
    }
  }
  fmt::print(
      "\nNumber = lowest lane reading that word; * = several lanes read it (broadcast, free);\n"
      "row k = the k-th distinct word of a bank: every row after the first is a conflict pass.\n");
}

void add_banks(CLI::App& model, int& exit_code) {
  auto o = std::make_shared<BanksOptions>();
  auto* cmd = model.add_subcommand(
      "banks", "Conflict degree of one warp's shared-memory access (default: tile[32][32] column)");
  cmd->add_option("--pattern", o->pattern, "stride|column|row|broadcast")->capture_default_str();
  cmd->add_option("--elem-size", o->elem_size, "bytes per element: 4, 8 or 16")
      ->capture_default_str();
  cmd->add_option("--stride", o->p.stride, "stride: elements between lanes (>= 1)")
      ->capture_default_str();
  cmd->add_option("--offset", o->p.offset, "stride/broadcast: first element")
      ->capture_default_str();
  cmd->add_option("--width", o->p.width, "column/row: tile row width in elements (33 = padded)")
      ->capture_default_str();
  cmd->add_option("--col", o->p.col, "column: tile[lane][col]")->capture_default_str();
  cmd->add_option("--row", o->p.row, "row: tile[row][lane]")->capture_default_str();
  cmd->add_option("--indices", o->indices, "32 element indices, one per lane (overrides pattern)")
      ->delimiter(',');
  cmd->add_flag("--json", o->json, "print JSON instead of a table");
  cmd->callback([o, &exit_code] {
    std::array<std::int64_t, 32> indices{};
    std::string what;
    if (!o->indices.empty()) {
      if (o->indices.size() != 32) {
        throw UsageError(
            fmt::format("indices: must list 32 element indices (got {})", o->indices.size()));
      }
      std::copy(o->indices.begin(), o->indices.end(), indices.begin());
      what = "custom indices";
    } else {
      m::BankPattern p = o->p;
      p.kind = m::parse_bank_pattern(o->pattern);
      indices = m::bank_indices(p);
      switch (p.kind) {
        case m::BankPatternKind::kStride:
          what = fmt::format("s[{} + lane * {}]", p.offset, p.stride);
          break;
        case m::BankPatternKind::kColumn:
          what = fmt::format("tile[lane][{}] of tile[32][{}]", p.col, p.width);
          break;
        case m::BankPatternKind::kRow:
          what = fmt::format("tile[{}][lane] of tile[..][{}]", p.row, p.width);
          break;
        case m::BankPatternKind::kBroadcast:
          what = fmt::format("s[{}] for every lane", p.offset);
          break;
      }
    }
    const auto b = m::analyze_banks(indices, o->elem_size);
    if (o->json) {
      json phases = json::array();
      for (const auto& ph : b.phases) {
        phases.push_back(
            {{"first_lane", ph.first_lane}, {"lanes", ph.lanes}, {"passes", ph.passes}});
      }
      json params = {{"pattern", o->indices.empty() ? o->pattern : std::string("indices")},
                     {"elem_size", o->elem_size}};
      if (o->indices.empty()) {
        params["stride"] = o->p.stride;
        params["offset"] = o->p.offset;
        params["width"] = o->p.width;
        params["col"] = o->p.col;
        params["row"] = o->p.row;
      }
      const json out = {{"model", "banks"},
                        {"params", params},
                        {"result",
                         {{"indices", b.indices},
                          {"degree", b.degree},
                          {"passes", b.passes},
                          {"min_passes", b.min_passes},
                          {"broadcast_lanes", b.broadcast_lanes},
                          {"phases", phases}}}};
      fmt::print("{}\n", out.dump(2));
    } else {
      print_banks(what, b);
    }
    exit_code = kExitOk;
  });
}

// --------------------------------------------------------------------------------------- tiling
struct TilingOptions {
  m::TilingParams p;
  bool json = false;
};

void print_tiling(const m::TilingParams& p, const m::TilingResult& r) {
  const std::string sq = p.dims == 2 ? "^2" : "";
  fmt::print("Tiling model: {}D convolution, output tile {}, mask {} (interior tile)\n", p.dims,
             p.output_tile, p.mask);
  fmt::print("(design: one thread per input element; all load, only output threads compute)\n\n");
  fmt::print("  {:<34}{} = {} + {} - 1\n", "input tile width", r.input_tile, p.output_tile, p.mask);
  fmt::print("  {:<34}{}\n", "halo per side", r.halo);
  fmt::print("  {:<34}{} ({}{}){}{}\n", "threads per block", r.block_threads, r.input_tile, sq,
             r.block_is_warp_multiple ? "" : ", not a multiple of 32",
             r.block_fits ? "" : fmt::format(", above {} threads", p.max_threads_per_block));
  fmt::print("  {:<34}{}\n", "threads computing an output", r.output_threads);
  fmt::print("  {:<34}{} ({})\n", "idle threads after the load", r.idle_threads,
             percent(r.idle_fraction));
  fmt::print("  {:<34}{} B\n", "shared memory per block", r.shared_bytes);
  fmt::print("  {:<34}{}\n", "global reads per output, untiled", r.inputs_per_output_untiled);
  fmt::print("  {:<34}{:.4f}\n", "global reads per output, tiled", r.inputs_per_output_tiled);
  fmt::print("  {:<34}{:.2f}x (limit {}x for huge tiles)\n", "reduction of global reads", r.reuse,
             r.reuse_limit);
  // Picture: one row of the input tile, scaled to at most 64 characters.
  const int cols = std::min(r.input_tile, 64);
  std::string row;
  for (int c = 0; c < cols; ++c) {
    const int x = static_cast<int>(static_cast<std::int64_t>(c) * r.input_tile / cols);
    row += (x < r.halo || x >= r.input_tile - r.halo) ? 'h' : 'o';
  }
  fmt::print("\n{} of the input tile{} (h = halo, loaded only; o = output position):\n",
             p.dims == 2 ? "Rows" : "One row",
             cols < r.input_tile ? fmt::format(" (scaled {}:{})", r.input_tile, cols) : "");
  const int rows = p.dims == 2 ? std::min(r.input_tile, 16) : 1;
  for (int y = 0; y < rows; ++y) {
    const int yy = static_cast<int>(static_cast<std::int64_t>(y) * r.input_tile / rows);
    const bool halo_row = p.dims == 2 && (yy < r.halo || yy >= r.input_tile - r.halo);
    fmt::print("  {}\n", halo_row ? std::string(row.size(), 'h') : row);
  }
}

void add_tiling(CLI::App& model, int& exit_code) {
  auto o = std::make_shared<TilingOptions>();
  auto* cmd = model.add_subcommand(
      "tiling", "Input tile, halo, idle threads and reuse of a tiled convolution (seed 000)");
  cmd->add_option("--output-tile", o->p.output_tile, "O_TILE_WIDTH: outputs per tile side")
      ->capture_default_str();
  cmd->add_option("--mask", o->p.mask, "mask width (odd)")->capture_default_str();
  cmd->add_option("--dims", o->p.dims, "1 or 2")->capture_default_str();
  cmd->add_option("--elem-size", o->p.elem_size, "bytes per element")->capture_default_str();
  cmd->add_option("--shared-limit", o->p.shared_limit, "shared bytes a block may use")
      ->capture_default_str();
  cmd->add_option("--max-threads-per-block", o->p.max_threads_per_block, "device limit")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print JSON instead of a table");
  cmd->callback([o, &exit_code] {
    const auto& p = o->p;
    const auto r = m::analyze_tiling(p);
    if (o->json) {
      const json out = {{"model", "tiling"},
                        {"params",
                         {{"output_tile", p.output_tile},
                          {"mask", p.mask},
                          {"dims", p.dims},
                          {"elem_size", p.elem_size},
                          {"shared_limit", p.shared_limit}}},
                        {"result",
                         {{"input_tile", r.input_tile},
                          {"halo", r.halo},
                          {"block_threads", r.block_threads},
                          {"output_threads", r.output_threads},
                          {"idle_threads", r.idle_threads},
                          {"idle_fraction", r.idle_fraction},
                          {"block_is_warp_multiple", r.block_is_warp_multiple},
                          {"block_fits", r.block_fits},
                          {"shared_bytes", r.shared_bytes},
                          {"inputs_per_output_untiled", r.inputs_per_output_untiled},
                          {"inputs_per_output_tiled", r.inputs_per_output_tiled},
                          {"reuse", r.reuse},
                          {"reuse_limit", r.reuse_limit}}}};
      fmt::print("{}\n", out.dump(2));
    } else {
      print_tiling(p, r);
    }
    exit_code = kExitOk;
  });
}

// ------------------------------------------------------------------------------------- timeline
struct TimelineOptions {
  int segments = 4;
  double h2d = 10.0;
  double kernel = 10.0;
  double d2h = 5.0;
  std::vector<std::string> segment_list;
  int streams = 4;
  int copy_engines = 2;
  std::string order = "depth";
  std::string queues = "inorder";
  bool concurrent_kernels = false;
  int width = 60;
  bool json = false;
};

m::Segment parse_segment(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = text.find(',', pos);
    parts.push_back(text.substr(pos, comma == std::string::npos ? comma : comma - pos));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  std::vector<double> values;
  for (const auto& part : parts) {
    std::size_t used = 0;
    double value = 0.0;
    try {
      value = std::stod(part, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (part.empty() || used != part.size()) break;
    values.push_back(value);
  }
  if (parts.size() != 3 || values.size() != 3) {
    throw UsageError(
        fmt::format("segment: must be three durations H2D,KERNEL,D2H (got '{}')", text));
  }
  return m::Segment{values[0], values[1], values[2]};
}

std::string engine_label(m::EngineKind e) {
  switch (e) {
    case m::EngineKind::kCopy:
      return "copy engine";
    case m::EngineKind::kH2D:
      return "H2D engine";
    case m::EngineKind::kCompute:
      return "compute";
    case m::EngineKind::kD2H:
      return "D2H engine";
  }
  return "?";
}

void print_gantt(const m::TimelineParams& p, const m::TimelineResult& r, int width) {
  const double scale = width / r.makespan;
  auto cell = [&](double t) {
    return std::clamp(static_cast<int>(std::lround(t * scale)), 0, width);
  };
  auto digit = [](int segment) {
    constexpr std::string_view kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
    return kDigits[static_cast<std::size_t>(segment) % kDigits.size()];
  };
  struct Row {
    std::string label;
    std::string cells;
  };
  std::vector<Row> rows;
  for (const auto& load : r.engines) {
    if (load.engine == m::EngineKind::kCompute && !load.serialized) {
      for (int s = 0; s < p.streams; ++s) {
        Row row{fmt::format("kernels s{}", s), std::string(static_cast<std::size_t>(width), '.')};
        for (const auto& op : r.operations) {
          if (op.engine != load.engine || op.stream != s) continue;
          for (int c = cell(op.start); c < cell(op.end); ++c) row.cells[c] = digit(op.segment);
        }
        rows.push_back(row);
      }
      continue;
    }
    Row row{engine_label(load.engine), std::string(static_cast<std::size_t>(width), '.')};
    Row dir{"  direction", std::string(static_cast<std::size_t>(width), ' ')};
    for (const auto& op : r.operations) {
      if (op.engine != load.engine) continue;
      for (int c = cell(op.start); c < cell(op.end); ++c) {
        row.cells[c] = digit(op.segment);
        dir.cells[c] = op.stage == m::Stage::kH2D ? '>' : '<';
      }
    }
    rows.push_back(row);
    if (load.engine == m::EngineKind::kCopy) rows.push_back(dir);
  }
  fmt::print("Gantt chart (one character = {:.3g} time units; digit = segment):\n",
             r.makespan / width);
  for (const auto& row : rows) fmt::print("  {:<12}|{}|\n", row.label, row.cells);
  if (p.copy_engines == 1) fmt::print("  (direction: > = H2D, < = D2H)\n");
  fmt::print("  {:<12}0{}{:g}\n", "", std::string(static_cast<std::size_t>(width), ' '),
             r.makespan);
}

void add_timeline(CLI::App& model, int& exit_code) {
  auto o = std::make_shared<TimelineOptions>();
  auto* cmd = model.add_subcommand(
      "timeline",
      "Copy/compute overlap of a segmented pipeline in streams (seed 001: 100 -> 55, 1.82x)");
  cmd->add_option("--segments", o->segments, "number of identical segments")->capture_default_str();
  cmd->add_option("--h2d", o->h2d, "H2D copy duration per segment")->capture_default_str();
  cmd->add_option("--kernel", o->kernel, "kernel duration per segment")->capture_default_str();
  cmd->add_option("--d2h", o->d2h, "D2H copy duration per segment")->capture_default_str();
  cmd->add_option("--segment", o->segment_list,
                  "H2D,KERNEL,D2H of one segment; repeat to list them all (replaces the above)");
  cmd->add_option("--streams", o->streams, "streams; segment i runs in stream i % streams")
      ->capture_default_str();
  cmd->add_option("--copy-engines", o->copy_engines,
                  "1 = one engine for both directions; >= 2 = one per direction")
      ->capture_default_str();
  cmd->add_option("--order", o->order, "issue order: depth|breadth|rounds")->capture_default_str();
  cmd->add_option("--queues", o->queues,
                  "inorder (one queue per engine, pre-Hyper-Q) | perstream (Hyper-Q)")
      ->capture_default_str();
  cmd->add_flag("--concurrent-kernels", o->concurrent_kernels,
                "kernels of different streams may overlap");
  cmd->add_option("--width", o->width, "Gantt chart width in characters (10-400)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print JSON instead of a table");
  cmd->callback([o, &exit_code] {
    m::TimelineParams p;
    if (o->segment_list.empty()) {
      p.segments = m::uniform_segments(o->segments, o->h2d, o->kernel, o->d2h);
    } else {
      for (const auto& text : o->segment_list) p.segments.push_back(parse_segment(text));
    }
    p.streams = o->streams;
    p.copy_engines = o->copy_engines;
    p.order = m::parse_issue_order(o->order);
    p.queueing = m::parse_queueing(o->queues);
    p.concurrent_kernels = o->concurrent_kernels;
    if (o->width < 10 || o->width > 400) {
      throw UsageError(fmt::format("width: must be in [10, 400] (got {})", o->width));
    }
    const auto r = m::simulate_timeline(p);
    if (o->json) {
      json ops = json::array();
      for (const auto& op : r.operations) {
        ops.push_back({{"segment", op.segment},
                       {"stream", op.stream},
                       {"stage", std::string(m::to_string(op.stage))},
                       {"engine", std::string(m::to_string(op.engine))},
                       {"issue_index", op.issue_index},
                       {"start", op.start},
                       {"end", op.end}});
      }
      json engines = json::array();
      for (const auto& e : r.engines) {
        engines.push_back({{"engine", std::string(m::to_string(e.engine))},
                           {"work", e.work},
                           {"serialized", e.serialized}});
      }
      json segments = json::array();
      for (const auto& s : p.segments) segments.push_back({s.h2d, s.kernel, s.d2h});
      const json out = {{"model", "timeline"},
                        {"params",
                         {{"segments", segments},
                          {"streams", p.streams},
                          {"copy_engines", p.copy_engines},
                          {"order", std::string(m::to_string(p.order))},
                          {"queues", std::string(m::to_string(p.queueing))},
                          {"concurrent_kernels", p.concurrent_kernels}}},
                        {"result",
                         {{"makespan", r.makespan},
                          {"serial", r.serial},
                          {"speedup", r.speedup},
                          {"lower_bound", r.lower_bound},
                          {"engines", engines},
                          {"operations", ops}}}};
      fmt::print("{}\n", out.dump(2));
    } else {
      fmt::print(
          "Stream timeline model: {} segments, {} stream(s), {} copy engine(s), {} issue, {} "
          "queues{}\n\n",
          p.segments.size(), p.streams, p.copy_engines, m::to_string(p.order),
          m::to_string(p.queueing), p.concurrent_kernels ? ", concurrent kernels" : "");
      fmt::print("  {:<22}{:g}\n", "serial", r.serial);
      fmt::print("  {:<22}{:g}\n", "with streams", r.makespan);
      fmt::print("  {:<22}{:.2f}x\n", "speed-up", r.speedup);
      fmt::print("  {:<22}{:g}\n\n", "lower bound", r.lower_bound);
      print_gantt(p, r, o->width);
      fmt::print("\n  {:>5} {:>7} {:>6} {:<7} {:<8} {:>10} {:>10}\n", "issue", "segment", "stream",
                 "stage", "engine", "start", "end");
      for (const auto& op : r.operations) {
        fmt::print("  {:>5} {:>7} {:>6} {:<7} {:<8} {:>10g} {:>10g}\n", op.issue_index, op.segment,
                   op.stream, m::to_string(op.stage), m::to_string(op.engine), op.start, op.end);
      }
    }
    exit_code = kExitOk;
  });
}

// ------------------------------------------------------------------------------------- roofline
struct RooflineOptions {
  // Default: SAXPY y = a*x + y over 2^28 floats (read x, read y, write y; 2 flops each).
  m::RooflineParams p{12.0 * (1 << 28), 2.0 * (1 << 28), m::kH200PeakBandwidth,
                      m::kH200PeakFp32Flops};
  bool json = false;
};

void add_roofline(CLI::App& model, int& exit_code) {
  auto o = std::make_shared<RooflineOptions>();
  auto* cmd = model.add_subcommand(
      "roofline", "Memory or compute bound, and the attainable time (default: SAXPY, 2^28)");
  cmd->add_option("--bytes", o->p.bytes, "bytes moved to/from DRAM")->capture_default_str();
  cmd->add_option("--flops", o->p.flops, "floating-point operations")->capture_default_str();
  cmd->add_option("--peak-bandwidth", o->p.peak_bandwidth, "B/s (default: H200 HBM3e)")
      ->capture_default_str();
  cmd->add_option("--peak-flops", o->p.peak_flops, "flop/s (default: H200 FP32)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print JSON instead of a table");
  cmd->callback([o, &exit_code] {
    const auto& p = o->p;
    const auto r = m::analyze_roofline(p);
    if (o->json) {
      const json out = {
          {"model", "roofline"},
          {"params",
           {{"bytes", p.bytes},
            {"flops", p.flops},
            {"peak_bandwidth", p.peak_bandwidth},
            {"peak_flops", p.peak_flops}}},
          {"result",
           {{"intensity", std::isinf(r.intensity) ? json(nullptr) : json(r.intensity)},
            {"ridge", r.ridge},
            {"bound", m::to_string(r.bound)},
            {"memory_time_s", r.memory_time},
            {"compute_time_s", r.compute_time},
            {"attainable_time_s", r.attainable_time},
            {"attainable_flops", r.attainable_flops},
            {"attainable_bandwidth", r.attainable_bandwidth}}}};
      fmt::print("{}\n", out.dump(2));
    } else {
      fmt::print("Roofline model\n\n");
      fmt::print("  {:<26}{:.4g} B, {:.4g} flop\n", "work", p.bytes, p.flops);
      fmt::print("  {:<26}{:.4g} GB/s, {:.4g} GFLOP/s\n", "peaks", p.peak_bandwidth / 1e9,
                 p.peak_flops / 1e9);
      fmt::print("  {:<26}{:.4g} flop/B\n", "arithmetic intensity", r.intensity);
      fmt::print("  {:<26}{:.4g} flop/B\n", "ridge point", r.ridge);
      fmt::print("  {:<26}{}\n", "bound", m::to_string(r.bound));
      fmt::print("  {:<26}{:.4g} ms (memory {:.4g} ms, compute {:.4g} ms)\n", "attainable time",
                 r.attainable_time * 1e3, r.memory_time * 1e3, r.compute_time * 1e3);
      fmt::print("  {:<26}{:.4g} GFLOP/s ({} of peak)\n", "attainable flop/s",
                 r.attainable_flops / 1e9, percent(r.attainable_flops / p.peak_flops));
      fmt::print("  {:<26}{:.4g} GB/s ({} of peak)\n", "attainable bandwidth",
                 r.attainable_bandwidth / 1e9, percent(r.attainable_bandwidth / p.peak_bandwidth));
    }
    exit_code = kExitOk;
  });
}

// ------------------------------------------------------------------------------------ occupancy
struct OccupancyOptions {
  m::OccupancyParams p;
  m::DeviceLimits d;
  bool json = false;
};

void add_occupancy(CLI::App& model, int& exit_code) {
  auto o = std::make_shared<OccupancyOptions>();
  auto* cmd = model.add_subcommand(
      "occupancy", "Blocks and warps per SM and the limiting resource (default limits: H200)");
  cmd->add_option("--threads", o->p.threads_per_block, "threads per block")->capture_default_str();
  cmd->add_option("--regs", o->p.regs_per_thread, "registers per thread")->capture_default_str();
  cmd->add_option("--smem", o->p.smem_per_block, "shared bytes per block (static + dynamic)")
      ->capture_default_str();
  cmd->add_option("--regs-per-sm", o->d.regs_per_sm)->capture_default_str();
  cmd->add_option("--max-regs-per-thread", o->d.max_regs_per_thread)->capture_default_str();
  cmd->add_option("--reg-alloc-unit", o->d.reg_alloc_unit, "registers, allocated per warp")
      ->capture_default_str();
  cmd->add_option("--sub-partitions", o->d.sub_partitions)->capture_default_str();
  cmd->add_option("--smem-per-sm", o->d.smem_per_sm)->capture_default_str();
  cmd->add_option("--max-smem-per-block", o->d.max_smem_per_block)->capture_default_str();
  cmd->add_option("--smem-alloc-unit", o->d.smem_alloc_unit)->capture_default_str();
  cmd->add_option("--reserved-smem", o->d.reserved_smem_per_block, "bytes reserved per block")
      ->capture_default_str();
  cmd->add_option("--max-threads-per-sm", o->d.max_threads_per_sm)->capture_default_str();
  cmd->add_option("--max-threads-per-block", o->d.max_threads_per_block)->capture_default_str();
  cmd->add_option("--max-blocks-per-sm", o->d.max_blocks_per_sm)->capture_default_str();
  cmd->add_option("--max-warps-per-sm", o->d.max_warps_per_sm)->capture_default_str();
  cmd->add_flag("--json", o->json, "print JSON instead of a table");
  cmd->callback([o, &exit_code] {
    const auto& p = o->p;
    const auto& d = o->d;
    const auto r = m::analyze_occupancy(p, d);
    if (o->json) {
      const json out = {{"model", "occupancy"},
                        {"params",
                         {{"threads_per_block", p.threads_per_block},
                          {"regs_per_thread", p.regs_per_thread},
                          {"smem_per_block", p.smem_per_block},
                          {"limits",
                           {{"regs_per_sm", d.regs_per_sm},
                            {"max_regs_per_thread", d.max_regs_per_thread},
                            {"reg_alloc_unit", d.reg_alloc_unit},
                            {"sub_partitions", d.sub_partitions},
                            {"smem_per_sm", d.smem_per_sm},
                            {"max_smem_per_block", d.max_smem_per_block},
                            {"smem_alloc_unit", d.smem_alloc_unit},
                            {"reserved_smem_per_block", d.reserved_smem_per_block},
                            {"max_threads_per_sm", d.max_threads_per_sm},
                            {"max_threads_per_block", d.max_threads_per_block},
                            {"max_blocks_per_sm", d.max_blocks_per_sm},
                            {"max_warps_per_sm", d.max_warps_per_sm}}}}},
                        {"result",
                         {{"warps_per_block", r.warps_per_block},
                          {"blocks_by_warps", r.blocks_by_warps},
                          {"blocks_by_registers", r.blocks_by_registers},
                          {"blocks_by_smem", r.blocks_by_smem},
                          {"blocks_by_blocks", r.blocks_by_blocks},
                          {"regs_per_warp", r.regs_per_warp},
                          {"smem_per_block_allocated", r.smem_per_block_allocated},
                          {"blocks_per_sm", r.blocks_per_sm},
                          {"warps_per_sm", r.warps_per_sm},
                          {"threads_per_sm", r.threads_per_sm},
                          {"occupancy", r.occupancy},
                          {"limit", std::string(m::to_string(r.limit))}}}};
      fmt::print("{}\n", out.dump(2));
    } else {
      fmt::print("Occupancy model: {} threads/block, {} registers/thread, {} B shared/block\n\n",
                 p.threads_per_block, p.regs_per_thread, p.smem_per_block);
      auto line = [&](std::string_view what, std::int64_t blocks, m::OccupancyLimit limit,
                      const std::string& detail) {
        fmt::print("  {:<16}{:>6} blocks  {}{}\n", what, blocks, detail,
                   limit == r.limit ? "   <- limit" : "");
      };
      line("warps", r.blocks_by_warps, m::OccupancyLimit::kWarps,
           fmt::format("{} warps/block of {} per SM", r.warps_per_block, d.max_warps_per_sm));
      line("registers", r.blocks_by_registers, m::OccupancyLimit::kRegisters,
           fmt::format("{} registers/warp of {} per SM", r.regs_per_warp, d.regs_per_sm));
      line("shared memory", r.blocks_by_smem, m::OccupancyLimit::kSharedMemory,
           fmt::format("{} B/block allocated of {} per SM", r.smem_per_block_allocated,
                       d.smem_per_sm));
      line("blocks", r.blocks_by_blocks, m::OccupancyLimit::kBlocks,
           fmt::format("at most {} blocks per SM", d.max_blocks_per_sm));
      fmt::print("\n  {:<16}{}\n", "blocks per SM", r.blocks_per_sm);
      fmt::print("  {:<16}{} of {}\n", "warps per SM", r.warps_per_sm, d.max_warps_per_sm);
      fmt::print("  {:<16}{}\n", "occupancy", percent(r.occupancy));
      fmt::print("  {:<16}{}\n", "limited by", m::to_string(r.limit));
      // Picture: the SM's warp slots, one character per warp.
      std::string slots;
      for (std::int64_t w = 0; w < d.max_warps_per_sm; ++w) {
        slots += w < r.warps_per_sm ? static_cast<char>('A' + (w / r.warps_per_block) % 26) : '.';
      }
      fmt::print("\n  warp slots |{}|  (letter = block, . = empty)\n", slots);
      if (r.blocks_per_sm == 0) {
        fmt::print("  not even one block fits on an SM: the launch would fail\n");
      }
    }
    exit_code = kExitOk;
  });
}

}  // namespace

void add_model_command(CLI::App& app, int& exit_code) {
  auto* model = app.add_subcommand(
      "model", "Analytical models of the memory hierarchy (host only, no GPU needed)");
  model->require_subcommand(1);
  add_coalescing(*model, exit_code);
  add_banks(*model, exit_code);
  add_tiling(*model, exit_code);
  add_timeline(*model, exit_code);
  add_roofline(*model, exit_code);
  add_occupancy(*model, exit_code);
}

}  // namespace memlab::cli
