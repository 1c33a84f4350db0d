// A quiz question's answer, computed by memlab's models. Host-only.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace memlab::exercise {

// `vars`: the integer variables an "arithmetic" expression may name (the quiz gives none; the
// counters' models give the measuring point's axes).
double model_answer(const nlohmann::json& question,
                    const std::map<std::string, std::int64_t>& vars = {});

}  // namespace memlab::exercise
