// POST /api/runs: the request (JSON -> bench::RunRequest), its validation (bench::make_plan, the
// CLI's rules, errors renamed to the API's keys) and its execution on the GPU (bench::execute with
// the job's cancel flag and progress events).
#pragma once

#include <atomic>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "memlab/bench/plan.hpp"

namespace memlab::server {

// {experiments:[..], variants:[..], axes:{name:[values]}, quick:bool}. Throws ApiError(400)
// naming the key ("experiments", "axes.n", ...) for a wrong type, an unknown key or a list too
// long; values are checked by plan_run.
bench::RunRequest parse_run_request(const nlohmann::json& body);

// bench::make_plan with the number of points bounded first. Throws ApiError(400) naming the
// parameter as the API spells it ("experiments", "variants", "axes.NAME", "axes").
bench::Plan plan_run(const bench::RunRequest& request);

// Thrown from a progress callback when the job is cancelled (JobQueue's own jobs).
struct Cancelled {};

// Runs the plan and returns the run JSON (the schema of `memlab run --json`), with
// "cancelled": true and the records so far when `cancel` was set during the run. `progress`
// gets one line per event (bench::format_progress).
nlohmann::json execute_run(const bench::Plan& plan,
                           const std::function<void(const std::string&)>& progress,
                           const std::atomic<bool>* cancel);

// Why no run can start here ("no CUDA device (...)"), or nullopt when a device is present.
std::optional<std::string> no_device_reason();

}  // namespace memlab::server
