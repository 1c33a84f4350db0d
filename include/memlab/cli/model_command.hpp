// `memlab model <coalescing|banks|tiling|timeline|roofline|occupancy> [params] [--json]`:
// the host-only analytical models of include/memlab/model, as tables and ASCII pictures.
#pragma once

namespace CLI {
class App;
}  // namespace CLI

namespace memlab::cli {

// Adds the `model` subcommand and its six sub-subcommands to `app`. Each prints its result to
// stdout (a table and a picture, or JSON with --json) when the command line is parsed and sets
// exit_code to 0. A memlab::UsageError from a model propagates out of app.parse().
void add_model_command(CLI::App& app, int& exit_code);

}  // namespace memlab::cli
