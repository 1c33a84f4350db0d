// `memlab claims`: every quantitative claim of the course material, its test and its verdict.
// --from RUN.json evaluates an existing run; otherwise the needed measurements run here (exit 3
// and the plan without a GPU).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <map>
#include <set>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/claims/claims.hpp"
#include "memlab/cli/commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/output_file.hpp"
#include "memlab/report/report.hpp"
#include "memlab/version.hpp"

namespace memlab::cli {
namespace {

struct ClaimsArgs {
  std::string json;
  std::string from;
  std::string run_json;
};

// The claims' measurements as one plan: per experiment, the union of the claims' variants and
// axis values (axes differ between experiments, so each is planned on its own, then joined).
bench::Plan claim_plan() {
  std::map<std::string,
           std::pair<std::set<std::string>, std::map<std::string, std::set<std::string>>>>
      merged;
  for (const auto& c : claims::all()) {
    for (const auto& n : c.needs) {
      auto& [vars, axes] = merged[n.experiment];
      vars.insert(n.variants.begin(), n.variants.end());
      for (const auto& [k, v] : n.axes) axes[k].insert(v.begin(), v.end());
    }
  }
  bench::Plan plan;
  bool first = true;
  for (const auto& [name, m] : merged) {
    if (bench::find_experiment(name) == nullptr) continue;  // its claims show "no record"
    bench::RunRequest req;
    req.experiments = {name};
    for (const auto& v : m.first) req.variants.push_back(name + ":" + v);
    for (const auto& [k, vals] : m.second)
      req.axes.emplace_back(k, std::vector(vals.begin(), vals.end()));
    req.seed = 20261130;
    req.budget_s = 0.1;
    bench::Plan p = bench::make_plan(req);
    if (first) {
      plan = std::move(p);
      first = false;
    } else {
      for (auto& e : p.experiments) plan.experiments.push_back(std::move(e));
    }
  }
  return plan;
}

nlohmann::json read_run(const std::string& path) {
  std::ifstream f(path);
  if (!f) throw UsageError(fmt::format("--from: cannot open '{}'", path));
  try {
    nlohmann::json j = nlohmann::json::parse(f);
    if (!j.contains("records")) throw UsageError(fmt::format("--from: '{}' has no records", path));
    return j;
  } catch (const nlohmann::json::parse_error&) {
    throw UsageError(fmt::format("--from: '{}' is not JSON", path));
  }
}

// The output files, opened before any work (a bad path is a usage error, exit 2, at once).
struct ClaimsOutputs {
  report::OutputFile json, run_json;
};

ClaimsOutputs open_outputs(const ClaimsArgs& a, const std::set<std::string>& given) {
  const std::pair<const std::string*, const char*> options[] = {{&a.json, "--json"},
                                                                {&a.run_json, "--run-json"}};
  for (const auto& [path, option] : options) {
    if (given.count(option) != 0 && path->empty()) {
      throw UsageError(fmt::format("{}: '' is not a file name; accepted: a writable path", option));
    }
  }
  if (!a.json.empty() && a.json == a.run_json) {
    throw UsageError(
        fmt::format("--run-json: '{}' is also the --json file; accepted: another file", a.json));
  }
  if (!a.run_json.empty() && !a.from.empty()) {
    throw UsageError("--run-json: with --from nothing is measured; drop one of the two");
  }
  ClaimsOutputs out;
  if (!a.json.empty()) out.json = report::OutputFile(a.json, "--json");
  if (!a.run_json.empty()) out.run_json = report::OutputFile(a.run_json, "--run-json");
  return out;
}

nlohmann::json measure(ClaimsOutputs& out, int& exit_code) {
  const bench::Plan plan = claim_plan();
  std::string why;
  if (device_count_or_zero(&why) == 0) {
    std::cerr << "memlab: no CUDA device (" << why << "); showing the claims and the plan only\n";
    std::cout << claims::render_plan();
    exit_code = kExitCuda;
    return nullptr;
  }
  bench::ExecuteOptions opt;
  opt.command_line = "memlab claims";
  const bench::RunReport report = bench::execute(plan, opt, [](const bench::ProgressEvent& e) {
    if (e.stage == bench::ProgressEvent::Stage::Setup) {
      std::cerr << "[memlab claims] " << e.experiment << " " << e.point << "\n";
    }
  });
  if (report.any_failed()) exit_code = kExitVerificationFailed;
  const std::string text = report::render_json(report);
  if (out.run_json.is_open()) out.run_json.write(text);
  return nlohmann::json::parse(text);
}

int claims_command(const ClaimsArgs& a, const std::set<std::string>& given) {
  int exit_code = kExitOk;
  ClaimsOutputs out = open_outputs(a, given);
  const nlohmann::json run = a.from.empty() ? measure(out, exit_code) : read_run(a.from);
  if (run.is_null()) return exit_code;
  const auto results = claims::evaluate(run);
  const auto levels = claims::levels_of(run);
  const nlohmann::json ctx = run.contains("context") ? run["context"] : nlohmann::json::object();
  std::cout << claims::render_table(results, levels, ctx);
  if (out.json.is_open()) out.json.write(claims::evaluate_json(run).dump(2) + "\n");
  return exit_code;
}

}  // namespace

void add_claims_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ClaimsArgs>();
  auto* cmd = app.add_subcommand(
      "claims", "Check every quantitative claim of the course material on this GPU");
  cmd->add_option("--json", args->json, "Write the verdicts as JSON to this file");
  cmd->add_option("--from", args->from, "Evaluate an existing run (memlab run --json) instead");
  cmd->add_option("--run-json", args->run_json, "Also write the measured run as JSON here");
  auto given = std::make_shared<std::set<std::string>>();
  for (const char* name : {"--json", "--run-json"}) {
    cmd->get_option(name)->each([given, name](const std::string&) { given->insert(name); });
  }
  cmd->callback([args, given, &exit_code] { exit_code = claims_command(*args, *given); });
}

}  // namespace memlab::cli
