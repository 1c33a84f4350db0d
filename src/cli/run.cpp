// `memlab run`: resolve experiments, variants and axes; check every input before touching the
// device; then verify and time on the GPU and write the reports.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <set>

#include "memlab/bench/experiment.hpp"
#include "memlab/bench/repeat.hpp"
#include "memlab/bench/runner.hpp"
#include "memlab/bench/seed.hpp"
#include "memlab/cli/commands.hpp"
#include "memlab/cli/non_empty.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/report.hpp"
#include "memlab/version.hpp"

namespace memlab::cli {
namespace {

struct RunArgs {
  std::vector<std::string> experiments;
  std::string variants;
  bool variants_given = false;  // -v '' is an error, not "all variants"
  std::vector<std::string> axes;
  bool quick = false;
  bool warm = false;
  bool verify_only = false;
  std::string json, csv, md;
  std::set<std::string> given;  // output options given on the command line (even as '')
  std::string seed;
  bool seed_given = false;  // --seed '' is an error, not "a random seed"
  int min_samples = 10;
  double noise = 0.005;
  double budget = 0;  // seconds; only when budget_given (else the mode's default)
  bool budget_given = false;
  int device = 0;
  int repeat = 1;  // --repeat K: run the plan K times, report run-to-run spread
};

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string all_names() {
  std::string s;
  for (const auto& e : bench::experiments()) s += (s.empty() ? "" : ", ") + e.name;
  return s;
}

void write_file(const std::string& path, const std::string& text, const char* option) {
  std::ofstream f(path);
  if (!f) throw UsageError(fmt::format("{}: cannot open '{}' for writing", option, path));
  f << text;
  if (!f) throw UsageError(fmt::format("{}: cannot write '{}'", option, path));
}

// An output path must be writable before anything runs: a long run must not end in "cannot
// write". Checks the folder (exists, writable) and that the path is not a folder.
void check_writable(const std::string& path, const char* option) {
  if (path.empty()) {
    throw UsageError(fmt::format("{}: '' is not a file name; accepted: a writable path", option));
  }
  const std::filesystem::path p(path);
  std::error_code ec;
  if (std::filesystem::is_directory(p, ec)) {
    throw UsageError(
        fmt::format("{}: '{}' is a folder; accepted: a writable file path", option, path));
  }
  const std::filesystem::path dir = p.has_parent_path() ? p.parent_path() : ".";
  if (!std::filesystem::is_directory(dir, ec) || access(dir.c_str(), W_OK) != 0 ||
      (std::filesystem::exists(p, ec) && access(p.c_str(), W_OK) != 0)) {
    throw UsageError(
        fmt::format("{}: cannot write '{}'; accepted: a path in an existing, "
                    "writable folder",
                    option, path));
  }
}

// Everything that can be checked without a device: experiments, variants, axes, values.
std::vector<bench::Plan> make_plans(const RunArgs& a) {
  std::vector<const bench::Experiment*> selected;
  if (a.experiments.empty()) {
    for (const auto& e : bench::experiments()) {
      if (e.in_default_suite) selected.push_back(&e);
    }
  } else {
    for (const std::string& name : a.experiments) {
      if (std::count(a.experiments.begin(), a.experiments.end(), name) > 1) {
        throw UsageError(
            fmt::format("experiment: '{}' is given twice; accepted: each experiment once", name));
      }
      const bench::Experiment* e = bench::find_experiment(name);
      if (e == nullptr) {
        throw UsageError(
            fmt::format("experiment: '{}' is unknown; accepted: {}", name, all_names()));
      }
      selected.push_back(e);
    }
  }
  // Variant filter: "name" or "experiment:name".
  std::vector<std::string> filter;
  if (a.variants_given) filter = bench::split_list(a.variants, "-v/--variants");
  for (const std::string& f : filter) {
    if (std::count(filter.begin(), filter.end(), f) > 1) {
      throw UsageError(
          fmt::format("-v/--variants: '{}' is given twice; accepted: each variant once", f));
    }
    bool found = false;
    std::string accepted;
    for (const auto* e : selected) {
      for (const auto& v : e->variants) {
        accepted += (accepted.empty() ? "" : ", ") + v.name;
        if (f == v.name || f == e->name + ":" + v.name) found = true;
      }
    }
    if (!found) {
      throw UsageError(
          fmt::format("-v/--variants: '{}' is not a variant of the selected "
                      "experiments; accepted: {}",
                      f, accepted));
    }
  }
  // Axis overrides: each axis must belong to at least one selected experiment.
  std::map<std::string, std::vector<std::string>> overrides;
  for (const std::string& text : a.axes) {
    auto [name, values] = bench::parse_axis_override(text);
    bool known = false;
    std::string accepted;
    for (const auto* e : selected) {
      for (const auto& axis : e->axes) {
        accepted += (accepted.empty() ? "" : ", ") + axis.name;
        if (axis.name == name) known = true;
      }
    }
    if (!known) {
      throw UsageError(
          fmt::format("-a/--axis: '{}' is not an axis of the selected experiments; "
                      "accepted: {}",
                      name, accepted.empty() ? "(none)" : accepted));
    }
    if (overrides.count(name) != 0) {
      throw UsageError(
          fmt::format("-a/--axis: '{}' given twice; give all values at once: "
                      "{}=V1,V2",
                      name, name));
    }
    overrides[name] = values;
  }
  std::vector<bench::Plan> plans;
  for (const auto* e : selected) {
    bench::Plan p;
    p.experiment = e;
    for (const auto& v : e->variants) {
      const bool keep =
          filter.empty() || std::any_of(filter.begin(), filter.end(), [&](const std::string& f) {
            return f == v.name || f == e->name + ":" + v.name;
          });
      if (keep) p.variants.push_back(&v);
    }
    if (p.variants.empty()) continue;
    p.points = bench::expand_axes(e->axes, overrides, a.quick);
    if (e->validate) {
      for (const auto& point : p.points) e->validate(point);
    }
    plans.push_back(std::move(p));
  }
  return plans;
}

void print_plan(const std::vector<bench::Plan>& plans) {
  std::cout << "plan (verification and timing need a GPU):\n";
  for (const auto& p : plans) {
    const auto& e = *p.experiment;
    std::cout << fmt::format("  {}: {}\n", e.name, e.summary);
    if (!e.bytes_convention.empty()) std::cout << "    bytes: " << e.bytes_convention << "\n";
    for (const auto& point : p.points) {
      const double ws = e.footprint ? e.footprint(point) : 0.0;
      std::cout << fmt::format("    {}  (device memory {})\n", point.label(),
                               bench::format_bytes(ws));
      for (const auto* v : p.variants) {
        if (!v->applies_to(point)) continue;
        const double bytes = v->bytes ? v->bytes(point) : (e.bytes ? e.bytes(point) : 0.0);
        std::string line =
            fmt::format("      {:<22} useful bytes {}", v->name, bench::format_bytes(bytes));
        if (v->predict) {
          try {
            if (auto pred = v->predict(point)) line += "; model: " + pred->model;
          } catch (const CudaError&) {
            line += "; model: needs the GPU";
          }
        }
        std::cout << line << "\n";
      }
    }
  }
}

int run(const RunArgs& a, const std::string& command_line) {
  if (a.min_samples < 10 || a.min_samples > 100000) {
    throw UsageError(
        fmt::format("--min-samples: {} is out of range; accepted: 10..100000", a.min_samples));
  }
  if (!(a.noise > 0 && a.noise < 1)) {
    throw UsageError(
        fmt::format("--noise: {} is out of range; accepted: a fraction in (0, 1), "
                    "e.g. 0.005",
                    a.noise));
  }
  if (a.budget_given && !(a.budget > 0 && a.budget <= 600)) {
    throw UsageError(
        fmt::format("--budget: {} is out of range; accepted: seconds in (0, 600]", a.budget));
  }
  if (a.repeat < 1 || a.repeat > 100) {
    throw UsageError(fmt::format("--repeat: {} is out of range; accepted: 1..100", a.repeat));
  }
  std::uint64_t seed = 0;
  if (!a.seed_given) {
    seed = (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
  } else {
    seed = bench::parse_seed(a.seed, "--seed");
  }
  if (a.device < 0) {
    throw UsageError(
        fmt::format("-d/--device: {} is not accepted; accepted: a device ordinal >= 0", a.device));
  }
  if (a.given.count("--json") != 0) check_writable(a.json, "--json");
  if (a.given.count("--csv") != 0) check_writable(a.csv, "--csv");
  if (a.given.count("--md") != 0) check_writable(a.md, "--md");
  const std::vector<bench::Plan> plans = make_plans(a);
  if (plans.empty()) throw UsageError("-v/--variants: no variant of the selected experiments left");

  std::string why;
  const int count = device_count_or_zero(&why);
  if (count == 0) {
    std::cerr << "memlab: no CUDA device (" << why << "); showing the plan only\n";
    print_plan(plans);
    return kExitCuda;
  }
  if (a.device >= count) {
    throw UsageError(
        fmt::format("--device: {} does not exist; accepted: 0..{}", a.device, count - 1));
  }
  MEMLAB_CUDA_CHECK(cudaSetDevice(a.device));
  const DeviceInfo device = query_device(a.device);

  // Memory: the largest point of any plan, plus the L2 flush buffer and the memcpy ceiling.
  std::size_t free_bytes = 0, total_bytes = 0;
  MEMLAB_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const double flush = a.warm ? 0.0 : 2.0 * static_cast<double>(device.l2_bytes);
  std::size_t ceiling_bytes = std::size_t{1} << 30;
  while (ceiling_bytes > (std::size_t{64} << 20) &&
         2.0 * static_cast<double>(ceiling_bytes) + flush > 0.5 * static_cast<double>(free_bytes)) {
    ceiling_bytes /= 2;
  }
  for (const auto& p : plans) {
    for (const auto& point : p.points) {
      const double need = (p.experiment->footprint ? p.experiment->footprint(point) : 0.0) + flush;
      if (need > 0.95 * static_cast<double>(free_bytes)) {
        throw UsageError(
            fmt::format("axis {} of {}: needs {} of device memory, {} is free; "
                        "accepted: smaller sizes",
                        point.label(), p.experiment->name, bench::format_bytes(need),
                        bench::format_bytes(static_cast<double>(free_bytes))));
      }
    }
  }

  const bool tty_err = isatty(STDERR_FILENO) != 0;
  const bool tty_out = isatty(STDOUT_FILENO) != 0;
  bench::RunOptions options;
  options.seed = seed;
  options.measure.min_samples = a.min_samples;
  options.measure.noise = a.noise;
  options.measure.budget_s = a.budget_given ? a.budget : (a.quick ? 0.05 : 0.3);
  options.measure.flush_l2 = !a.warm && !a.verify_only;
  options.verify_only = a.verify_only;
  if (tty_err) {
    options.progress = [](const std::string& msg) {
      std::cerr << "\r\x1b[K[memlab] " << msg << std::flush;
    };
  }

  bench::RunReport report;
  bench::Context& c = report.context;
  c.device = device;
  c.tool_version = kVersion;
  c.git_commit = kGitCommit;
  c.date = utc_now();
  c.seed = seed;
  c.cold = !a.warm;
  c.quick = a.quick;
  c.command_line = command_line;
  if (auto clocks = read_live_clocks(device)) {
    c.sm_clock_mhz_start = clocks->sm_mhz;
    c.mem_clock_mhz_start = clocks->mem_mhz;
    c.pcie_gen = clocks->pcie_gen;
    c.pcie_width = clocks->pcie_width;
  }
  std::cout << report::render_device(device, &c);
  std::cout << fmt::format(
      "seed {}; L2 {}; GB/s count useful bytes (each input read once, each "
      "output written once)\n",
      seed, a.warm ? "warm (not flushed)" : "flushed before every sample");

  bench::Runner runner(device, options);
  if (!a.verify_only) report.memcpy_d2d = runner.measure_memcpy_ceiling(ceiling_bytes);
  for (const auto& p : plans) {
    auto records = runner.run(p);
    for (auto& r : records) report.records.push_back(std::move(r));
  }
  if (a.repeat > 1 && !a.verify_only) {
    std::vector<std::vector<bench::Record>> others;
    for (int k = 1; k < a.repeat; ++k) {
      std::vector<bench::Record>& run_k = others.emplace_back();
      for (const auto& p : plans) {
        for (auto& r : runner.run(p)) run_k.push_back(std::move(r));
      }
    }
    bench::attach_repeats(report.records, others);
  }
  if (tty_err) std::cerr << "\r\x1b[K" << std::flush;
  if (auto clocks = read_live_clocks(device)) {
    c.sm_clock_mhz_end = clocks->sm_mhz;
    c.mem_clock_mhz_end = clocks->mem_mhz;
  }
  std::cout << report::render_table(report, tty_out);
  if (!a.json.empty()) write_file(a.json, report::render_json(report), "--json");
  if (!a.csv.empty()) write_file(a.csv, report::render_csv(report), "--csv");
  if (!a.md.empty()) write_file(a.md, report::render_markdown(report), "--md");
  if (runner.any_failed()) {
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
  cmd->add_option("-d,--device", args->device, "CUDA device ordinal");
  cmd->add_option("--repeat", args->repeat,
                  "Run the whole plan K times; report each record's run-to-run spread (1..100)");
  for (const char* name : {"--min-samples", "--noise", "--budget", "--repeat", "--device"}) {
    cmd->get_option(name)->check(non_empty());
  }
  cmd->callback([args, &exit_code, command_line] { exit_code = run(*args, command_line); });
}

}  // namespace memlab::cli
