// `memlab serve` and `memlab report`. report: src/server/commands.cpp (memlab_web_content, no
// HTTP library). serve: src/server/serve_command.cpp in the memlab-serve executable (which links
// cpp-httplib), src/server/serve_exec.cpp in `memlab` (which runs memlab-serve beside it). Built
// without the web lab (-DMEMLAB_WEB=OFF) both exist and exit 2 saying so (commands_off.cpp).
#pragma once

#include "memlab/cli/commands.hpp"

namespace CLI {
class App;
}

namespace memlab::cli {

void add_web_commands(CLI::App& app, int& exit_code);

// What `memlab report` writes, for `memlab run --report F.html`; empty without the web lab.
HtmlReportFn html_report_writer();

// The `serve` subcommand (called by add_web_commands): the server itself in memlab-serve, a
// stand-in listed by --help in `memlab`.
void add_serve_command(CLI::App& app, int& exit_code);
// `memlab class init|teacher-token` (src/server/class_command.cpp in memlab-serve; a stand-in in
// `memlab` that execs memlab-serve, as serve does). Called by add_serve_command.
void add_class_command(CLI::App& app, int& exit_code);

// main() calls it for `memlab serve ...` and `memlab class ...` before parsing: in `memlab` it
// execs memlab-serve beside the binary with the same arguments and returns only when that fails
// (the exit code, 2, after one line naming what is missing); -1 where this binary serves
// (memlab-serve, a build without the web lab): parse as usual.
int serve_elsewhere(int argc, char** argv);

}  // namespace memlab::cli
