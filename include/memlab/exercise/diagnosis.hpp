// Why a learner's kernel failed, in their own lines: compute-sanitizer's text (racecheck, memcheck,
// synccheck) parsed into records, grouped into one finding per distinct (tool, kind, lines) and
// said in the learner's terms, quoting their source. Everything here is pure (no GPU, no process):
// src/exercise/sanitizer_report.cpp (the parser), src/exercise/diagnosis_text.cpp (findings and
// sentences). The sanitizer runs themselves are src/exercise/diagnose.cpp, called by check().
//
// check()'s JSON gains
//   "diagnosis": {"ran": bool, "reason": "...",            // reason: why none ran / what ran
//                 "point": "m=17 n=33 k=9", "point_why": "the smallest failing test point",
//                 "point_reason": "smallest_failing" | "smallest",
//                 "tool_runs": [{tool, point, exit, wall_s, timed_out, records, output}],
//                 "hazards": [finding, ...],                 // structured: the web's i18n
//                 "sentences": ["line 13 writes As[ty][tx] while ...", ...]}   // English
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::exercise {

// One side of a record: an access (racecheck), the faulting instruction (memcheck) or the barrier
// (synccheck).
struct SanitizerAccess {
  std::string access;    // "read" | "write" | "" (not printed)
  std::string file;      // the file name as printed, without its folders
  int line = 0;          // 0: no line information
  std::string function;  // the kernel or device function as printed ("" when not printed)
  std::array<int, 3> thread{-1, -1, -1};  // -1: not printed
};

struct SanitizerRecord {
  std::string tool;  // "racecheck" | "memcheck" | "synccheck"
  // racecheck: "RAW" | "WAR" | "WAW" (a hazard report) or "race" (an analysis report, "Race
  // reported between ..."); memcheck: "access" (Invalid __global__ write of size 4 bytes) or
  // "exception" (a hardware exception); synccheck: "barrier".
  std::string type;
  std::string severity;     // "error" | "warning" | "info" | ""
  bool warp_level = false;  // racecheck: "(Warp Level Programming)"
  std::string space;        // "__shared__" | "__global__" | "__local__" | ""
  std::string address;      // "0x8c" ("" when not printed)
  std::array<int, 3> block{-1, -1, -1};
  SanitizerAccess first, second;  // racecheck: both, in the order printed; others: first only
  int size_bytes = 0;             // memcheck: the access size
  // memcheck: "out of bounds", "misaligned", "not writable", ... (the Address line's end), or the
  // exception's name; synccheck: the error class ("Divergent thread(s) in block").
  std::string problem;
  // memcheck's "and is N bytes after the nearest allocation at 0x.. of size M bytes":
  std::string relation;  // "after" | "before" | "inside" | ""
  long long distance_bytes = -1, allocation_bytes = -1;
  long long hazards = 1;  // racecheck analysis: the "[N hazards]" of this pair
};

struct SanitizerReport {
  std::vector<SanitizerRecord> records;
  long long summary_errors = -1;         // "ERROR SUMMARY: N errors" / RACECHECK SUMMARY's errors
  long long summary_warnings = -1;       // RACECHECK SUMMARY's warnings
  std::vector<std::string> tool_errors;  // lines that say the tool itself failed
};

// Parses compute-sanitizer's text output of `tool`. Tolerant: any prefix of '=' characters, any
// spacing, both racecheck report forms (per-hazard records and the summarised "Race reported
// between"), older (CUDA-MEMCHECK) and newer location forms ("0x148 in f.cu:3:k(int*)",
// "k(int *)+0x90 in f.cu:44", "k():0x160 in f.cu:6"). Lines it does not know are skipped.
SanitizerReport parse_sanitizer_output(const std::string& tool, const std::string& text);

// What the sentences need besides the records.
struct DiagnosisSource {
  std::string source;                       // the learner's file
  std::string file_name = "kernel.cu";      // as the learner named it (what the sanitizer prints)
  std::array<long long, 3> block{1, 1, 1};  // the launch's block at the diagnosed point (warps)
  std::vector<std::pair<std::string, std::string>> params;  // the kernel's (type, name) list
};

// The records grouped into findings: one per distinct (tool, kind, lines), in the order first
// seen, each with its count and an English "sentence" that quotes the learner's lines.
nlohmann::json findings_json(const std::vector<SanitizerRecord>& records,
                             const DiagnosisSource& src);

// `__shared__` identifiers the source declares (static and extern), in order of declaration.
std::vector<std::string> shared_arrays(const std::string& source);

// Line `n` (1-based) of `source`, trimmed; "" outside.
std::string source_line(const std::string& source, int n);

// Which check results get a diagnosis: failures a sanitizer can explain (wrong_result, cuda_error,
// crash, sanitizer), and with --sanitize every result that ran the kernel (passed, target_missed
// too). Never a timeout, compile error, usage error, missing device or internal error.
bool wants_diagnosis(const std::string& status, bool sanitize);

// The tools to run, in order: racecheck when the source declares __shared__ memory, synccheck when
// it has a barrier (__syncthreads, __syncwarp, bar.sync, barrier.sync, cooperative groups'
// sync), memcheck for cuda_error / crash / sanitizer results, with --sanitize, and whenever
// neither of the others applies.
std::vector<std::string> diagnosis_tools(const std::string& status, bool sanitize,
                                         const std::string& source);

// A test point and what the check found there.
struct PointOutcome {
  std::string label;  // "m=17,n=33,k=9"
  double size = 0;    // the product of its numeric axis values: what a sanitizer run costs
  int ok = -1;        // 1 passed, 0 failed, -1 not run
};
struct DiagnosisPoint {
  std::string label;   // "" when there are no points
  std::string why;     // "the smallest failing test point", ...
  std::string reason;  // "smallest_failing" | "smallest" (the web lab's i18n)
};
// The smallest failing point; when none of the test points is known to fail (the failure was at
// the measuring point, or --sanitize on a kernel that passed), the smallest test point.
DiagnosisPoint choose_diagnosis_point(const std::vector<PointOutcome>& points);

}  // namespace memlab::exercise
