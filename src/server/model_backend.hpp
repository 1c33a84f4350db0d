// The models as the server calls them. Contract 1 (TEAM.md) is memlab::model::run(name, params)
// and memlab::model::catalog() from branch arch-model. Until that API lands, this adapter runs
// `memlab model NAME --json --flag=value ...` as a child process (no shell), so the server
// answers exactly what the CLI prints; swapping in the API changes only model_backend.cpp.
#pragma once

#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

namespace memlab::server {

class ModelBackend {
 public:
  // `memlab_exe`: the memlab binary (the interim adapter runs it).
  explicit ModelBackend(std::string memlab_exe) : exe_(std::move(memlab_exe)) {}

  nlohmann::json catalog() const;

  // params: {"pattern": "strided", "stride": 2, "elem_size": 4} (keys = CLI long options without
  // the dashes; '_' and '-' both accepted). Throws memlab::UsageError naming the CLI flag.
  // Answers are kept (the models are pure functions of their parameters; a child process costs
  // ~0.5 s here, and the bank explainer asks for 64 strides at once).
  nlohmann::json run(const std::string& name, const nlohmann::json& params) const;

 private:
  std::string exe_;
  static constexpr std::size_t kMaxCached = 4096;
  mutable std::mutex mutex_;
  mutable std::map<std::string, nlohmann::json> cache_;  // argv joined by '\n' -> answer
};

// The six models (contract 1).
bool is_model_name(const std::string& name);

}  // namespace memlab::server
