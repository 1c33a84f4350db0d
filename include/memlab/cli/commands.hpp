// The memlab subcommands. Each adds itself to the CLI11 app; its callback sets `exit_code`.
// UsageError escapes to main (exit 2), CudaError too (exit 3).
#pragma once

#include <string>

namespace CLI {
class App;
}

namespace memlab::cli {

void add_info_command(CLI::App& app, int& exit_code);
void add_list_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code, const std::string& command_line);
void add_compare_command(CLI::App& app, int& exit_code);
void add_claims_command(CLI::App& app, int& exit_code);
void add_exercise_command(CLI::App& app, int& exit_code);

}  // namespace memlab::cli
