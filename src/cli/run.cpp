// `memlab run`: argument parsing and printing. Planning, validation and execution live in
// bench/plan.hpp (shared with the server and the exercise engine); the output files are created
// before any GPU work so that a bad path fails at once.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <set>
#include <utility>

#include "fleet_run.hpp"
#include "memlab/bench/plan.hpp"
#include "memlab/bench/repeat.hpp"
#include "memlab/bench/seed.hpp"
#include "memlab/cli/commands.hpp"
#include "memlab/cli/mpi.hpp"
#include "memlab/cli/non_empty.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/cupti.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/fleet.hpp"
#include "memlab/report/lessons.hpp"
#include "memlab/report/output_file.hpp"
#include "memlab/report/report.hpp"

namespace memlab::cli {
namespace {

struct RunArgs {
  std::vector<std::string> experiments;
  std::string variants;
  std::vector<std::string> axes;
  bool quick = false;
  bool warm = false;
  bool verify_only = false;
  bool variants_given = false;  // -v '' is an error, not "all variants"
  std::string json, csv, md;
  std::set<std::string> given;  // output options given on the command line (even as '')
  std::string seed;
  bool seed_given = false;  // --seed '' is an error, not "a random seed"
  int min_samples = 10;
  double noise = 0.005;
  double budget = 0;  // seconds; only when budget_given (else the mode's default)
  bool budget_given = false;
  int device = 0;
  bool device_given = false;
  std::string devices;  // --devices all|0,2,...: one worker per GPU
  bool devices_given = false;
  int repeat = 1;         // --repeat K: run the plan K times, report run-to-run spread
  bool counters = false;  // --counters: CUPTI counters in a pass of their own (first run only)
};

// The request as the user typed it: split the variant list, parse NAME=V1,V2 and the seed.
bench::RunRequest to_request(const RunArgs& a) {
  bench::RunRequest r;
  r.experiments = a.experiments;
  if (a.variants_given && a.variants.empty()) {
    throw UsageError("-v/--variants: '' names no variant; accepted: NAME or EXPERIMENT:NAME, ...");
  }
  if (!a.variants.empty()) r.variants = bench::split_list(a.variants, "-v/--variants");
  for (const std::string& text : a.axes) r.axes.push_back(bench::parse_axis_override(text));
  r.quick = a.quick;
  r.warm = a.warm;
  r.verify_only = a.verify_only;
  r.counters = a.counters;
  if (a.seed_given) r.seed = bench::parse_seed(a.seed, "--seed");
  r.min_samples = a.min_samples;
  r.noise = a.noise;
  if (a.budget_given) {
    if (!(a.budget > 0 && a.budget <= 600)) {
      throw UsageError(
          fmt::format("--budget: {} is out of range; accepted: seconds in (0, 600]", a.budget));
    }
    r.budget_s = a.budget;
  }
  if (a.repeat < 1 || a.repeat > 100) {
    throw UsageError(fmt::format("--repeat: {} is out of range; accepted: 1..100", a.repeat));
  }
  r.device = a.device;
  return r;
}

struct Outputs {
  report::OutputFile json, csv, md;
};

// Creates the output files now, before any GPU work: a bad path fails at once (exit 2).
Outputs open_outputs(const RunArgs& a) {
  for (const char* option : {"--json", "--csv", "--md"}) {
    const std::string& path = option[2] == 'j' ? a.json : (option[2] == 'c' ? a.csv : a.md);
    if (a.given.count(option) != 0 && path.empty()) {
      throw UsageError(fmt::format("{}: '' is not a file name; accepted: a writable path", option));
    }
  }
  const std::pair<const std::string*, const char*> all[] = {
      {&a.json, "--json"}, {&a.csv, "--csv"}, {&a.md, "--md"}};
  for (std::size_t i = 0; i < 3; ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (!all[i].first->empty() && *all[i].first == *all[j].first) {
        throw UsageError(fmt::format("{}: '{}' is also the {} file; accepted: another file",
                                     all[i].second, *all[i].first, all[j].second));
      }
    }
  }
  Outputs out;
  if (!a.json.empty()) out.json = report::OutputFile(a.json, "--json");
  if (!a.csv.empty()) out.csv = report::OutputFile(a.csv, "--csv");
  if (!a.md.empty()) out.md = report::OutputFile(a.md, "--md");
  return out;
}

int run(const RunArgs& a, const std::string& command_line) {
  adopt_worker_environment();  // a child of --devices: its rank among the workers
  if (a.devices_given) {
    report::parse_devices(a.devices, -1);  // syntax first: '' and '0,0' need no GPU
    if (a.device_given) {
      throw UsageError("--devices: -d/--device names one GPU; give one of the two");
    }
    if (!a.csv.empty() || !a.md.empty()) {
      throw UsageError(fmt::format("--devices: writes the merged run as --json only; drop {}",
                                   a.csv.empty() ? "--md" : "--csv"));
    }
  }
  if (mpi::launched_by_mpirun()) {
    if (a.devices_given) throw UsageError("--devices: under mpirun each rank takes one GPU");
    Outputs outputs;
    bench::RunRequest request = to_request(a);
    // Only rank 0 writes: the others must not create (or truncate) the files.
    const char* rank = std::getenv("OMPI_COMM_WORLD_RANK");
    if (rank == nullptr) rank = std::getenv("PMIX_RANK");
    if (rank == nullptr || std::string(rank) == "0") outputs = open_outputs(a);
    return run_mpi(std::move(request), a.seed_given, outputs.json, command_line);
  }
  const bench::Plan plan = bench::make_plan(to_request(a));
  Outputs outputs = open_outputs(a);
  if (a.devices_given) {
    std::string why;
    const int count = device_count_or_zero(&why);
    if (count == 0) {
      std::cerr << "memlab: no CUDA device (" << why << "); showing the plan only\n";
      std::cout << "plan (verification and timing need a GPU):\n"
                << bench::render_plan(bench::describe(plan));
      return kExitCuda;
    }
    return run_devices(report::parse_devices(a.devices, count), plan, outputs.json, command_line);
  }

  // --counters where they cannot be had: one line, then the run goes on without them.
  bool counters_said = false;
  auto say_counters = [&counters_said](const std::string& reason) {
    if (counters_said) return;
    counters_said = true;
    std::cerr << "memlab: --counters: unavailable (" << reason
              << "); carrying on without counters\n";
  };
  if (a.counters) {
    if (const std::string why = cupti_load_error(); !why.empty()) say_counters(why);
  }

  std::string why;
  if (device_count_or_zero(&why) == 0) {
    std::cerr << "memlab: no CUDA device (" << why << "); showing the plan only\n";
    std::cout << "plan (verification and timing need a GPU):\n"
              << bench::render_plan(bench::describe(plan));
    return kExitCuda;
  }

  const bool tty_err = isatty(STDERR_FILENO) != 0;
  const bool tty_out = isatty(STDOUT_FILENO) != 0;
  bench::ExecuteOptions options;
  options.command_line = command_line;
  options.on_counters_unavailable = say_counters;
  options.on_start = [&](const bench::Context& c) {
    std::cout << report::render_device(c.device, &c);
    std::cout << fmt::format(
        "seed {}; L2 {}; GB/s count useful bytes (each input read once, each "
        "output written once)\n",
        c.seed, a.warm ? "warm (not flushed)" : "flushed before every sample");
  };
  bench::ProgressFn progress;
  if (tty_err) {
    progress = [](const bench::ProgressEvent& e) {
      std::cerr << "\r\x1b[K[memlab] " << bench::format_progress(e) << std::flush;
    };
  }
  bench::RunReport report = bench::execute(plan, options, progress);
  if (a.repeat > 1 && !a.verify_only && !report.cancelled) {
    std::vector<std::vector<bench::Record>> others;
    options.on_start = nullptr;
    bench::Plan again = plan;
    again.counters = false;  // counters once: they do not vary from run to run like times do
    for (int k = 1; k < a.repeat; ++k) {
      others.push_back(bench::execute(again, options, progress).records);
    }
    bench::attach_repeats(report.records, others);
  }
  if (tty_err) std::cerr << "\r\x1b[K" << std::flush;
  std::cout << report::render_table(report, tty_out);
  if (outputs.json.is_open()) outputs.json.write(report::render_run_json(report));
  if (outputs.csv.is_open()) outputs.csv.write(report::render_csv(report));
  if (outputs.md.is_open()) outputs.md.write(report::render_markdown(report));
  if (report.any_failed()) {
    std::cerr << "memlab: verification failed for at least one variant (see 'check' above)\n";
    return kExitVerificationFailed;
  }
  return kExitOk;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code, const std::string& command_line) {
  auto args = std::make_shared<RunArgs>();
  auto* cmd = app.add_subcommand("run", "Verify and time experiments (default: the default suite)");
  cmd->add_option("experiments", args->experiments, "Experiments to run (see `memlab list`)");
  cmd->add_option("-v,--variants", args->variants,
                  "Comma-separated variants (NAME or EXPERIMENT:NAME)")
      ->each([args](const std::string&) { args->variants_given = true; });
  cmd->add_option("-a,--axis", args->axes, "Override an axis: NAME=V1,V2 (repeatable)");
  cmd->add_flag("--quick", args->quick, "Smaller sizes and a shorter time budget");
  cmd->add_flag("--warm", args->warm, "Do not flush the L2 between samples");
  cmd->add_flag("--verify-only", args->verify_only,
                "Check every variant against its reference; time nothing (one launch each)");
  cmd->add_option("--json", args->json, "Write the results as JSON to this file");
  cmd->add_option("--csv", args->csv, "Write the results as CSV to this file");
  cmd->add_option("--md", args->md, "Write the results as markdown to this file");
  for (const char* name : {"--json", "--csv", "--md"}) {
    cmd->get_option(name)->each([args, name](const std::string&) { args->given.insert(name); });
  }
  cmd->add_option("--seed", args->seed, "Seed of the random inputs (default: random, reported)")
      ->each([args](const std::string&) { args->seed_given = true; });
  cmd->add_option("--min-samples", args->min_samples, "Samples at least (>= 10)");
  cmd->add_option("--noise", args->noise,
                  "Stop when the relative standard error of the mean is below this");
  cmd->add_option("--budget", args->budget, "Seconds per measurement once min-samples are taken")
      ->each([args](const std::string&) { args->budget_given = true; });
  cmd->add_option("-d,--device", args->device, "CUDA device ordinal")
      ->each([args](const std::string&) { args->device_given = true; });
  cmd->add_option("--devices", args->devices,
                  "Run on each of these GPUs (all, or 0,2,...): one worker process per GPU, one "
                  "merged JSON, a fleet summary naming the slowest GPU")
      ->each([args](const std::string&) { args->devices_given = true; });
  cmd->add_flag("--counters", args->counters,
                "Hardware counters per variant (CUPTI; DRAM bytes, sectors and bank wavefronts "
                "its model predicts) in a pass that is never timed");
  cmd->add_option("--repeat", args->repeat,
                  "Run the whole plan K times; report each record's run-to-run spread (1..100)");
  for (const char* name : {"--min-samples", "--noise", "--budget", "--repeat", "--device"}) {
    cmd->get_option(name)->check(non_empty());
  }
  cmd->callback([args, &exit_code, command_line] { exit_code = run(*args, command_line); });
}

}  // namespace memlab::cli
