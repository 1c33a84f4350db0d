// `memlab serve` and `memlab report` (src/server/commands.cpp). Built without the web lab
// (-DMEMLAB_WEB=OFF) both exist and exit 2 saying so (src/server/commands_off.cpp).
#pragma once

#include "memlab/cli/commands.hpp"

namespace CLI {
class App;
}

namespace memlab::cli {

void add_web_commands(CLI::App& app, int& exit_code);

// What `memlab report` writes, for `memlab run --report F.html`; empty without the web lab.
HtmlReportFn html_report_writer();

}  // namespace memlab::cli
