// `memlab compare BASE.json NEW.json [--threshold 5%]`: SLOW / FAST / SAME / UNSURE per record
// from the samples (src/report/compare.cpp); exit 1 on a significant regression above the
// threshold or a verification failure in NEW, 2 on bad input or nothing in common.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "memlab/cli/commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/report/compare.hpp"

namespace memlab::cli {
namespace {

constexpr std::uintmax_t kMaxReportBytes = std::uintmax_t{1} << 30;

std::string read_file(const std::string& path, const char* which) {
  std::error_code ec;
  const bool regular = std::filesystem::is_regular_file(path, ec);
  const std::uintmax_t size = regular ? std::filesystem::file_size(path, ec) : 0;
  std::ifstream f(path, std::ios::binary);
  if (!regular || ec || !f) {
    throw UsageError(
        fmt::format("{}: '{}' cannot be read; accepted: a JSON file written by "
                    "memlab run --json",
                    which, path));
  }
  if (size > kMaxReportBytes) {
    throw UsageError(
        fmt::format("{}: '{}' is larger than 1 GiB; accepted: a memlab JSON report", which, path));
  }
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
  auto* cmd = app.add_subcommand(
      "compare",
      "Compare two `memlab run --json` reports: SLOW/FAST/SAME/UNSURE per record from the samples "
      "(Mann-Whitney U, 99% confidence); exit 1 on a significant regression above the threshold");
  cmd->add_option("base", a->base, "The reference report")->required();
  cmd->add_option("new", a->next, "The report to check")->required();
  cmd->add_option("--threshold", a->threshold,
                  "Smallest change that counts, a percentage: 5% or 5 (default 5%); 0.5 is 0.5%");
  cmd->callback([a, &exit_code] {
    const double threshold = report::parse_threshold(a->threshold);
    const std::string base_text = read_file(a->base, "base");
    const std::string new_text = read_file(a->next, "new");
    const report::CompareResult r =
        report::compare_reports(base_text, new_text, threshold, a->base, a->next);
    std::cout << fmt::format("{:<14} {:<16} {:<40} {:>12} {:>12} {:>8} {:>8}  {}\n", "experiment",
                             "variant", "point", "base", "new", "change", "p", "verdict");
    for (const auto& c : r.rows) {
      std::cout << fmt::format(
          "{:<14} {:<16} {:<40} {:>9.4f} ms {:>9.4f} ms {:>+7.1f}% {:>8.2g}  {}{}\n", c.experiment,
          c.variant, c.point, c.base_ms, c.new_ms, 100.0 * c.change, c.p_value,
          report::verdict_name(c.verdict), c.test == "mann-whitney" ? "" : " (" + c.test + ")");
    }
    for (const auto& s : r.only_base) std::cout << "only in " << a->base << ": " << s << "\n";
    for (const auto& s : r.only_new) std::cout << "only in " << a->next << ": " << s << "\n";
    for (const auto& s : r.duplicates) std::cout << "duplicate in " << s << "\n";
    for (const auto& s : r.warnings) std::cout << "warning: " << s << "\n";
    for (const auto& s : r.failed_new) std::cout << "verification failed in new: " << s << "\n";
    std::cout << fmt::format(
        "{} compared: {} SLOW, {} FAST, {} SAME, {} UNSURE (threshold {:g}%, Mann-Whitney U "
        "two-sided at {:g}% confidence); {} failed checks\n",
        r.rows.size(), r.regressions, r.fast, r.same, r.unsure, 100.0 * threshold,
        100.0 * (1.0 - report::kCompareAlpha), r.failed_new.size());
    exit_code = (r.regressions > 0 || !r.failed_new.empty()) ? kExitVerificationFailed : kExitOk;
  });
}

}  // namespace memlab::cli
