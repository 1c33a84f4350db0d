// `memlab summary RUN.json`: the one-screen summary `memlab run` ends with, of a stored run.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>

#include "memlab/cli/commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/report/headline.hpp"

namespace memlab::cli {
namespace {

struct SummaryArgs {
  std::string run;
  bool all = false;
  bool json = false;
};

int summary(const SummaryArgs& a) {
  std::ifstream f(a.run, std::ios::binary);
  if (!f) throw UsageError(fmt::format("RUN: cannot read '{}'", a.run));
  nlohmann::json run;
  try {
    run = nlohmann::json::parse(f);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(fmt::format("RUN: '{}' is not JSON (byte {})", a.run, e.byte));
  }
  if (!run.is_object() || !run.contains("records") || !run["records"].is_array()) {
    throw UsageError(fmt::format(
        "RUN: '{}' is not a memlab run (no records; write one with memlab run --json)", a.run));
  }
  const nlohmann::json s = report::run_summary(run);
  if (a.json) {
    std::cout << s.dump(2) << "\n";
    return kExitOk;
  }
  report::SummaryTextOptions o;
  o.run_path = a.run;
  if (a.all) {
    o.max_skip_reasons = 0;
    o.max_failures = 0;
  }
  std::cout << report::render_summary(s, o);
  return kExitOk;
}

}  // namespace

void add_summary_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<SummaryArgs>();
  auto* cmd = app.add_subcommand(
      "summary", "The one-screen summary of a stored run: per lesson its headline, skips, claims");
  cmd->add_option("RUN", a->run, "A run's JSON (memlab run --json)")->required();
  cmd->add_flag("--all", a->all, "Every skip reason and every failure, not only the largest");
  cmd->add_flag("--json", a->json, "Print the summary as JSON (lesson headlines included)");
  cmd->callback([a, &exit_code] { exit_code = summary(*a); });
}

}  // namespace memlab::cli
