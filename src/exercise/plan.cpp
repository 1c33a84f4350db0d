#include "exercise/plan.hpp"

#include <fmt/format.h>

#include <map>

#include "exercise/expr.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

bench::Params point_of(const bench::Experiment& x, const json& fixed, const json& values,
                       const std::string& what) {
  std::vector<std::pair<std::string, std::string>> v;
  for (const bench::AxisSpec& a : x.axes) {
    std::string value;
    if (values.contains(a.name)) {
      value = values[a.name].get<std::string>();
    } else if (fixed.contains(a.name)) {
      value = fixed[a.name].get<std::string>();
    } else {
      throw UsageError(fmt::format("{}: axis {} has no value", what, a.name));
    }
    try {
      v.emplace_back(a.name, a.validate(value));  // the canonical spelling
    } catch (const UsageError& ex) {
      throw UsageError(fmt::format("{}: {}", what, ex.what()));
    }
  }
  bench::Params p(v);
  if (x.validate) x.validate(p);
  return p;
}

bool matches(const std::vector<std::pair<std::string, std::string>>& point, const json& fixed) {
  for (const auto& [k, v] : point) {
    if (fixed.contains(k) && fixed[k].get<std::string>() != v) return false;
  }
  return true;
}

}  // namespace

Launch launch_at(const Exercise& e, const bench::Params& p) {
  std::map<std::string, std::int64_t> vars;
  for (const auto& [k, v] : p.values()) {
    if (!v.empty() && v.find_first_not_of("0123456789") == std::string::npos) vars[k] = p.n(k);
  }
  const json& rule = e.spec.at("launch");
  Launch l;
  for (int i = 0; i < 3; ++i) {
    const auto idx = static_cast<std::size_t>(i);
    l.grid[idx] = eval_expr(rule.at("grid").at(idx).get<std::string>(), vars,
                            fmt::format("{}: launch.grid[{}]", e.name, i));
    l.block[idx] = eval_expr(rule.at("block").at(idx).get<std::string>(), vars,
                             fmt::format("{}: launch.block[{}]", e.name, i));
  }
  l.shared_bytes = eval_expr(rule.value("shared_bytes", std::string("0")), vars,
                             fmt::format("{}: launch.shared_bytes", e.name));
  return l;
}

json launch_json(const Launch& l) {
  return {{"grid", l.grid}, {"block", l.block}, {"shared_bytes", l.shared_bytes}};
}

Plan make_plan(const Exercise& e) {
  const bench::Experiment* x = bench::find_experiment(e.lesson());
  if (x == nullptr) throw UsageError(fmt::format("{}: lesson {} unknown", e.name, e.lesson()));
  const json fixed = e.spec.value("fixed", json::object());
  Plan plan;
  auto add = [&](const bench::Params& p) {
    PlannedPoint pp{p, launch_at(e, p)};
    if (pp.launch.grid[0] * pp.launch.grid[1] * pp.launch.grid[2] == 0) return;  // empty input
    plan.points.push_back(std::move(pp));
  };
  if (e.spec.value("lesson_points", true)) {
    for (const auto& tp : x->test_points) {
      if (!matches(tp, fixed)) continue;
      json values = json::object();
      for (const auto& [k, v] : tp) values[k] = v;
      add(point_of(*x, fixed, values, e.name + ": lesson test point"));
    }
  }
  for (const json& extra : e.spec.value("extra_points", json::array())) {
    add(point_of(*x, fixed, extra, e.name + ": extra_points"));
  }
  const bench::Params m =
      point_of(*x, fixed, e.spec.at("measure_point"), e.name + ": measure_point");
  plan.measure = PlannedPoint{m, launch_at(e, m)};
  return plan;
}

Plan only_points(Plan plan, const nlohmann::json& labels) {
  if (!labels.is_array() || labels.empty()) return plan;
  std::vector<PlannedPoint> kept;
  for (const json& l : labels) {
    const std::string label = l.get<std::string>();
    bool found = false;
    for (const PlannedPoint& pp : plan.points) {
      if (pp.params.label() == label) {
        kept.push_back(pp);
        found = true;
        break;
      }
    }
    if (!found && plan.measure.params.label() == label) {
      kept.push_back(plan.measure);
      found = true;
    }
    if (!found) throw UsageError(fmt::format("points: {} is not a test point", label));
  }
  plan.points = std::move(kept);
  return plan;
}

nlohmann::json plan_json(const Exercise& e) {
  const Plan plan = make_plan(e);
  json points = json::array();
  for (const PlannedPoint& p : plan.points) {
    points.push_back({{"point", p.params.label()}, {"launch", launch_json(p.launch)}});
  }
  return {{"points", points},
          {"measure",
           {{"point", plan.measure.params.label()}, {"launch", launch_json(plan.measure.launch)}}}};
}

}  // namespace memlab::exercise
