#include "model_backend.hpp"

#include <fmt/format.h>

#include <array>
#include <regex>

#include "api_error.hpp"
#include "memlab/common/error.hpp"
#include "subprocess.hpp"

namespace memlab::server {
namespace {

constexpr std::array<const char*, 6> kModels = {"coalescing", "banks",    "tiling",
                                                "timeline",   "roofline", "occupancy"};

// "--stride" from "memlab: --stride: 0 is out of range ..." or from CLI11's
// "--stride: Value x could not be converted" / "The following argument was not expected: --x".
std::string parameter_in(const std::string& message) {
  static const std::regex flag("--[a-z][a-z0-9-]*");
  std::smatch m;
  if (std::regex_search(message, m, flag)) return m.str();
  // "stride: must be >= 1": a model naming its field; the flag is the same word with dashes.
  static const std::regex field("([a-z][a-z0-9_]*): .*");
  if (std::regex_match(message, m, field)) {
    std::string name = m[1].str();
    for (char& c : name) c = c == '_' ? '-' : c;
    return "--" + name;
  }
  return "";
}

std::string value_text(const std::string& key, const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer()) return v.dump();
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  if (v.is_array()) {
    std::string s;
    for (const auto& x : v) {
      if (!x.is_number() && !x.is_string()) break;
      if (!s.empty()) s += ',';
      s += value_text(key, x);
    }
    return s;
  }
  throw UsageError(fmt::format("--{}: a {} is not accepted; accepted: a number or a string", key,
                               v.type_name()));
}

}  // namespace

bool is_model_name(const std::string& name) {
  for (const char* m : kModels) {
    if (name == m) return true;
  }
  return false;
}

nlohmann::json ModelBackend::catalog() const {
  nlohmann::json models = nlohmann::json::array();
  for (const char* m : kModels) models.push_back({{"name", m}});
  return {{"models", models},
          {"interim", "parameters and ranges come with the model API (branch arch-model)"}};
}

nlohmann::json ModelBackend::run(const std::string& name, const nlohmann::json& params) const {
  if (!is_model_name(name)) {
    throw UsageError(
        fmt::format("model: '{}' is unknown; accepted: {}", name, fmt::join(kModels, ", ")));
  }
  if (!params.is_object()) throw UsageError("params: expected a JSON object");
  std::vector<std::string> argv = {exe_, "model", name, "--json"};
  static const std::regex key_re("[a-z][a-z0-9_-]{0,40}");
  for (const auto& [raw_key, value] : params.items()) {
    std::string key = raw_key;
    for (char& c : key) c = c == '_' ? '-' : c;
    if (!std::regex_match(key, key_re) || key == "json" || key == "help") {
      throw UsageError(fmt::format("--{}: not a parameter of model {}", key.substr(0, 40), name));
    }
    if (value.is_boolean()) {
      if (value.get<bool>()) argv.push_back("--" + key);
      continue;
    }
    // --key=value: a value can never be read as another option.
    argv.push_back(fmt::format("--{}={}", key, value_text(key, value)));
  }
  std::string key;
  for (const auto& a : argv) key += a + '\n';
  {
    const std::lock_guard lock(mutex_);
    if (const auto it = cache_.find(key); it != cache_.end()) return it->second;
  }
  const ProcessResult r = run_process(argv, 10.0);
  if (r.timed_out) throw std::runtime_error(fmt::format("model {} did not finish in 10 s", name));
  if (r.exit_code == kExitUsage) {
    std::string message = r.err;
    if (message.rfind("memlab: ", 0) == 0) message = message.substr(8);
    while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) {
      message.pop_back();
    }
    const std::size_t see = message.find(" (see memlab --help)");
    if (see != std::string::npos) message.erase(see);
    throw ApiError(400, parameter_in(message), message);
  }
  if (r.exit_code != 0) {
    throw std::runtime_error(
        fmt::format("memlab model {} failed (exit {}): {}", name, r.exit_code, r.err));
  }
  nlohmann::json answer = nlohmann::json::parse(r.out);
  const std::lock_guard lock(mutex_);
  if (cache_.size() >= kMaxCached) cache_.clear();
  cache_.emplace(key, answer);
  return answer;
}

}  // namespace memlab::server
