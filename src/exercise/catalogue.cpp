// The exercise catalogue: exercises/<name>/{exercise.json, statement.{de,en,zh}.md, starter.cu,
// solution.cu}, embedded into the binary at build time.
#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "exercise/counter_model.hpp"
#include "exercise/embedded.hpp"
#include "exercise/plan.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

std::vector<Exercise> load() {
  std::map<std::string, std::map<std::string, std::string>> dirs;
  for (const EmbeddedFile& f : embedded_files()) {
    const std::string path = f.path;
    const auto slash = path.find('/');
    if (slash == std::string::npos) continue;  // e.g. a README at the top
    dirs[path.substr(0, slash)][path.substr(slash + 1)] =
        std::string(reinterpret_cast<const char*>(f.data), f.size);
  }
  std::vector<Exercise> out;
  for (auto& [name, files] : dirs) {
    Exercise e;
    e.name = name;
    const auto spec = files.find("exercise.json");
    e.spec = spec == files.end() ? json::object() : json::parse(spec->second, nullptr, false);
    if (e.spec.is_discarded()) e.spec = json{{"invalid", "exercise.json is not valid JSON"}};
    for (const char* lang : kLanguages) {
      e.statements[lang] = files[fmt::format("statement.{}.md", lang)];
    }
    e.starter = files["starter.cu"];
    e.solution = files["solution.cu"];
    out.push_back(std::move(e));
  }
  std::stable_sort(out.begin(), out.end(), [](const Exercise& a, const Exercise& b) {
    return a.spec.value("order", 999) < b.spec.value("order", 999);
  });
  return out;
}

std::string param_types(const Exercise& e) {
  std::string types;
  for (const json& p : e.spec.at("kernel").at("params")) {
    types += (types.empty() ? "" : ", ") + p.at("type").get<std::string>();
  }
  return types;
}

json lang_pair(const json& j, const char* key) {
  if (j.contains(key)) return j.at(key);
  json empty = json::object();
  for (const char* lang : kLanguages) empty[lang] = "";
  return empty;
}

}  // namespace

const std::string& Exercise::statement(const std::string& lang) const {
  static const std::string none;
  for (const std::string& l : {lang, std::string("en")}) {
    const auto it = statements.find(l);
    if (it != statements.end() && !it->second.empty()) return it->second;
  }
  return none;
}

std::string Exercise::signature() const {
  std::string params;
  for (const json& p : spec.at("kernel").at("params")) {
    params += (params.empty() ? "" : ", ") + p.at("type").get<std::string>() + " " +
              p.at("name").get<std::string>();
  }
  return fmt::format("__global__ void {}({})", kernel(), params);
}

std::string Exercise::kernel_expr() const {
  return fmt::format("static_cast<void (*)({})>(&{})", param_types(*this), kernel());
}

const std::vector<Exercise>& catalogue() {
  static const std::vector<Exercise> all = load();
  return all;
}

const Exercise& get(const std::string& name) {
  for (const Exercise& e : catalogue()) {
    if (e.name == name) return e;
  }
  std::string names;
  for (const Exercise& e : catalogue()) names += (names.empty() ? "" : ", ") + e.name;
  throw UsageError(fmt::format("exercise {}: unknown; accepted: {}", name, names));
}

