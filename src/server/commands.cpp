// `memlab report` (and `memlab run --report`): argument parsing and printing only. No HTTP: this
// file is in memlab_web_content, which the plain `memlab` binary links; `memlab serve` is
// serve_command.cpp (memlab-serve) or serve_exec.cpp (memlab, which runs memlab-serve).
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "memlab/cli/web_commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"
#include "memlab/report/output_file.hpp"
#include "report_html.hpp"

namespace memlab::cli {
namespace {

namespace fs = std::filesystem;

std::string read_file(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  if (!f) throw UsageError(fmt::format("{}: cannot read the file", path));
  std::ostringstream s;
  s << f.rdbuf();
  if (!f.good() && !f.eof()) throw UsageError(fmt::format("{}: cannot read the file", path));
  return s.str();
}

int report(const std::vector<std::string>& inputs, const std::string& output,
           const std::string& lang) {
  // The output first: an unwritable path fails before any work (nothing is truncated until the
  // report is written; a file created here and never written is removed again).
  report::OutputFile out(output, "-o");
  std::vector<server::ReportRun> runs;
  for (const std::string& path : inputs) {
    nlohmann::json run;
    try {
      run = nlohmann::json::parse(read_file(path));
    } catch (const nlohmann::json::parse_error& e) {
      throw UsageError(fmt::format("{}: not JSON (byte {})", path, e.byte));
    }
    if (!run.is_object() || !run.contains("records") || !run["records"].is_array() ||
        !run.contains("context")) {
      throw UsageError(fmt::format(
          "{}: not a memlab run JSON (no context and records; write one with memlab run --json)",
          path));
    }
    runs.push_back({fs::path(path).stem().string(), std::move(run)});
  }
  const std::string html = server::build_report_html(runs, lang);
  out.write(html);
  std::cout << fmt::format("memlab report: {} ({} run{}, {:.2f} MB)\n", output, runs.size(),
                           runs.size() == 1 ? "" : "s", static_cast<double>(html.size()) / 1e6);
  return kExitOk;
}

}  // namespace

void add_web_commands(CLI::App& app, int& exit_code) {
  add_serve_command(app, exit_code);

  auto inputs = std::make_shared<std::vector<std::string>>();
  auto output = std::make_shared<std::string>();
  auto* report_cmd = app.add_subcommand(
      "report", "One self-contained HTML file of one or more runs (opens from file://)");
  report_cmd->add_option("runs", *inputs, "Run JSON files (memlab run --json)")->required();
  report_cmd->add_option("-o,--output", *output, "The HTML file to write")->required();
  auto lang = std::make_shared<std::string>();
  report_cmd
      ->add_option("--lang", *lang,
                   "The language the report opens in: de, en or zh (default: the reader's "
                   "browser's; the reader can switch)")
      ->check(CLI::IsMember(
          std::vector<std::string>(exercise::kLanguages.begin(), exercise::kLanguages.end())));
  report_cmd->callback(
      [inputs, output, lang, &exit_code] { exit_code = report(*inputs, *output, *lang); });
}

HtmlReportFn html_report_writer() {
  return [](const std::vector<std::pair<std::string, nlohmann::json>>& runs) {
    std::vector<server::ReportRun> in;
    for (const auto& [name, run] : runs) in.push_back({name, run});
    return server::build_report_html(in);
  };
}

}  // namespace memlab::cli
