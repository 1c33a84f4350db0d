// memlab: the command line. Thin: subcommands live in src/cli/.
#include <CLI/CLI.hpp>
#include <iostream>
#include <string>

#include "memlab/cli/commands.hpp"
#include "memlab/cli/errors.hpp"
#include "memlab/cli/model_command.hpp"
#include "memlab/cli/web_commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"
#include "memlab/version.hpp"

int main(int argc, char** argv) {
  // The exercise engine's worker process (hidden; started by `memlab exercise check`).
  if (argc >= 2 && std::string(argv[1]) == "exercise-worker") {
    return memlab::exercise::worker_main(argc, argv);
  }
  // `memlab serve`: the plain binary links no HTTP library and runs memlab-serve beside it (this
  // same main, linked with the server); memlab-serve parses it here.
  if (argc >= 2 && (std::string(argv[1]) == "serve" || std::string(argv[1]) == "class")) {
    if (const int code = memlab::cli::serve_elsewhere(argc, argv); code >= 0) return code;
  }
  std::string command_line;
  for (int i = 0; i < argc; ++i) command_line += (i ? " " : "") + std::string(argv[i]);

  CLI::App app{"memlab: the GPU memory hierarchy, implemented, verified and measured"};
  app.set_version_flag("--version",
                       std::string(memlab::kVersion) + " (" + memlab::kGitCommit + ")");
  app.require_subcommand(1);
  int exit_code = memlab::kExitOk;
  memlab::cli::add_info_command(app, exit_code);
  memlab::cli::add_list_command(app, exit_code);
  memlab::cli::add_run_command(app, exit_code, command_line, memlab::cli::html_report_writer());
  memlab::cli::add_summary_command(app, exit_code);
  memlab::cli::add_model_command(app, exit_code);
  memlab::cli::add_compare_command(app, exit_code);
  memlab::cli::add_claims_command(app, exit_code);
  memlab::cli::add_exercise_command(app, exit_code);
  memlab::cli::add_web_commands(app, exit_code);
  // An unknown first word names itself (CLI11 would say only "A subcommand is required").
  const std::string first = argc > 1 ? argv[1] : "";
  if (argc > 1 && first != "-h" && first != "--help" && first != "--version") {
    std::string known;
    bool found = false;
    for (const CLI::App* sub : app.get_subcommands({})) {
      known += (known.empty() ? "" : ", ") + sub->get_name();
      found = found || sub->get_name() == first;
    }
    if (!found) {
      std::cerr << "memlab: '" << first << "' is not "
                << (!first.empty() && first[0] == '-' ? "an option" : "a command")
                << "; accepted: " << known << ", --help, --version (see memlab --help)\n";
      return memlab::kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (...) {
    return memlab::cli::report_error(std::current_exception(), std::cerr);
  }
  return exit_code;
}
