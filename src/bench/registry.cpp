#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "memlab/bench/experiment.hpp"

namespace memlab::bench {
namespace {
std::vector<Experiment>& registry() {
  static std::vector<Experiment> all;
  return all;
}
}  // namespace

const Variant* Experiment::find_variant(const std::string& variant) const {
  for (const Variant& v : variants) {
    if (v.name == variant) return &v;
  }
  return nullptr;
}

bool register_experiment(Experiment experiment) {
  auto& all = registry();
  if (find_experiment(experiment.name) != nullptr) {
    throw std::logic_error(fmt::format("experiment '{}' registered twice", experiment.name));
  }
  if (!experiment.baseline.empty() && experiment.find_variant(experiment.baseline) == nullptr) {
    throw std::logic_error(fmt::format("experiment '{}': baseline '{}' is not a variant",
                                       experiment.name, experiment.baseline));
  }
  all.push_back(std::move(experiment));
  std::sort(all.begin(), all.end(),
            [](const Experiment& a, const Experiment& b) { return a.name < b.name; });
  return true;
}

const std::vector<Experiment>& experiments() {
  return registry();
}

const Experiment* find_experiment(const std::string& name) {
  for (const Experiment& e : registry()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace memlab::bench
