// POST /api/runs: the request, its validation (the CLI's rules) and its execution on the GPU.
// Contract (TEAM.md, branch arch-plan): bench::make_plan(request) and
// bench::execute(plan, options, progress, cancel). Until that API lands, runs.cpp is a thin
// adapter over the registry and bench::Runner with the same checks as `memlab run`; swapping in
// the plan API changes only runs.cpp.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "memlab/bench/runner.hpp"

namespace memlab::server {

struct RunRequest {
  std::vector<std::string> experiments;  // empty: the default suite
  std::vector<std::string> variants;     // NAME or EXPERIMENT:NAME; empty: all
  std::map<std::string, std::vector<std::string>> axes;
  bool quick = false;
};

// {experiments:[..], variants:[..], axes:{name:[values]}, quick:bool}. Throws ApiError(400)
// naming the key ("experiments", "axes.n", ...) for a wrong type, an unknown key or a list too
// long; values are checked by plan_run.
RunRequest parse_run_request(const nlohmann::json& body);

// Everything that can be checked without a device (experiments, variants, axes, values, the
// number of points). Throws ApiError(400) naming the parameter.
std::vector<bench::Plan> plan_run(const RunRequest& request);

// Thrown from a progress callback when the job is cancelled.
struct Cancelled {};

// Runs the plans on device 0 and returns the run JSON (the schema of `memlab run --json`).
// `progress` is called before every variant at every point; it may throw Cancelled.
nlohmann::json execute_run(const std::vector<bench::Plan>& plans, const RunRequest& request,
                           const std::function<void(const std::string&)>& progress);

// Why no run can start here ("no CUDA device (...)"), or nullopt when a device is present.
std::optional<std::string> no_device_reason();

}  // namespace memlab::server
