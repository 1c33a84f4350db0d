// The exercise engine: a learner writes one kernel with a fixed signature; memlab compiles it at
// run time (NVRTC), runs it in a separate worker process on the lesson's inputs, checks it
// against the lesson's CPU reference at the lesson's test points and times it like a variant,
// beside the lesson's own variants. Front ends: `memlab exercise ...` (src/cli/exercise.cpp) and
// the server's /api/exercises routes. No CUDA header here; check() never touches the GPU in the
// calling process.
//
// For the server (POST /api/exercises/<name>/check {source}):
//   memlab::exercise::CheckOptions o;            // worker = this executable, re-executed
//   const auto r = memlab::exercise::check(name, source, o);
//   reply r.json (as `memlab exercise check --json`), HTTP 200 for exit codes 0 and 1,
//   400 for 2 (compile error / bad request: r.json["error"], r.json["parameter"]), 503 for 3 (no
//   device), 500 for 4. check() is thread-safe and runs one worker at a time (timings would
//   disturb each other); an unknown name throws memlab::UsageError before anything runs.
#pragma once

#include <array>
#include <atomic>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::exercise {

inline constexpr std::size_t kMaxSourceBytes = 64 * 1024;

// The languages every exercise is written in (statement.<lang>.md; title, target.text, hints and
// each quiz question keyed by them in exercise.json): the web lab's and the CLI's --lang.
inline constexpr std::array<const char*, 3> kLanguages = {"de", "en", "zh"};

struct Exercise {
  std::string name;
  nlohmann::json spec;                            // exercises/<name>/exercise.json
  std::map<std::string, std::string> statements;  // language -> statement.<lang>.md
  std::string starter, solution;

  std::string lesson() const { return spec.at("lesson").get<std::string>(); }
  std::string kernel() const { return spec.at("kernel").at("name").get<std::string>(); }
  // The statement in `lang`, else the English one ("" when neither exists).
  const std::string& statement(const std::string& lang) const;
  // "__global__ void reverse_static(const float* in, float* out, int n)"
  std::string signature() const;
  // The NVRTC name expression that pins the signature:
  // "static_cast<void (*)(const float*, float*, int)>(&reverse_static)"
  std::string kernel_expr() const;
};

// The catalogue, embedded into the binary at build time (exercises/*/ files).
const std::vector<Exercise>& catalogue();
// Throws UsageError("exercise NAME: unknown; accepted: a, b, ...").
const Exercise& get(const std::string& name);
// Problems of one exercise (missing files or keys, unknown lesson variants, ...); empty = fine.
// Needs the lesson registry (link memlab_experiments).
std::vector<std::string> validate(const Exercise& e);

// GET /api/exercises: [{name, lesson, level, title{de,en,zh}, target{de,en,zh}}]
nlohmann::json list_json();
// GET /api/exercises/<name>: the above plus statement{de,en,zh}, starter, signature, launch,
// points, measure_point, hints{de,en,zh}, quiz (answers included: the page checks them itself). The
// solution only when `with_solution`.
nlohmann::json exercise_json(const Exercise& e, bool with_solution = false);

// The check's plan without a GPU: test points and the launch (grid, block, shared bytes) at each.
nlohmann::json plan_json(const Exercise& e);

// The quiz with each answer recomputed by memlab's models ("model_answer") beside the stored one.
nlohmann::json quiz_json(const Exercise& e);

// Compiles `source` with NVRTC (no GPU needed): {ok, log, diagnostics: [{line, severity,
// message}], ms}. Line numbers are the learner's. Throws UsageError above 64 KiB.
nlohmann::json compile_json(const Exercise& e, const std::string& source,
                            const std::string& file_name);

struct CheckOptions {
  std::string file_name = "kernel.cu";  // as the learner named it: compile errors cite it
  std::string worker;                   // executable with the hidden `exercise-worker`
                                        // subcommand; empty: this process's executable
  bool sanitize = false;                // worker under compute-sanitizer (verify only)
  // A failed check (wrong result, CUDA error, crash; with `sanitize` every check that ran the
  // kernel) is run again under compute-sanitizer's racecheck / synccheck / memcheck on its
  // smallest failing test point, and the hazards are said in the learner's lines: json
  // "diagnosis" (include/memlab/exercise/diagnosis.hpp). Never changes the status or exit code.
  bool diagnose = true;
  std::string sanitizer;             // compute-sanitizer to use; empty: PATH, /usr/local/cuda/bin
  double diagnosis_timeout_s = 120;  // each sanitizer run (the kernel's limit there: 3/4 of it)
  bool measure = true;               // false: verify only
  double kernel_timeout_s = 10;      // one launch of the learner's kernel
  double total_timeout_s = 240;      // the whole worker (killed after)
  std::string arch;                  // NVRTC target for the host compile; empty: sm_90
  // The server's queue (issue 22): the job's cancel flag (the worker is killed once it is set;
  // status "cancelled"), and `compiled`: the caller's compile_json of this source was ok, so the
  // host compile is not repeated (the worker compiles for itself in any case).
  const std::atomic<bool>* cancel = nullptr;
  bool compiled = false;
};

// Exit codes: 0 correct and target met; 1 wrong result, skipped work (a launch that did not redo
// the work, or an impossible time), time limit, illegal address, crash, launch failure, target
// missed, cancelled, or (--sanitize) memcheck errors in a kernel that passed; 2 source too large or
// compile error (json "diagnostics" with the learner's line numbers); 3 no CUDA device; 4 internal
// error. The diagnosis runs change none of them: a sanitizer that finds nothing, times out or is
// missing is said in json "diagnosis" ("reason"), never as a status.
struct CheckResult {
  int exit_code = 0;
  nlohmann::json json;
};
CheckResult check(const std::string& name, const std::string& source, const CheckOptions& options);

// Human-readable text of a check result (English): the verdict, then the diagnosis' sentences.
std::string render_check(const nlohmann::json& result);

// The hidden `memlab exercise-worker DIR` subcommand (request.json in, events.jsonl out).
int worker_main(int argc, char** argv);

}  // namespace memlab::exercise
