// `memlab class init DIR --name NAME [--roster FILE] [--expires 30d] [--url URL]` and `memlab
// class teacher-token DIR`, in the memlab-serve executable (`memlab class` execs it, as `memlab
// serve` does): create a class store and print the teacher's URL, the class code and one URL per
// roster learner, once; tokens are stored only as SHA-256.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <fstream>
#include <iostream>
#include <memory>

#include "class_store.hpp"
#include "memlab/cli/web_commands.hpp"
#include "memlab/common/error.hpp"

namespace memlab::cli {
namespace {

struct ClassArgs {
  std::string dir, name, roster, expires = "30d", url = "http://127.0.0.1:8080";
};

std::vector<std::string> read_roster(const std::string& path) {
  std::vector<std::string> names;
  if (path.empty()) return names;
  std::ifstream f(path);
  if (!f) throw UsageError(fmt::format("--roster: cannot read '{}'", path));
  std::string line;
  int n = 0;
  while (std::getline(f, line)) {
    ++n;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
    while (!line.empty() && line.front() == ' ') line.erase(line.begin());
    if (line.empty() || line[0] == '#') continue;
    bool ok = line.size() <= 40 && line != "teacher" && line != "owner";
    for (unsigned char c : line) ok = ok && c >= 0x20 && c != 0x7f;
    if (!ok) {
      throw UsageError(fmt::format(
          "--roster: line {} of '{}': a name is 1 to 40 characters, no control characters, not "
          "'teacher' or 'owner'",
          n, path));
    }
    names.push_back(line);
  }
  return names;
}

std::string base_url(std::string url) {
  if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0) {
    throw UsageError(fmt::format("--url: '{}' does not start with http:// or https://", url));
  }
  while (!url.empty() && url.back() == '/') url.pop_back();
  return url;
}

int init(const ClassArgs& a) {
  if (a.name.empty() || a.name.size() > 80)
    throw UsageError("--name: accepted: 1 to 80 characters (the class's name)");
  const std::int64_t expires = server::parse_duration(a.expires, "--expires");
  const std::string url = base_url(a.url);
  const auto roster = read_roster(a.roster);
  const server::ClassCreated c = server::ClassStore::create(a.dir, a.name, expires, roster);
  std::cout << fmt::format(
      "memlab class: created '{}' in {} (tokens expire {})\n\n"
      "  teacher:    {}/#token={}\n"
      "  class code: {}   (a learner opens {}/#/join/{} and types their name)\n",
      c.name, a.dir, c.expires_at, url, c.teacher.token, c.code, url, c.code);
  if (!c.learners.empty()) std::cout << "\n  learners (roster):\n";
  for (const auto& l : c.learners)
    std::cout << fmt::format("    {:<24} {}/#token={}\n", l.name, url, l.token);
  std::cout << fmt::format(
      "\nThe tokens are shown only now (the store keeps their SHA-256); in the URL's #fragment\n"
      "they reach no server or proxy log. Start the lab with:\n\n"
      "    memlab serve --class {}{}\n",
      a.dir, url.find("127.0.0.1") == std::string::npos ? " --host 0.0.0.0" : "");
  return kExitOk;
}

int teacher_token(const ClassArgs& a) {
  server::ClassStore store(a.dir);
  const auto t = store.rotate_teacher_token();
  std::cout << fmt::format(
      "memlab class: a new teacher token for '{}' (the old one is revoked):\n\n  {}/#token={}\n",
      store.name(), base_url(a.url), t.token);
  return kExitOk;
}

}  // namespace

void add_class_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ClassArgs>();
  auto* cls = app.add_subcommand("class", "A class lab: learners, a teacher, one GPU queue");
  cls->require_subcommand(1);
  auto* init_cmd = cls->add_subcommand(
      "init", "Create a class in DIR (class.db) and print the teacher's URL and the class code");
  init_cmd->add_option("DIR", a->dir, "Folder for class.db (created)")->required();
  init_cmd->add_option("--name", a->name, "The class's name")->required();
  init_cmd->add_option("--roster", a->roster, "File of learner names, one a line (# comments)");
  init_cmd->add_option("--expires", a->expires, "Lifetime of every token (30d, 12h, ...)")
      ->capture_default_str();
  init_cmd->add_option("--url", a->url, "The lab's address as learners will open it")
      ->capture_default_str();
  init_cmd->callback([a, &exit_code] { exit_code = init(*a); });
  auto* token_cmd = cls->add_subcommand(
      "teacher-token", "Revoke the teacher's token and print a new one (a lost URL)");
  token_cmd->add_option("DIR", a->dir, "The class folder")->required();
  token_cmd->add_option("--url", a->url, "The lab's address")->capture_default_str();
  token_cmd->callback([a, &exit_code] { exit_code = teacher_token(*a); });
}

}  // namespace memlab::cli
