// Diagnosis runs: the worker again under compute-sanitizer, on one small point, verify only.
#include "exercise/diagnose.hpp"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "exercise/plan.hpp"
#include "exercise/process.hpp"
#include "memlab/exercise/diagnosis.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t kLogLimit = 4 << 20;       // what is parsed of one tool's log
constexpr std::size_t kOutputLimit = 64 * 1024;  // the worker's own stdout/stderr
constexpr std::size_t kRawKept = 6 * 1024;       // of each log, kept in the JSON

bool executable(const fs::path& p) {
  struct stat st {};
  return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(p.c_str(), X_OK) == 0;
}

std::string read_capped(const fs::path& p, std::size_t limit) {
  std::ifstream in(p, std::ios::binary);
  std::string s(limit, '\0');
  in.read(s.data(), static_cast<std::streamsize>(limit));
  s.resize(static_cast<std::size_t>(in.gcount()));
  return s;
}

bool contains_word(const std::string& s, const std::string& w) {
  std::size_t pos = 0;
  while ((pos = s.find(w, pos)) != std::string::npos) {
    const std::size_t end = pos + w.size();
    const auto ident = [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
    };
    if ((pos == 0 || !ident(s[pos - 1])) && (end >= s.size() || !ident(s[end]))) return true;
    pos = end;
  }
  return false;
}

double size_of(const bench::Params& p) {
  double s = 1;
  for (const auto& [k, v] : p.values()) {
    if (!v.empty() && v.find_first_not_of("0123456789") == std::string::npos) s *= std::stod(v);
  }
  return s;
}

std::string verdict_of(const fs::path& events) {
  std::ifstream in(events);
  std::string line, status;
  while (std::getline(in, line)) {
    const json j = json::parse(line, nullptr, false);
    if (!j.is_discarded() && j.value("event", "") == "result") status = j.value("status", "");
  }
  return status;
}

std::vector<std::pair<std::string, std::string>> kernel_params(const Exercise& e) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const json& p : e.spec.at("kernel").at("params")) {
    out.emplace_back(p.at("type").get<std::string>(), p.at("name").get<std::string>());
  }
  return out;
}

}  // namespace

std::string find_sanitizer(const std::string& explicit_path) {
  if (!explicit_path.empty()) return executable(explicit_path) ? explicit_path : std::string();
  std::vector<std::string> dirs;
  if (const char* path = std::getenv("PATH")) {
    std::stringstream ss(path);
    std::string d;
    while (std::getline(ss, d, ':')) {
      if (!d.empty()) dirs.push_back(d);
    }
  }
  dirs.push_back("/usr/local/cuda/bin");
  for (const std::string& d : dirs) {
    const fs::path p = fs::path(d) / "compute-sanitizer";
    if (executable(p)) return p.string();
  }
  return {};
}

bool wants_diagnosis(const std::string& status, bool sanitize) {
  if (status == "wrong_result" || status == "cuda_error" || status == "crash" ||
      status == "sanitizer")
    return true;
  return sanitize && (status == "passed" || status == "target_missed");
}

std::vector<std::string> diagnosis_tools(const std::string& status, bool sanitize,
                                         const std::string& source) {
  std::vector<std::string> tools;
  if (source.find("__shared__") != std::string::npos) tools.push_back("racecheck");
  const bool barrier =
      contains_word(source, "__syncthreads") || contains_word(source, "__syncthreads_count") ||
      contains_word(source, "__syncthreads_and") || contains_word(source, "__syncthreads_or") ||
      contains_word(source, "__syncwarp") || source.find("bar.sync") != std::string::npos ||
      source.find("barrier.sync") != std::string::npos ||
      source.find(".sync()") != std::string::npos ||
      contains_word(source, "sync");  // cooperative_groups::sync(block)
  if (barrier) tools.push_back("synccheck");
  if (status == "cuda_error" || status == "crash" || status == "sanitizer" || sanitize ||
      tools.empty())
    tools.push_back("memcheck");
  return tools;
}

DiagnosisPoint choose_diagnosis_point(const std::vector<PointOutcome>& points) {
  const PointOutcome* best = nullptr;
  for (const PointOutcome& p : points) {
    if (p.ok == 0 && (best == nullptr || p.size < best->size)) best = &p;
  }
  if (best != nullptr) return {best->label, "the smallest failing test point", "smallest_failing"};
  for (const PointOutcome& p : points) {
    if (best == nullptr || p.size < best->size) best = &p;
  }
  if (best == nullptr) return {};
  return {best->label,
          "the smallest test point (no test point failed: the sanitizers look for "
          "hazards whether or not this run's result came out wrong)",
          "smallest"};
}

