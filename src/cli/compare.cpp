#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <sstream>

#include "memlab/cli/commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/report/compare.hpp"

namespace memlab::cli {
namespace {

std::string read_file(const std::string& path) {
  std::ifstream f(path);
  if (!f)
    throw UsageError(
        fmt::format("{}: cannot be read; accepted: a JSON file written by "
                    "memlab run --json",
                    path));
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  struct Args {
    std::string base, next, threshold = "5%";
  };
  auto a = std::make_shared<Args>();
  auto* cmd = app.add_subcommand("compare",
                                 "Compare two `memlab run --json` reports; exit 1 on a regression");
  cmd->add_option("base", a->base, "The reference report")->required();
  cmd->add_option("new", a->next, "The report to check")->required();
  cmd->add_option("--threshold", a->threshold, "Slow-down that counts as a regression (5%)");
  cmd->callback([a, &exit_code] {
    const double threshold = report::parse_threshold(a->threshold);
    const report::CompareResult r = report::compare_reports(read_file(a->base), read_file(a->next),
                                                            threshold, a->base, a->next);
    std::cout << fmt::format("{:<14} {:<16} {:<40} {:>12} {:>12} {:>8}\n", "experiment", "variant",
                             "point", "base", "new", "change");
    for (const auto& c : r.rows) {
      std::cout << fmt::format("{:<14} {:<16} {:<40} {:>9.4f} ms {:>9.4f} ms {:>+7.1f}%{}\n",
                               c.experiment, c.variant, c.point, c.base_ms, c.new_ms,
                               100.0 * c.change, c.regression ? "  REGRESSION" : "");
    }
    for (const auto& s : r.only_base) std::cout << "only in " << a->base << ": " << s << "\n";
    for (const auto& s : r.only_new) std::cout << "only in " << a->next << ": " << s << "\n";
    for (const auto& s : r.failed_new) std::cout << "verification failed in new: " << s << "\n";
    std::cout << fmt::format("{} compared, {} regressions over {:.1f}%, {} failed checks\n",
                             r.rows.size(), r.regressions, 100.0 * threshold, r.failed_new.size());
    exit_code = (r.regressions > 0 || !r.failed_new.empty()) ? kExitVerificationFailed : kExitOk;
  });
}

}  // namespace memlab::cli
