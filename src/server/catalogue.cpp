#include "catalogue.hpp"

#include <fmt/format.h>

#include "embedded.hpp"
#include "memlab/bench/experiment.hpp"

namespace memlab::server {

using nlohmann::json;

std::optional<json> lesson_content(const std::string& name) {
  // A lesson registered in another lesson's folder (Experiment::home) shows that folder's doc and
  // kernels.
  const bench::Experiment* e = bench::find_experiment(name);
  const std::string home = e != nullptr ? e->home_or_name() : name;
  json sources = json::array();
  for (const char* file : {"kernels.cuh", "kernels.cu"}) {
    if (auto text = embedded::find(fmt::format("lessons/{}/{}", home, file))) {
      sources.push_back({{"file", file}, {"text", std::string(*text)}});
    }
  }
  const auto doc = embedded::find(fmt::format("docs/{}.md", home));
  if (!doc && sources.empty()) return std::nullopt;
  return json{
      {"name", name}, {"doc", doc ? json(std::string(*doc)) : json(nullptr)}, {"sources", sources}};
}

json report_catalogue(const std::vector<std::string>& names) {
  json out = json::object();
  // A lesson registered in another lesson's folder (Experiment::home) names that folder; its doc
  // and kernels travel once, under the home's entry (the report stays under 3 MB).
  std::vector<std::string> homes;
  for (const std::string& name : names) {
    json entry = json::object();
    std::string home = name;
    if (const bench::Experiment* e = bench::find_experiment(name)) {
      entry["summary"] = e->summary;
      entry["baseline"] = e->baseline;
      home = e->home_or_name();
    }
    if (home != name) {
      entry["home"] = home;
      homes.push_back(home);
    } else if (auto content = lesson_content(name)) {
      entry["doc"] = (*content)["doc"];
      entry["sources"] = (*content)["sources"];
    }
    out[name] = std::move(entry);
  }
  for (const std::string& home : homes) {
    json& entry = out[home];
    if (entry.contains("doc") || entry.contains("sources")) continue;
    if (auto content = lesson_content(home)) {
      entry["doc"] = (*content)["doc"];
      entry["sources"] = (*content)["sources"];
    }
  }
  return out;
}

json slim_run(json run) {
  auto drop_samples = [](json& holder) {
    if (holder.is_object() && holder.contains("stats") && holder["stats"].is_object()) {
      holder["stats"].erase("samples_ms");
    }
  };
  if (run.contains("records") && run["records"].is_array()) {
    for (json& r : run["records"]) {
      drop_samples(r);
      if (!r.is_object()) continue;
      if (r.contains("batch") && r["batch"].is_object()) r["batch"].erase("samples_ms");
      r.erase("clocks");  // per record; the run's context keeps the clocks at start and end
      r.erase("seed");    // the run's seed is in the context
      // The variant's description is in the lessons block (lessons.<name>.variants).
      r.erase("description");
    }
  }
  if (run.contains("ceilings") && run["ceilings"].is_object()) {
    for (auto& [key, c] : run["ceilings"].items()) drop_samples(c);
  }
  return run;
}

}  // namespace memlab::server
