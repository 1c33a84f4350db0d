// The lessons block (docs/lessons-json.md): declarations from the registry, findings from a run.
#include "memlab/report/lessons.hpp"

#include <set>

#include "memlab/report/run_json.hpp"

namespace memlab::report {

using nlohmann::json;

namespace {

json axis_json(const bench::PlotAxis& a) {
  json j = {{"field", a.field}, {"log", a.log}};
  if (!a.unit.empty()) j["unit"] = a.unit;
  return j;
}

json finding_json(const bench::Finding& f) {
  json j = {{"key", f.key}, {"label", f.label}, {"value", f.value}, {"unit", f.unit}};
  if (f.x_from) j["x_from"] = *f.x_from;
  if (f.x_to) j["x_to"] = *f.x_to;
  return j;
}

}  // namespace

json plot_json(const bench::Plot& p) {
  json j = {{"id", p.id},          {"kind", bench::plot_kind_name(p.kind)},
            {"title", p.title},    {"x", axis_json(p.x)},
            {"y", axis_json(p.y)}, {"series", p.series}};
  if (!p.facet.empty()) j["facet"] = p.facet;
  if (!p.where.empty()) {
    json where = json::object();
    for (const auto& [k, v] : p.where) where[k] = v;
    j["where"] = std::move(where);
  }
  if (!p.variants.empty()) j["variants"] = p.variants;
  if (!p.references.empty()) j["references"] = p.references;
  if (p.model) j["model"] = true;
  if (!p.stack.empty()) j["stack"] = p.stack;
  if (!p.heat.row.empty() || !p.heat.col.empty()) {
    j["heat"] = {{"row", p.heat.row}, {"col", p.heat.col}};
  }
  return j;
}

json variant_json(const bench::Variant& v) {
  json j = {{"name", v.name}, {"description", v.description}};
  if (!v.axes.empty()) {
    json axes = json::object();
    for (const bench::VariantAxis& a : v.axes) {
      if (!a.values.empty()) {
        axes[a.axis] = a.values;
        continue;
      }
      json range = json::object();
      if (a.min) range["min"] = *a.min;
      if (a.max) range["max"] = *a.max;
      axes[a.axis] = std::move(range);
    }
    j["axes"] = std::move(axes);
  }
  if (!v.only.empty()) j["only"] = v.only;
  if (v.needs) j["needs"] = v.needs_reason;
  if (!v.opt_in.empty()) j["opt_in"] = v.opt_in;
  if (!v.expected_failure.empty()) j["expected_failure"] = v.expected_failure;
  return j;
}

json lesson_declaration(const bench::Experiment& e) {
  json variants = json::array(), plots = json::array();
  for (const bench::Variant& v : e.variants) variants.push_back(variant_json(v));
  for (const bench::Plot& p : e.plots) plots.push_back(plot_json(p));
  return {{"summary", e.summary},
          {"baseline", e.baseline},
          {"vendor", e.vendor},
          {"bytes_convention", e.bytes_convention},
          {"variants", std::move(variants)},
          {"plots", std::move(plots)}};
}

json lesson_findings(const bench::Experiment& e, const json& records, const json& context) {
  json out = json::array();
  if (!e.findings) return out;
  for (const bench::Finding& f : e.findings(records, context)) out.push_back(finding_json(f));
  return out;
}

json lessons_json(const json& run) {
  json lessons = json::object();
  const auto records = run.find("records");
  if (records == run.end() || !records->is_array()) return lessons;
  const auto ctx = run.find("context");
  const json context = ctx != run.end() && ctx->is_object() ? *ctx : json::object();
  std::vector<std::string> order;
  std::set<std::string> seen;
  for (const json& r : *records) {
    if (!r.is_object()) continue;
    const auto name = r.find("experiment");
    if (name == r.end() || !name->is_string()) continue;
    if (seen.insert(name->get<std::string>()).second) order.push_back(*name);
  }
  for (const std::string& name : order) {
    const bench::Experiment* e = bench::find_experiment(name);
    if (e == nullptr) continue;  // a lesson this build no longer has: its records stay as they are
    json mine = json::array();
    for (const json& r : *records) {
      if (r.is_object() && r.value("experiment", std::string()) == name) mine.push_back(r);
    }
    json lesson = lesson_declaration(*e);
    try {
      lesson["findings"] = lesson_findings(*e, mine, context);
    } catch (const std::exception& ex) {
      lesson["findings"] = json::array();
      lesson["findings_error"] = ex.what();
    }
    // headline: branch `cli` adds the one call here (docs/lessons-json.md "Headline"):
    //   lesson["headline"] = lesson_headline(*e, mine, context);
    lessons[name] = std::move(lesson);
  }
  return lessons;
}

void with_lessons(json& run) {
  if (!run.is_object() || run.contains("lessons")) return;
  run["lessons"] = lessons_json(run);
}

std::string render_run_json(const bench::RunReport& report) {
  json j = run_json(report);
  with_lessons(j);
  return j.dump(2) + "\n";
}

}  // namespace memlab::report
