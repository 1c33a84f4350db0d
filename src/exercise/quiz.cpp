// The quiz of an exercise: each question names a model, its parameters and the figure asked for;
// the answer is recomputed here by the same C++ as `memlab model` (include/memlab/model/), so a
// stored answer that disagrees with the model is caught by the host tests.
#include <fmt/format.h>

#include <cmath>

#include "exercise/quiz.hpp"

#include "exercise/expr.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"
#include "memlab/model/api.hpp"
#include "memlab/model/banks.hpp"
#include "memlab/model/coalescing.hpp"
#include "memlab/model/tiling.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

double banks_figure(const json& p, const std::string& field) {
  model::BankPattern b;
  b.kind = model::parse_bank_pattern(p.value("pattern", std::string("stride")));
  b.stride = p.value("stride", std::int64_t{1});
  b.width = p.value("width", std::int64_t{32});
  b.col = p.value("col", std::int64_t{0});
  const model::BankAccess a = model::analyze_banks(b, p.value("elem_size", 4));
  if (field == "degree") return a.degree;
  if (field == "passes") return a.passes;
  throw UsageError("quiz: banks field " + field + " unknown (degree, passes)");
}

double coalescing_figure(const json& p, const std::string& field) {
  model::Pattern c;
  c.kind = model::parse_access_kind(p.value("pattern", std::string("linear")));
  c.stride = p.value("stride", std::int64_t{1});
  c.width = p.value("width", std::int64_t{1024});
  c.fields = p.value("fields", std::int64_t{4});
  const model::WarpAccess w = model::analyze_warp(c, p.value("elem_size", 4));
  if (field == "sectors") return static_cast<double>(w.sectors.size());
  if (field == "efficiency_pct") return 100.0 * w.efficiency;
  if (field == "bytes_moved") return static_cast<double>(w.bytes_moved);
  // DRAM traffic over the bytes the warp needs, in the H200's 64-byte DRAM units.
  if (field == "dram_over_useful") {
    return 1.0 / model::coalescing_efficiency(c, p.value("elem_size", 4), model::kDramGranuleBytes);
  }
  throw UsageError("quiz: coalescing field " + field + " unknown");
}

double tiling_figure(const json& p, const std::string& field) {
  model::TilingParams t;
  t.output_tile = p.value("output_tile", 1020);
  t.mask = p.value("mask", 5);
  t.dims = p.value("dims", 1);
  t.elem_size = p.value("elem_size", 4);
  t.shared_limit = p.value("shared_limit", std::int64_t{48 * 1024});
  const model::TilingResult r = model::analyze_tiling(t);
  if (field == "input_tile") return r.input_tile;
  if (field == "halo") return r.halo;
  if (field == "block_threads") return static_cast<double>(r.block_threads);
  if (field == "idle_threads") return static_cast<double>(r.idle_threads);
  if (field == "shared_bytes") return static_cast<double>(r.shared_bytes);
  if (field == "reuse") return r.reuse;
  throw UsageError("quiz: tiling field " + field + " unknown");
}

// Any other model of `memlab model` (roofline, occupancy, timeline): the number `field` of the
// "result" object that `memlab model NAME --json` prints for these parameters.
double catalog_figure(const std::string& name, const json& p, const std::string& field) {
  const json out = model::run(name, p);
  const json& result = out.at("result");
  if (!result.contains(field) || !result[field].is_number()) {
    throw UsageError(fmt::format("quiz: {} field {} is not a number in its result", name, field));
  }
  return result[field].get<double>();
}

}  // namespace

// The answer of one question: a model figure, or (model "arithmetic") an integer expression.
double model_answer(const json& q, const std::map<std::string, std::int64_t>& vars) {
  const json& m = q.at("model");
  const std::string name = m.at("name").get<std::string>();
  const json params = m.value("params", json::object());
  const std::string field = m.value("field", std::string());
  if (name == "banks") return banks_figure(params, field);
  if (name == "coalescing") return coalescing_figure(params, field);
  if (name == "tiling") return tiling_figure(params, field);
  if (name == "arithmetic") {
    return static_cast<double>(eval_expr(m.at("expr").get<std::string>(), vars, "quiz"));
  }
  for (const model::ModelInfo& info : model::models()) {
    if (info.name == name) return catalog_figure(name, params, field);
  }
  throw UsageError(fmt::format(
      "quiz: model {} unknown (banks, coalescing, tiling, arithmetic or a memlab model)", name));
}

json quiz_json(const Exercise& e) {
  json out = json::array();
  for (const json& q : e.spec.value("quiz", json::array())) {
    json item = q;
    item["model_answer"] = model_answer(q);
    out.push_back(item);
  }
  return out;
}

}  // namespace memlab::exercise
