// `memlab serve` itself, in the memlab-serve executable (it links memlab_server and with it
// cpp-httplib). The plain `memlab` has serve_exec.cpp instead, which runs this binary.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <iostream>
#include <memory>

#include "memlab/cli/web_commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/server/server.hpp"

namespace memlab::cli {
namespace {

namespace fs = std::filesystem;

int serve(server::ServerOptions o, bool results_given) {
  if (!results_given && fs::is_directory("docs/results")) o.results_dir = "docs/results";
  if (!o.results_dir.empty() && !fs::is_directory(o.results_dir)) {
    throw UsageError(fmt::format("--results: '{}' is not a directory", o.results_dir));
  }
  if (!o.class_dir.empty()) o.threads = std::max(o.threads, 32);  // a room of browsers
  server::Server s(o);
  s.bind();
  if (!o.class_dir.empty()) {
    std::cout << "memlab serve: the class lab (" << o.class_dir << ") is at\n\n    " << s.url()
              << "\n\nEveryone opens their own URL (memlab class init printed the teacher's; "
                 "learners join with the class code); Ctrl-C stops the server\n"
              << std::flush;
    s.listen();
    return kExitOk;
  }
  std::cout << "memlab serve: the web lab is at\n\n    " << s.url() << "\n\n"
            << (o.results_dir.empty() ? std::string("no results folder (--results DIR)")
                                      : "results from " + o.results_dir)
            << "; Ctrl-C stops the server\n"
            << std::flush;
  s.listen();
  return kExitOk;
}

}  // namespace

// This binary serves: `serve` is parsed here. The exercise worker the server starts is this
// executable too (ServerOptions::memlab_exe empty: /proc/self/exe, which has exercise-worker).
int serve_elsewhere(int /*argc*/, char** /*argv*/) {
  return -1;
}

void add_serve_command(CLI::App& app, int& exit_code) {
  auto o = std::make_shared<server::ServerOptions>();
  auto* serve_cmd = app.add_subcommand(
      "serve", "The web lab in the browser: explainers, lessons, results, runs (loopback only)");
  serve_cmd->add_option("--host", o->host, "Address to listen on; not loopback needs --token")
      ->capture_default_str();
  serve_cmd->add_option("--port", o->port, "Port (0: any free port)")->capture_default_str();
  auto* results = serve_cmd->add_option(
      "--results", o->results_dir, "Folder of run JSON files (default: docs/results if present)");
  serve_cmd->add_option("--token", o->token,
                        "Token guarding runs and code (default: 32 random bytes, printed)");
  serve_cmd->add_option("--class", o->class_dir,
                        "A class lab: DIR holds class.db (memlab class init DIR --name NAME)");
  serve_cmd
      ->add_option("--max-queued-checks", o->max_queued_checks,
                   "Class lab: checks a learner may have waiting")
      ->capture_default_str()
      ->check(CLI::Range(1, 50));
  serve_cmd
      ->add_option("--checks-per-minute", o->checks_per_minute,
                   "Class lab: a learner's rate limit (burst 5)")
      ->capture_default_str()
      ->check(CLI::Range(1.0, 600.0));
  serve_cmd
      ->add_option("--check-timeout", o->check_timeout_s,
                   "Seconds a check's worker may run (0: 60 in a class, 240 alone)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 600.0));
  serve_cmd->callback([o, results, &exit_code] { exit_code = serve(*o, results->count() > 0); });
  add_class_command(app, exit_code);
}

}  // namespace memlab::cli
