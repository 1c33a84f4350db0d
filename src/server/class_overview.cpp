#include "class_overview.hpp"

#include <fmt/format.h>

#include <map>
#include <set>

#include "memlab/exercise/engine.hpp"

namespace memlab::server {
namespace {

using nlohmann::json;

bool timed(const json& a) {
  return a["median_ms"].is_number() && a["median_ms"].get<double>() > 0;
}

std::string key_of(const json& a) {
  return a["learner"].get<std::string>() + "\n" + a["exercise"].get<std::string>();
}

// learner\nexercise -> the attempt with the lowest median time.
std::map<std::string, const json*> best_of(const json& attempts) {
  std::map<std::string, const json*> best;
  for (const json& a : attempts) {
    if (!timed(a)) continue;
    const json*& b = best[key_of(a)];
    if (b == nullptr || a["median_ms"].get<double>() < (*b)["median_ms"].get<double>()) b = &a;
  }
  return best;
}

std::string cell(const json& v) {
  std::string s = v.is_string() ? v.get<std::string>() : v.is_null() ? "" : v.dump();
  if (!s.empty() &&
      (s[0] == '=' || s[0] == '+' || s[0] == '-' || s[0] == '@' || s[0] == '\t' || s[0] == '\r')) {
    if (!v.is_number()) s.insert(s.begin(), '\'');
  }
  std::string out(1, '"');
  for (char c : s) {
    out.push_back(c);
    if (c == '"') out.push_back('"');
  }
  out.push_back('"');
  return out;
}

}  // namespace

std::vector<long long> best_attempt_ids(const json& attempts) {
  std::vector<long long> ids;
  for (const auto& [k, a] : best_of(attempts)) ids.push_back((*a)["id"].get<long long>());
  return ids;
}

json class_overview(const json& attempts, const json& learners, const json& best_variants) {
  const auto best = best_of(attempts);
  json exercises = json::array();
  std::map<std::string, std::set<std::string>> passed_by;  // learner -> exercises passed
  std::map<std::string, long long> attempts_by;            // learner -> attempts
  for (const json& a : attempts) {
    ++attempts_by[a["learner"].get<std::string>()];
    if (a["status"] == "passed")
      passed_by[a["learner"].get<std::string>()].insert(a["exercise"].get<std::string>());
  }
  // Lessons in catalogue order: lesson -> its exercises.
  std::vector<std::pair<std::string, std::vector<std::string>>> lessons;
  for (const exercise::Exercise& e : exercise::catalogue()) {
    auto it = std::find_if(lessons.begin(), lessons.end(),
                           [&](const auto& l) { return l.first == e.lesson(); });
    if (it == lessons.end()) {
      lessons.push_back({e.lesson(), {}});
      it = std::prev(lessons.end());
    }
    it->second.push_back(e.name);
    json per_learner = json::array();
    std::map<std::string, json> rows;  // learner -> row, in order of first attempt
    std::vector<std::string> order;
    std::map<std::string, long long> failures;
    std::map<std::string, const json*> example;  // status -> latest attempt
    for (const json& a : attempts) {
      if (a["exercise"] != e.name) continue;
      const std::string who = a["learner"];
      if (!rows.contains(who)) {
        order.push_back(who);
        rows[who] = {{"name", who},
                     {"passed", false},
                     {"first_passed_at", nullptr},
                     {"attempts", 0},
                     {"best", nullptr}};
      }
      json& r = rows[who];
      r["attempts"] = r["attempts"].get<long long>() + 1;
      if (a["status"] == "passed" && !r["passed"].get<bool>()) {
        r["passed"] = true;
        r["first_passed_at"] = a["created_at"];
      }
      if (a["status"] != "passed") {
        ++failures[a["status"].get<std::string>()];
        example[a["status"].get<std::string>()] = &a;
      }
    }
    for (const std::string& who : order) {
      json& r = rows[who];
      if (const auto b = best.find(who + "\n" + e.name); b != best.end()) {
        const json& a = *b->second;
        const std::string id = std::to_string(a["id"].get<long long>());
        r["best"] = {{"attempt_id", a["id"]},
                     {"median_ms", a["median_ms"]},
                     {"achieved", a["achieved"]},
                     {"target", a["target"]},
                     {"variants", best_variants.value(id, json::array())}};
      }
      per_learner.push_back(r);
    }
    json most_common = nullptr;
    long long top = 0;
    for (const auto& [status, n] : failures) {
      if (n > top) {
        top = n;
        const json& x = *example[status];
        most_common = {
            {"status", status},
            {"count", n},
            {"example",
             {{"attempt_id", x["id"]}, {"learner", x["learner"]}, {"message", x["message"]}}}};
      }
    }
    exercises.push_back({{"exercise", e.name},
                         {"lesson", e.lesson()},
                         {"learners", per_learner},
                         {"failures", failures},
                         {"most_common", most_common}});
  }
  json people = json::array();
  for (const json& l : learners) {
    const std::string name = l["name"];
    const auto& passed = passed_by[name];
    json progress = json::array();
    for (const auto& [lesson, names] : lessons) {
      long long n = 0;
      for (const std::string& x : names) n += passed.contains(x) ? 1 : 0;
      progress.push_back({{"lesson", lesson}, {"passed", n}, {"total", names.size()}});
    }
    people.push_back({{"name", name},
                      {"learner_id", l["learner_id"]},
                      {"attempts", attempts_by[name]},
                      {"passed", std::vector<std::string>(passed.begin(), passed.end())},
                      {"lessons", progress}});
  }
  return {{"exercises", exercises}, {"learners", people}};
}

std::string attempts_csv(const json& rows) {
  static const char* kColumns[] = {"id",       "learner", "learner_id", "exercise",
                                   "status",   "message", "created_at", "median_ms",
                                   "achieved", "target",  "target_met", "build",
                                   "device",   "wait_s",  "run_s",      "source"};
  std::string out;
  for (const char* c : kColumns) {
    if (!out.empty()) out.push_back(',');
    out.append(c);
  }
  out.append("\r\n");
  for (const json& r : rows) {
    bool first = true;
    for (const char* c : kColumns) {
      if (!first) out.push_back(',');
      first = false;
      out.append(cell(r.value(c, json())));
    }
    out.append("\r\n");
  }
  return out;
}

}  // namespace memlab::server