json diagnose(const DiagnoseRun& run) {
  const CheckOptions& o = run.options;
  const std::string status = run.result.value("status", "");
  if (!o.diagnose || !wants_diagnosis(status, o.sanitize)) return json();
  json d = {{"ran", false},
            {"tool_runs", json::array()},
            {"hazards", json::array()},
            {"sentences", json::array()}};
  const std::string sanitizer = find_sanitizer(o.sanitizer);
  if (sanitizer.empty()) {
    d["reason"] = o.sanitizer.empty()
                      ? "no diagnosis ran: compute-sanitizer not found (PATH, /usr/local/cuda/bin)"
                      : fmt::format(
                            "no diagnosis ran: compute-sanitizer not found ({} is not an "
                            "executable file)",
                            o.sanitizer);
    return d;
  }
  // The point: the smallest failing test point the worker saw (a CUDA error or a crash fails the
  // point it was verifying when it came, which has no "point" event).
  const Plan plan = make_plan(run.exercise);
  std::map<std::string, int> seen;
  for (const json& p : run.result.value("points", json::array())) {
    seen[p.value("point", "")] = p.value("ok", false) ? 1 : 0;
  }
  const std::string verifying = "verifying at ";
  std::string dying;
  if ((status == "cuda_error" || status == "crash") && run.last_phase.rfind(verifying, 0) == 0)
    dying = run.last_phase.substr(verifying.size());
  std::vector<PointOutcome> outcomes;
  for (const PlannedPoint& pp : plan.points) {
    const std::string label = pp.params.label();
    int ok = seen.count(label) != 0 ? seen[label] : -1;
    if (label == dying && ok == -1) ok = 0;
    outcomes.push_back({label, size_of(pp.params), ok});
  }
  const DiagnosisPoint point = choose_diagnosis_point(outcomes);
  if (point.label.empty()) {
    d["reason"] = "no diagnosis ran: the exercise has no test point";
    return d;
  }
  d["point"] = point.label;
  d["point_why"] = point.why;
  d["point_reason"] = point.reason;
  DiagnosisSource src{run.source, o.file_name, {1, 1, 1}, kernel_params(run.exercise)};
  for (const PlannedPoint& pp : plan.points) {
    if (pp.params.label() == point.label) {
      src.block = {pp.launch.block[0], pp.launch.block[1], pp.launch.block[2]};
    }
  }

  std::vector<SanitizerRecord> records;
  std::vector<std::string> tools = diagnosis_tools(status, o.sanitize, run.source);
  // --sanitize already ran every test point under memcheck: read that output, do not run it again.
  if (run.result.contains("sanitizer") && run.result.contains("output")) {
    std::erase(tools, std::string("memcheck"));
    const SanitizerReport rep =
        parse_sanitizer_output("memcheck", run.result["output"].get<std::string>());
    records.insert(records.end(), rep.records.begin(), rep.records.end());
    const json& w = run.result.value("worker", json::object());
    d["tool_runs"].push_back({{"tool", "memcheck"},
                              {"point", "every test point (--sanitize)"},
                              {"exit", w.value("exit_status", 0)},
                              {"wall_s", w.value("wall_s", 0.0)},
                              {"records", rep.records.size()}});
  }
  const double kernel_limit = std::max(o.kernel_timeout_s, 0.75 * o.diagnosis_timeout_s);
  const auto t0 = std::chrono::steady_clock::now();
  for (const std::string& tool : tools) {
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    json tr = {{"tool", tool}, {"point", point.label}};
    if (spent > 2 * o.diagnosis_timeout_s) {
      tr["skipped"] = fmt::format("the diagnosis had run {:.0f} s already", spent);
      d["tool_runs"].push_back(tr);
      continue;
    }
    const fs::path sub = run.dir / ("diagnose-" + tool);
    std::error_code ec;
    fs::create_directories(sub, ec);
    const json request = {{"exercise", run.exercise.name},
                          {"source", run.source},
                          {"file_name", o.file_name},
                          {"kernel_timeout_s", kernel_limit},
                          {"measure", false},
                          {"points", json::array({point.label})}};
    { std::ofstream(sub / "request.json") << request.dump(); }
    const fs::path log = sub / "sanitizer.log";
    std::vector<std::string> argv = {sanitizer, "--tool",           tool,        "--print-limit",
                                     "200",     "--show-backtrace", "device",    "--error-exitcode",
                                     "86",      "--log-file",       log.string()};
    if (tool == "racecheck") {
      argv.insert(argv.begin() + 3, {"--racecheck-report", "all"});
    }
    argv.insert(argv.end(), {run.worker, "exercise-worker", sub.string()});
    const ProcessResult p =
        run_process(argv, (sub / "request.json").string(), o.diagnosis_timeout_s, kOutputLimit);
    const std::string text = read_capped(log, kLogLimit);
    SanitizerReport rep = parse_sanitizer_output(tool, text + "\n" + p.output);
    tr["exit"] = p.exited ? p.exit_status : -p.signal;
    tr["wall_s"] = p.wall_s;
    tr["timed_out"] = p.timed_out;
    tr["records"] = rep.records.size();
    if (!p.started) tr["error"] = p.start_error;
    if (!rep.tool_errors.empty()) tr["tool_errors"] = rep.tool_errors;
    if (const std::string v = verdict_of(sub / "events.jsonl"); !v.empty()) tr["worker_status"] = v;
    tr["output"] = text.size() > kRawKept ? text.substr(0, kRawKept) + "\n[cut]" : text;
    if (text.empty() && !p.output.empty()) {
      tr["output"] = p.output.size() > kRawKept ? p.output.substr(0, kRawKept) : p.output;
    }
    records.insert(records.end(), rep.records.begin(), rep.records.end());
    d["tool_runs"].push_back(tr);
  }
  d["ran"] = true;
  d["hazards"] = findings_json(records, src);
  for (const json& f : d["hazards"]) d["sentences"].push_back(f.value("sentence", ""));
  std::vector<std::string> names;
  bool incomplete = false;
  for (const json& tr : d["tool_runs"]) {
    names.push_back(tr.value("tool", ""));
    incomplete = incomplete || tr.value("timed_out", false) || tr.contains("skipped") ||
                 tr.contains("error") || tr.contains("tool_errors");
  }
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i) {
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  if (d["hazards"].empty()) {
    d["reason"] = fmt::format("{} at {} ({}) found nothing{}", list, point.label, point.why,
                              incomplete ? "; a run did not complete (see tool_runs)" : "");
  } else {
    d["reason"] = fmt::format("{} at {} ({})", list, point.label, point.why);
  }
  return d;
}

}  // namespace memlab::exercise
