// The diagnosis runs of a failed check (include/memlab/exercise/diagnosis.hpp says what comes
// out): the exercise worker again, verify only, on the smallest failing test point, under
// compute-sanitizer's racecheck, synccheck and memcheck, each with a wall-time limit; their
// output parsed and said in the learner's lines. Host side only: the GPU work is the worker's.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {

// compute-sanitizer: `explicit_path` when given (empty result when it is not executable), else
// the first on PATH, else /usr/local/cuda/bin's. Empty: not found.
std::string find_sanitizer(const std::string& explicit_path);

struct DiagnoseRun {
  const Exercise& exercise;
  const std::string& source;
  const CheckOptions& options;
  std::string worker;            // the executable with the `exercise-worker` subcommand
  std::filesystem::path dir;     // the check's folder (one sub-folder per tool)
  std::string last_phase;        // the worker's last phase ("verifying at n=5")
  const nlohmann::json& result;  // the check's JSON so far (status, points, output)
};

// The "diagnosis" object of check()'s JSON, or null when the result gets none
// (wants_diagnosis, CheckOptions::diagnose).
nlohmann::json diagnose(const DiagnoseRun& run);

}  // namespace memlab::exercise
