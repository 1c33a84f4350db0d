// `memlab exercise list | show NAME | start NAME [-o FILE.cu] | check NAME FILE.cu [--json F]
// [--sanitize] | quiz NAME`: the practice front end over src/exercise/.
#include <fmt/format.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>

#include "memlab/cli/commands.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"
#include "memlab/report/output_file.hpp"

namespace memlab::cli {
namespace {

using nlohmann::json;
namespace ex = memlab::exercise;

struct Args {
  std::string name, file, output, json_file, answers, lang = "en";
  bool sanitize = false, json_stdout = false, no_measure = false;
  bool json_given = false;  // --json '' is an error, not "no file"
  double timeout = 10;
};

std::string read_file(const std::string& path, const std::string& what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError(fmt::format("{}: cannot read {}", what, path));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string lang_text(const json& j, const std::string& lang) {
  return j.contains(lang) ? j[lang].get<std::string>() : j.value("en", std::string());
}

void list(const Args& a) {
  for (const json& e : ex::list_json()) {
    std::cout << fmt::format("{:<24} {:<15} {}\n{:<24} {:<15} target: {}\n",
                             e["name"].get<std::string>(), e["lesson"].get<std::string>(),
                             lang_text(e["title"], a.lang), "", "", lang_text(e["target"], a.lang));
  }
}

void show(const Args& a) {
  const ex::Exercise& e = ex::get(a.name);
  std::cout << e.statement(a.lang) << "\n";
  std::cout << "Signature: " << e.signature() << "\n";
  const json plan = ex::plan_json(e);
  std::cout << "Test points and launches:\n";
  for (const json& p : plan["points"]) {
    std::cout << fmt::format("  {:<40} {}\n", p["point"].get<std::string>(), p["launch"].dump());
  }
  std::cout << fmt::format("Measured at {} {}\n", plan["measure"]["point"].get<std::string>(),
                           plan["measure"]["launch"].dump());
  std::cout << "Target: " << lang_text(e.spec["target"]["text"], a.lang) << "\n";
  int i = 1;
  for (const json& h :
       e.spec["hints"].contains(a.lang) ? e.spec["hints"][a.lang] : e.spec["hints"]["en"]) {
    std::cout << fmt::format("Hint {}: {}\n", i++, h.get<std::string>());
  }
}

void start(const Args& a) {
  const ex::Exercise& e = ex::get(a.name);
  const std::string out = a.output.empty() ? e.name + ".cu" : a.output;
  if (access(out.c_str(), F_OK) == 0) {
    throw UsageError(fmt::format("-o: {} exists; choose another file or delete it", out));
  }
  report::OutputFile f(out, "-o");
  f.write(e.starter);
  std::cerr << fmt::format("wrote {}; then: memlab exercise check {} {}\n", out, e.name, out);
}

int check(const Args& a) {
  const ex::Exercise& e = ex::get(a.name);
  if (a.json_given && a.json_file.empty()) {
    throw UsageError("--json: '' is not a file name; accepted: a writable path");
  }
  // Before the compile and the GPU: a bad --json path fails at once.
  report::OutputFile json_out;
  if (!a.json_file.empty()) json_out = report::OutputFile(a.json_file, "--json");
  const std::string source = read_file(a.file, "FILE");
  ex::CheckOptions o;
  const auto slash = a.file.find_last_of('/');
  o.file_name = slash == std::string::npos ? a.file : a.file.substr(slash + 1);
  o.sanitize = a.sanitize;
  o.measure = !a.no_measure;
  o.kernel_timeout_s = a.timeout;
  const ex::CheckResult r = ex::check(e.name, source, o);
  if (json_out.is_open()) json_out.write(r.json.dump(2) + "\n");
  if (a.json_stdout) {
    std::cout << r.json.dump(2) << "\n";
  } else {
    std::cout << ex::render_check(r.json);
  }
  return r.exit_code;
}

int quiz(const Args& a) {
  const ex::Exercise& e = ex::get(a.name);
  const json q = ex::quiz_json(e);
  if (a.json_stdout) {
    std::cout << q.dump(2) << "\n";
    return kExitOk;
  }
  std::vector<std::string> given;
  if (!a.answers.empty()) {
    std::stringstream ss(a.answers);
    std::string item;
    while (std::getline(ss, item, ',')) given.push_back(item);
    if (given.size() != q.size()) {
      throw UsageError(
          fmt::format("--answers: {} answers for {} questions", given.size(), q.size()));
    }
  }
  int right = 0;
  for (std::size_t i = 0; i < q.size(); ++i) {
    std::cout << fmt::format("{}. {}\n", i + 1, lang_text(q[i]["question"], a.lang));
    std::string answer;
    if (!given.empty()) {
      answer = given[i];
    } else {
      std::cout << "> " << std::flush;
      if (!std::getline(std::cin, answer)) answer.clear();
    }
    const double want = q[i]["model_answer"].get<double>();
    char* end = nullptr;
    const double got = std::strtod(answer.c_str(), &end);
    const bool ok = end != answer.c_str() && std::fabs(got - want) <= 1e-6 * std::fabs(want) + 1e-9;
    right += ok ? 1 : 0;
    std::cout << fmt::format("   {} (answer: {:g}{}) {}\n", ok ? "right" : "wrong", want,
                             q[i].contains("unit") ? " " + q[i]["unit"].get<std::string>() : "",
                             lang_text(q[i].value("explain", json::object()), a.lang));
  }
  std::cout << fmt::format("{} of {} right\n", right, q.size());
  return right == static_cast<int>(q.size()) ? kExitOk : kExitVerificationFailed;
}

}  // namespace

void add_exercise_command(CLI::App& app, int& exit_code) {
  auto* cmd =
      app.add_subcommand("exercise", "Practise: write a kernel, memlab checks and times it");
  cmd->require_subcommand(1);
  auto a = std::make_shared<Args>();
  auto lang = [a](CLI::App* c) {
    c->add_option("--lang", a->lang, "de, en or zh (default en)")
        ->check(
            CLI::IsMember(std::vector<std::string>(ex::kLanguages.begin(), ex::kLanguages.end())));
  };
  auto* l = cmd->add_subcommand("list", "the exercises, their lessons and targets");
  lang(l);
  l->callback([a, &exit_code] {
    list(*a);
    exit_code = kExitOk;
  });
  auto* s = cmd->add_subcommand("show", "statement, signature, test points, target, hints");
  s->add_option("NAME", a->name, "exercise")->required();
  lang(s);
  s->callback([a, &exit_code] {
    show(*a);
    exit_code = kExitOk;
  });
  auto* st = cmd->add_subcommand("start", "write the starter kernel to a file");
  st->add_option("NAME", a->name, "exercise")->required();
  st->add_option("-o,--output", a->output, "file to write (default NAME.cu; never overwritten)");
  st->callback([a, &exit_code] {
    start(*a);
    exit_code = kExitOk;
  });
  auto* c = cmd->add_subcommand("check", "compile, verify at every test point, time, judge");
  c->add_option("NAME", a->name, "exercise")->required();
  c->add_option("FILE", a->file, "your kernel file (.cu, at most 64 KiB)")->required();
  c->add_option("--json", a->json_file, "also write the result as JSON to this file")
      ->each([a](const std::string&) { a->json_given = true; });
  c->add_flag("--json-stdout", a->json_stdout, "print the JSON result instead of the text");
  c->add_flag("--sanitize", a->sanitize, "run the worker under compute-sanitizer (no timing)");
  c->add_flag("--verify-only", a->no_measure, "check the results, time nothing");
  c->add_option("--timeout", a->timeout, "seconds one launch may take (default 10)")
      ->check(CLI::Range(0.1, 600.0));
  c->callback([a, &exit_code] { exit_code = check(*a); });
  auto* q = cmd->add_subcommand("quiz", "the lesson's short quiz, answers from the models");
  q->add_option("NAME", a->name, "exercise")->required();
  q->add_option("--answers", a->answers, "comma-separated answers instead of asking");
  q->add_flag("--json", a->json_stdout, "print the questions with the models' answers as JSON");
  lang(q);
  q->callback([a, &exit_code] { exit_code = quiz(*a); });
}

}  // namespace memlab::cli
