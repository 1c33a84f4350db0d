// make_plan: everything about a run that can be checked without a device.
#include "memlab/bench/plan.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <random>
#include <set>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/version.hpp"

namespace memlab::bench {
namespace {

std::string all_names() {
  std::string s;
  for (const auto& e : experiments()) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

void check_settings(const RunRequest& r) {
  if (r.min_samples < 10 || r.min_samples > 100000) {
    throw UsageError(
        fmt::format("--min-samples: {} is out of range; accepted: 10..100000", r.min_samples));
  }
  if (!(r.noise > 0 && r.noise < 1)) {
    throw UsageError(
        fmt::format("--noise: {} is out of range; accepted: a fraction in (0, 1), "
                    "e.g. 0.005",
                    r.noise));
  }
  if (r.budget_s && !(*r.budget_s > 0 && *r.budget_s <= 600)) {
    throw UsageError(
        fmt::format("--budget: {} is out of range; accepted: seconds in (0, 600]", *r.budget_s));
  }
  if (r.device < 0) {
    throw UsageError(fmt::format("--device: {} does not exist; accepted: 0 or more", r.device));
  }
}

std::vector<const Experiment*> select_experiments(const RunRequest& r) {
  std::vector<const Experiment*> selected;
  if (r.experiments.empty()) {
    for (const auto& e : experiments()) {
      if (e.in_default_suite) selected.push_back(&e);
    }
    return selected;
  }
  for (const std::string& name : r.experiments) {
    const Experiment* e = find_experiment(name);
    if (e == nullptr) {
      throw UsageError(fmt::format("experiment: '{}' is unknown; accepted: {}", name, all_names()));
    }
    if (std::find(selected.begin(), selected.end(), e) != selected.end()) {
      throw UsageError(
          fmt::format("experiment: '{}' is given twice; accepted: each experiment once", name));
    }
    selected.push_back(e);
  }
  return selected;
}

bool matches(const std::string& filter, const Experiment& e, const Variant& v) {
  return filter == v.name || filter == e.name + ":" + v.name;
}

// Variant filter: "name" or "experiment:name"; each must name a variant of a selected experiment.
void check_variant_filter(const std::vector<std::string>& filter,
                          const std::vector<const Experiment*>& selected) {
  std::set<std::string> seen;
  for (const std::string& f : filter) {
    if (f.empty()) {
      throw UsageError("-v/--variants: empty value; accepted: a variant name (see memlab list)");
    }
    if (!seen.insert(f).second) {
      throw UsageError(
          fmt::format("-v/--variants: '{}' is given twice; accepted: each variant once", f));
    }
    bool found = false;
    std::string accepted;
    for (const auto* e : selected) {
      for (const auto& v : e->variants) {
        accepted += (accepted.empty() ? "" : ", ") + v.name;
        if (matches(f, *e, v)) found = true;
      }
    }
    if (!found) {
      throw UsageError(
          fmt::format("-v/--variants: '{}' is not a variant of the selected "
                      "experiments; accepted: {}",
                      f, accepted));
    }
  }
}

// Axis overrides: each axis belongs to at least one selected experiment, is given once, and
// each of its values once (compared after canonicalisation: 1Gi and 2^30 are the same value).
std::map<std::string, std::vector<std::string>> check_axes(
    const RunRequest& r, const std::vector<const Experiment*>& selected) {
  std::map<std::string, std::vector<std::string>> overrides;
  for (const auto& [name, values] : r.axes) {
    bool known = false;
    std::string accepted;
    for (const auto* e : selected) {
      for (const auto& axis : e->axes) {
        accepted += (accepted.empty() ? "" : ", ") + axis.name;
        if (axis.name == name) known = true;
      }
    }
    if (!known) {
      throw UsageError(
          fmt::format("-a/--axis: '{}' is not an axis of the selected experiments; "
                      "accepted: {}",
                      name, accepted.empty() ? "(none)" : accepted));
    }
    if (overrides.count(name) != 0) {
      throw UsageError(
          fmt::format("-a/--axis: '{}' given twice; give all values at once: "
                      "{}=V1,V2",
                      name, name));
    }
    if (values.empty()) {
      throw UsageError(
          fmt::format("-a/--axis: '{}' has no values; accepted: {}=V1,V2,...", name, name));
    }
    for (const auto* e : selected) {
      for (const auto& axis : e->axes) {
        if (axis.name != name) continue;
        std::map<std::string, std::string> canonical;  // canonical -> as typed
        for (const std::string& v : values) {
          const std::string c = axis.validate(v);
          auto [it, fresh] = canonical.emplace(c, v);
          if (fresh) continue;
          if (it->second == v) {
            throw UsageError(
                fmt::format("-a/--axis: {}={} is given twice; accepted: each value once", name, v));
          }
          throw UsageError(
              fmt::format("-a/--axis: {}={} is the same value as {}={} ({}); accepted: each "
                          "value once",
                          name, v, name, it->second, c));
        }
      }
    }
    overrides[name] = values;
  }
  return overrides;
}

}  // namespace

std::size_t Plan::measurement_count() const {
  std::size_t n = 0;
  for (const auto& ep : experiments) {
    for (const auto& point : ep.points) n += point.variants.size();
  }
  return n;
}

std::optional<Prediction> predict_variant(const Variant& v, const Params& params,
                                          const PredictContext& ctx) {
  if (v.predict_on_device) return v.predict_on_device(params, ctx);
  if (v.predict) return v.predict(params);
  return std::nullopt;
}

double useful_bytes(const Experiment& e, const Variant& v, const Params& params) {
  return v.bytes ? v.bytes(params) : (e.bytes ? e.bytes(params) : 0.0);
}

double useful_flops(const Experiment& e, const Variant& v, const Params& params) {
  return v.flops ? v.flops(params) : (e.flops ? e.flops(params) : 0.0);
}

PlannedPoint plan_point(const Experiment& e, const std::vector<const Variant*>& variants,
                        Params params, std::uint64_t run_seed) {
  PlannedPoint point;
  point.seed = point_seed(run_seed, e.name, params);
  if (e.footprint) point.footprint = e.footprint(params);
  for (const Variant* v : variants) {
    if (!v->applies_to(params)) continue;  // not in the plan: never a skip record
    PlannedVariant pv;
    pv.variant = v;
    pv.bytes = useful_bytes(e, *v, params);
    pv.flops = useful_flops(e, *v, params);
    point.variants.push_back(std::move(pv));
  }
  point.params = std::move(params);
  return point;
}

Plan make_plan(const RunRequest& r) {
  check_settings(r);
  Plan plan;
  plan.seed =
      r.seed ? *r.seed
             : (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  plan.quick = r.quick;
  plan.warm = r.warm;
  plan.verify_only = r.verify_only;
  plan.counters = r.counters;
  plan.min_samples = r.min_samples;
  plan.noise = r.noise;
  plan.budget_s = r.budget_s ? *r.budget_s : (r.quick ? 0.05 : 0.3);
  plan.device = r.device;

  const std::vector<const Experiment*> selected = select_experiments(r);
  check_variant_filter(r.variants, selected);
  const auto overrides = check_axes(r, selected);

  std::set<std::string> named_placed;           // -v entries with a planned point
  std::map<std::string, std::string> unplaced;  // -v entry -> where its variant applies
  for (const auto* e : selected) {
    ExperimentPlan ep;
    ep.experiment = e;
    for (const auto& v : e->variants) {
      // Without a filter: every variant but the opt-in ones (Variant::opt_in); a filter takes
      // what it names, opt-in or not.
      const bool keep = r.variants.empty()
                            ? v.opt_in.empty()
                            : std::any_of(r.variants.begin(), r.variants.end(),
                                          [&](const std::string& f) { return matches(f, *e, v); });
      if (keep) ep.variants.push_back(&v);
    }
    if (ep.variants.empty()) continue;
    std::set<const Variant*> placed;  // variants with at least one point
    for (Params& params : expand_axes(e->axes, overrides, r.quick)) {
      if (e->validate) e->validate(params);
      PlannedPoint point = plan_point(*e, ep.variants, std::move(params), plan.seed);
      if (point.variants.empty()) continue;  // no selected variant applies here
      for (const PlannedVariant& pv : point.variants) placed.insert(pv.variant);
      ep.points.push_back(std::move(point));
    }
    // A variant at none of the points is not in the plan (e.g. -a ws=1Gi leaves chase_shared
    // out); a -v entry whose every variant is left out is a usage error (after the loop).
    std::vector<const Variant*> kept;
    for (const Variant* v : ep.variants) {
      const bool here = placed.count(v) != 0;
      if (here) kept.push_back(v);
      for (const std::string& f : r.variants) {
        if (!matches(f, *e, *v)) continue;
        if (here) {
          named_placed.insert(f);
        } else if (unplaced.count(f) == 0) {
          unplaced[f] = v->only.empty() ? e->name : e->name + ": " + v->only;
        }
      }
    }
    ep.variants = std::move(kept);
    if (ep.points.empty()) continue;
    plan.experiments.push_back(std::move(ep));
  }
  for (const std::string& f : r.variants) {
    if (named_placed.count(f) != 0) continue;
    const auto it = unplaced.find(f);
    if (it == unplaced.end()) continue;
    throw UsageError(
        fmt::format("-v/--variants: '{}' applies at none of the planned points ({}); accepted: "
                    "axis values where it applies (see memlab list)",
                    f, it->second));
  }
  if (plan.experiments.empty() && r.variants.empty() && !r.axes.empty()) {
    throw UsageError(
        "-a/--axis: no variant of the selected experiments applies at these points; accepted: "
        "axis values where a variant applies (see memlab list)");
  }
  if (plan.experiments.empty()) {
    throw UsageError("-v/--variants: no variant of the selected experiments left");
  }
  return plan;
}

std::size_t memcpy_ceiling_bytes(double free_bytes, double flush_bytes) {
  std::size_t bytes = std::size_t{1} << 30;
  while (bytes > (std::size_t{64} << 20) &&
         2.0 * static_cast<double>(bytes) + flush_bytes > 0.5 * free_bytes) {
    bytes /= 2;
  }
  return bytes;
}

void check_device_memory(const Plan& plan, double free_bytes, double flush_bytes) {
  for (const auto& ep : plan.experiments) {
    for (const auto& point : ep.points) {
      const double need = point.footprint.value_or(0.0) + flush_bytes;
      if (need > 0.95 * free_bytes) {
        throw UsageError(
            fmt::format("axis {} of {}: needs {} of device memory, {} is free; "
                        "accepted: smaller sizes",
                        point.params.label(), ep.experiment->name, format_bytes(need),
                        format_bytes(free_bytes)));
      }
    }
  }
}

Context make_context(const Plan& plan, const DeviceInfo& device, const std::string& command_line) {
  Context c;
  c.device = device;
  c.tool_version = kVersion;
  c.git_commit = kGitCommit;
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  c.date = buf;
  c.seed = plan.seed;
  c.cold = !plan.warm;
  c.quick = plan.quick;
  c.command_line = command_line;
  return c;
}

void read_clocks_start(Context& c) {
  if (auto clocks = read_live_clocks(c.device)) {
    c.sm_clock_mhz_start = clocks->sm_mhz;
    c.mem_clock_mhz_start = clocks->mem_mhz;
    c.pcie_gen = clocks->pcie_gen;
    c.pcie_width = clocks->pcie_width;
  }
}

void read_clocks_end(Context& c) {
  if (auto clocks = read_live_clocks(c.device)) {
    c.sm_clock_mhz_end = clocks->sm_mhz;
    c.mem_clock_mhz_end = clocks->mem_mhz;
  }
}

}  // namespace memlab::bench
