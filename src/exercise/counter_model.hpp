// The learner's counters beside the lesson's model (issue 21 #6). Host-only: which counters the
// exercise check collects, the figures derived from them, what the model predicts for the
// intended access pattern and for the starter's (declared in exercise.json "counters", computed
// by the models as the quiz's answers are), and the one sentence that says which counter
// explains a missed target.
//
// exercise.json:
//   "counters": {
//     "compare": ["naive", "padded_coarse"],      // optional: the lesson's variants counted too
//     "figures": [{
//       "figure": "wavefronts_per_shared_load",   // a key of kCounterFigures
//       "what": {"de": ..., "en": "column read of the tile", "zh": ...},
//       "intended": {"label": {"en": "the padded tile", ...},
//                    "model": {"name": "banks", "params": {...}, "field": "passes"}},
//       "starter": {"label": {...}, "model": {...}}
//     }]
//   }
// A model is a quiz model (exercise/quiz.hpp); "arithmetic" expressions may name the measuring
// point's integer axes ("cdiv(m * n, 32) * k * 2").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/bench/counters.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {

struct CounterFigure {
  const char* key;   // the JSON key under counters.yours / variants[i]
  const char* unit;  // English, after the number: "wavefronts per load request"
};

inline constexpr CounterFigure kCounterFigures[] = {
    {"sectors_per_load_request", "sectors per load request"},
    {"sectors_per_store_request", "sectors per store request"},
    {"wavefronts_per_shared_load", "wavefronts per load request"},
    {"wavefronts_per_shared_store", "wavefronts per store request"},
    {"dram_over_useful", "x the useful bytes through DRAM"},
    {"global_load_requests", "global load requests"},
    {"achieved_occupancy_pct", "% achieved occupancy"},
};

// Every counter the check collects, for the learner's kernel and the lesson's variants alike.
std::vector<bench::Counter> exercise_counters();

// The figures of one counters pass: {metrics: {metric: value}, dram_bytes, useful_bytes, and each
// kCounterFigures key whose counters were usable (a divisor of 0, NaN or a negative value leaves
// the figure out: a kernel without shared loads has no wavefronts per shared load)}.
nlohmann::json derive_figures(const std::vector<bench::Counter>& counters,
                              const std::vector<double>& values, double useful_bytes);

// The declared figures with each model's value: [{figure, unit, what, intended: {label, value},
// starter: {label, value}}]. Throws UsageError for a declaration the models cannot compute.
nlohmann::json counter_models(const Exercise& e);

// Problems of the "counters" declaration (for validate()); empty = fine or not declared.
std::vector<std::string> validate_counters(const Exercise& e);

// The lesson's variants whose counters are collected: "counters.compare", else naive, check_as
// and the target's variant (in that order, once each).
std::vector<std::string> counter_variants(const Exercise& e);

// Which declared figure explains the verdict, from counters {yours, model}: the figure furthest
// from the model's intended value (more than 25% off) explains a missed target; the sentence
// ("your column read of the tile: 32 wavefronts per load request (32-way conflict); the padded
// tile: 1") and its parts {figure, yours, intended, starter, closer_to: "starter" | "intended"}.
// Returns {} when nothing was declared or measured.
nlohmann::json explain_counters(const nlohmann::json& counters, bool target_met);

}  // namespace memlab::exercise
