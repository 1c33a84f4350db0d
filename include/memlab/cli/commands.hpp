// The memlab subcommands. Each adds itself to the CLI11 app; its callback sets `exit_code`.
// UsageError escapes to main (exit 2), CudaError too (exit 3).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace memlab::cli {

void add_info_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
// The self-contained HTML report of runs ({name, run JSON}): `memlab report`'s writer
// (web_commands.hpp: html_report_writer()); empty in a build without the web lab.
using HtmlReportFn =
    std::function<std::string(const std::vector<std::pair<std::string, nlohmann::json>>& runs)>;

// `memlab run`; `html_report` writes `--report F.html` (empty: --report is a usage error).
void add_run_command(CLI::App& app, int& exit_code, const std::string& command_line,
                     HtmlReportFn html_report = {});
// `memlab summary RUN.json`: the summary `memlab run` ends with, of a stored run.
void add_summary_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_claims_command(CLI::App& app, int& exit_code);
void add_exercise_command(CLI::App& app, int& exit_code);

}  // namespace memlab::cli
