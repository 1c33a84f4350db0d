// The WebAssembly build of the models (wasm/CMakeLists.txt): two functions for JavaScript.
//   model(name, paramsJson) -> JSON text: what `memlab model NAME --json` prints, or
//                              {"error": "...", "parameter": "--stride"} for bad input
//   catalog()               -> JSON text: memlab::model::catalog()
#include <emscripten/bind.h>

#include <string>

#include "memlab/model/api.hpp"

namespace {

std::string model(const std::string& name, const std::string& params_json) {
  return memlab::model::run_text(name, params_json);
}

std::string catalog() {
  return memlab::model::catalog().dump();
}

}  // namespace

EMSCRIPTEN_BINDINGS(memlab_models) {
  emscripten::function("model", &model);
  emscripten::function("catalog", &catalog);
}
