// The models as the server calls them. Contract 1 (TEAM.md) is memlab::model::run(name, params)
// and memlab::model::catalog() from branch arch-model. Until that API lands, this adapter runs
// `memlab model NAME --json --flag=value ...` as a child process (no shell), so the server
// answers exactly what the CLI prints; swapping in the API changes only model_backend.cpp.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace memlab::server {

class ModelBackend {
 public:
  nlohmann::json catalog() const;

  // params: {"pattern": "strided", "stride": 2, "elem_size": 4} (keys = CLI long options without
  // the dashes; '_' and '-' both accepted). Bad parameters: ApiError 400 naming the CLI flag.
  nlohmann::json run(const std::string& name, const nlohmann::json& params) const;
};

// The six models (contract 1).
bool is_model_name(const std::string& name);

}  // namespace memlab::server
