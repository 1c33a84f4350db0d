// One entry point to the six models for every front end: the CLI (`memlab model X --json`), the
// web server (/api/models, /api/model/<name>) and the WebAssembly build (wasm/).
//
// Host-only: no CUDA, no CLI11; compiles with emscripten. docs/models.md describes the shapes.
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/model/params.hpp"

namespace memlab::model {

// Runs model `name` (coalescing, banks, tiling, timeline, roofline, occupancy) on `params`, a JSON
// object keyed by the CLI long options without dashes ({"pattern": "strided", "stride": 2}; '_'
// may replace '-'; values may be JSON numbers or the strings the CLI accepts; null = defaults).
// Returns exactly what `memlab model NAME --json` prints: {"model", "params", "result"}.
// Bad input throws memlab::UsageError: "<flag>: <what is accepted> (got ...)"; an unknown model
// "model: ...", a params value that is not an object "params: ...".
nlohmann::json run(const std::string& name, const nlohmann::json& params);

// {"models": [{"name", "summary", "params": [{"key", "flag", "type", "default", "min", "max",
// "choices", "range", "help"}]}]}; min/max/choices/range only where they apply.
nlohmann::json catalog();

// One model's description, as catalog() lists it.
struct ModelInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
};
const std::vector<ModelInfo>& models();

// {"error": message, "parameter": "--stride"} for an exception from run(): the parameter is the
// message's prefix before ": " ("model", "params" or a flag), absent when there is none.
nlohmann::json error_json(const std::exception& error);

// Text in, text out, never throws (the WebAssembly export `model(name, paramsJson)`, and what a
// server can answer): run(name, parse(params_json)).dump(), or error_json(...).dump() for bad
// input ("params: ..." for text that is not JSON; "" means no parameters).
std::string run_text(const std::string& name, const std::string& params_json);

}  // namespace memlab::model
