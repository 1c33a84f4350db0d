// `memlab serve` and `memlab report` in a build without the web lab (-DMEMLAB_WEB=OFF).
#include <CLI/CLI.hpp>

#include "memlab/cli/web_commands.hpp"
#include "memlab/common/error.hpp"

namespace memlab::cli {

void add_web_commands(CLI::App& app, int& exit_code) {
  for (const char* name : {"serve", "report"}) {
    auto* cmd = app.add_subcommand(name, "(not in this build: built without the web lab)");
    cmd->allow_extras();
    cmd->callback([&exit_code, name] {
      exit_code = kExitUsage;
      throw UsageError(std::string(name) +
                       ": built without the web lab (MEMLAB_WEB=OFF); reconfigure with "
                       "-DMEMLAB_WEB=ON (needs node and npm)");
    });
  }
}

int serve_elsewhere(int /*argc*/, char** /*argv*/) {
  return -1;
}

HtmlReportFn html_report_writer() {
  return {};
}

}  // namespace memlab::cli
