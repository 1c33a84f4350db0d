// What the compiler made of the learner's kernel (issue 21 #7): ptxas's resources and the PTX
// grouped by the learner's source lines, from the `.loc` records NVRTC writes with -lineinfo.
// Host-only; no extra tool.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

#include "exercise/nvrtc.hpp"

namespace memlab::exercise {

inline constexpr std::size_t kMaxPtxLines = 2000;

// The PTX of every function in the module, in PTX order, cut into runs of instructions that
// share one `.loc` line of the learner's file (the `.file` whose name is `file_name`; index 1
// when none matches): {ptx_lines: [{line, source, ptx: [...]}], ptx_total, ptx_shown,
// ptx_truncated, functions: [names]}. Line 0: no line of the learner's (declarations,
// compiler-generated code, `.loc 1 0`, or a line of another file). At most `max_lines`
// instructions; the rest is counted, not returned.
nlohmann::json ptx_by_line(const std::string& ptx, const std::string& source,
                           const std::string& file_name, std::size_t max_lines = kMaxPtxLines);

// The result's "compiler": {registers, spill_stores, spill_loads, stack_bytes, shared_bytes,
// barriers, local_bytes (ptxas's stack frame: the per-thread local memory), ptxas_info} plus
// ptx_by_line's keys. -1 where ptxas said nothing.
nlohmann::json compiler_json(const Compiled& c, const std::string& source,
                             const std::string& file_name, std::size_t max_lines = kMaxPtxLines);

// "32 registers, 0 B spilled, 4.2 KiB shared" (the CLI's resources line).
std::string resources_line(const nlohmann::json& compiler);

}  // namespace memlab::exercise