std::vector<std::string> validate(const Exercise& e) {
  std::vector<std::string> bad;
  auto need = [&](bool ok, const std::string& what) {
    if (!ok) bad.push_back(e.name + ": " + what);
  };
  // The statements last (a missing one stops no other check), the files first.
  auto statements = [&] {
    for (const char* lang : kLanguages) {
      const auto it = e.statements.find(lang);
      need(it != e.statements.end() && !it->second.empty(),
           fmt::format("statement.{}.md missing or empty", lang));
    }
    return bad;
  };
  need(!e.starter.empty(), "starter.cu missing or empty");
  need(!e.solution.empty(), "solution.cu missing or empty");
  const json& s = e.spec;
  for (const char* key : {"lesson", "title", "kernel", "launch", "check_as", "measure_point",
                          "naive", "target", "hints", "quiz"}) {
    need(s.contains(key), fmt::format("exercise.json lacks \"{}\"", key));
  }
  if (!bad.empty()) return statements();
  auto text = [](const json& j, const char* lang) {
    return j.is_object() && j.contains(lang) && j[lang].is_string() &&
           !j[lang].get<std::string>().empty();
  };
  for (const char* lang : kLanguages) {
    need(text(s["title"], lang), fmt::format("title.{} missing", lang));
    need(s["target"].contains("text") && text(s["target"]["text"], lang),
         fmt::format("target.text.{} missing", lang));
    need(s["hints"].contains(lang) && s["hints"][lang].is_array() && !s["hints"][lang].empty(),
         fmt::format("hints.{} missing", lang));
  }
  if (!bad.empty()) return statements();
  for (const char* lang : kLanguages) {
    need(s["hints"][lang].size() == s["hints"]["en"].size(),
         fmt::format("hints: {} and en differ in number", lang));
    for (const json& h : s["hints"][lang]) {
      need(h.is_string() && !h.get<std::string>().empty(), fmt::format("hints.{}: empty", lang));
    }
  }
  need(s["quiz"].is_array() && s["quiz"].size() >= 3 && s["quiz"].size() <= 5,
       "quiz: 3 to 5 questions");
  if (s["quiz"].is_array()) {
    for (std::size_t i = 0; i < s["quiz"].size(); ++i) {
      for (const char* lang : kLanguages) {
        const json& q = s["quiz"][i];
        need(q.is_object() && q.contains("question") && text(q["question"], lang),
             fmt::format("quiz[{}].question.{} missing", i, lang));
      }
    }
  }
  const bench::Experiment* x = bench::find_experiment(e.lesson());
  need(x != nullptr, fmt::format("lesson {} is not registered", e.lesson()));
  if (x == nullptr) return statements();
  need(static_cast<bool>(x->kernel_args), fmt::format("lesson {} exposes no kernel_args", x->name));
  auto has_variant = [&](const std::string& v) { return x->find_variant(v) != nullptr; };
  need(has_variant(s["check_as"]), "check_as: not a variant of the lesson");
  need(has_variant(s["naive"]), "naive: not a variant of the lesson");
  for (const json& v : s.value("compare", json::array())) {
    need(has_variant(v.get<std::string>()), fmt::format("compare: {} not a variant", v.dump()));
  }
  const std::string kind = s["target"].value("kind", "");
  need(kind == "pct_memcpy" || kind == "speedup_over" || kind == "vs_variant",
       "target.kind: pct_memcpy, speedup_over or vs_variant");
  if (kind != "pct_memcpy") {
    need(has_variant(s["target"].value("variant", "")), "target.variant: not a variant");
  }
  need(s["target"].value("value", 0.0) > 0, "target.value must be > 0");
  try {
    const Plan plan = make_plan(e);
    need(plan.points.size() >= 3, "fewer than 3 test points");
    bool odd = false;
    for (const PlannedPoint& p : plan.points) {
      for (const auto& [k, v] : p.params.values()) {
        if (v.find_first_not_of("0123456789") == std::string::npos && !v.empty() &&
            (v.back() - '0') % 2 == 1 && std::stoll(v) > 1) {
          odd = true;
        }
      }
    }
    need(odd, "no test point with an odd size above 1");
  } catch (const std::exception& ex) {
    bad.push_back(e.name + ": plan: " + ex.what());
  }
  if (e.starter.find(e.kernel()) == std::string::npos)
    bad.push_back(e.name + ": starter lacks the kernel");
  for (const std::string& problem : validate_counters(e)) bad.push_back(problem);
  for (const std::string& v : counter_variants(e)) {
    need(has_variant(v), fmt::format("counters.compare: {} not a variant", v));
  }
  return statements();
}

json list_json() {
  json out = json::array();
  for (const Exercise& e : catalogue()) {
    out.push_back({{"name", e.name},
                   {"lesson", e.lesson()},
                   {"level", e.spec.value("level", 1)},
                   {"title", lang_pair(e.spec, "title")},
                   {"target", lang_pair(e.spec.at("target"), "text")}});
  }
  return out;
}

json exercise_json(const Exercise& e, bool with_solution) {
  json j = {{"name", e.name},
            {"lesson", e.lesson()},
            {"level", e.spec.value("level", 1)},
            {"title", lang_pair(e.spec, "title")},
            {"statement", e.statements},
            {"starter", e.starter},
            {"signature", e.signature()},
            {"kernel", e.spec.at("kernel")},
            {"launch", e.spec.at("launch")},
            {"check_as", e.spec.at("check_as")},
            {"naive", e.spec.at("naive")},
            {"target", e.spec.at("target")},
            {"hints", e.spec.at("hints")},
            {"plan", plan_json(e)},
            {"quiz", quiz_json(e)},
            {"counter_model", counter_models(e)}};
  if (with_solution) j["solution"] = e.solution;
  return j;
}

}  // namespace memlab::exercise
