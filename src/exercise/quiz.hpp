// A quiz question's answer, computed by memlab's models. Host-only.
#pragma once

#include <nlohmann/json.hpp>

namespace memlab::exercise {

double model_answer(const nlohmann::json& question);

}  // namespace memlab::exercise
