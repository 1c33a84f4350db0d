// The class lab's routes (issue 22, docs/class-lab.md): joining with the class code, attempts,
// the teacher's overview, export, learners and revocation, and the class claims as a job.
// Roles are checked before these handlers run (roles.cpp); here only ownership.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "class_overview.hpp"
#include "exercise/process.hpp"
#include "http_util.hpp"
#include "roles.hpp"
#include "security.hpp"
#include "server_state.hpp"

namespace memlab::server {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr double kJoinsPerMinute = 60;
constexpr double kJoinBurst = 40;  // a room joins at once

// A learner's name: 1..40 characters, no control characters, not blank, not a role's name.
std::string valid_learner_name(const json& v) {
  if (!v.is_string()) throw ApiError(400, "name", "name: expected a string");
  std::string n = v.get<std::string>();
  while (!n.empty() && n.front() == ' ') n.erase(n.begin());
  while (!n.empty() && n.back() == ' ') n.pop_back();
  bool ok = !n.empty() && n.size() <= 40;
  for (unsigned char c : n) ok = ok && c >= 0x20 && c != 0x7f;
  if (!ok) {
    throw ApiError(400, "name", "name: accepted: 1 to 40 characters, no control characters");
  }
  if (n == "teacher" || n == "owner" || n == "another learner")
    throw ApiError(409, "name", fmt::format("name: '{}' is taken; choose another", n));
  return n;
}

std::int64_t id_param(const std::string& text, const char* parameter) {
  static const std::regex digits("[0-9]{1,12}");
  if (!std::regex_match(text, digits)) {
    throw ApiError(
        400, parameter,
        fmt::format("{}: '{}' is not an id; accepted: digits", parameter, text.substr(0, 40)));
  }
  return std::stoll(text);
}

bool join_allowed(ServerState& s, double* retry_after) {
  const std::lock_guard lock(s.join_mutex);
  const auto now = std::chrono::steady_clock::now();
  s.join_tokens = std::min(
      kJoinBurst, s.join_tokens + kJoinsPerMinute / 60.0 *
                                      std::chrono::duration<double>(now - s.join_at).count());
  s.join_at = now;
  if (s.join_tokens < 1) {
    *retry_after = std::ceil((1 - s.join_tokens) * 60.0 / kJoinsPerMinute);
    return false;
  }
  s.join_tokens -= 1;
  return true;
}

void join(ServerState& s, const httplib::Request& req, httplib::Response& res) {
  const json body = parse_body(req);
  if (!body.is_object()) throw ApiError(400, "body", "body: expected {\"code\", \"name\"}");
  const json code = body.value("code", json());
  if (!code.is_string()) throw ApiError(400, "code", "code: expected a string");
  const std::string name = valid_learner_name(body.value("name", json()));
  double retry = 1;
  if (!join_allowed(s, &retry)) {
    res.set_header("Retry-After", fmt::format("{}", static_cast<long>(retry)));
    throw ApiError(429, "code", "too many joins; try again in a moment");
  }
  if (!tokens_equal(s.store->code(), code.get<std::string>()))
    throw ApiError(403, "code", "code: not this class's code (ask your teacher)");
  const auto t = s.store->join(name);
  if (!t) throw ApiError(409, "name", fmt::format("name: '{}' is taken; choose another", name));
  send_json(res, 200,
            {{"token", t->token},
             {"name", t->name},
             {"learner_id", t->learner_id},
             {"expires_at", t->expires_at}});
}

void list_attempts(ServerState& s, const httplib::Request& req, httplib::Response& res) {
  const Principal who = caller(s, req);
  std::string exercise;
  std::int64_t learner = who.is_staff() ? 0 : who.learner_id;
  for (const auto& [key, value] : req.params) {
    if (key == "exercise") {
      exercise = value.substr(0, 64);
    } else if (key == "learner") {
      const std::int64_t id = id_param(value, "learner");
      if (!who.is_staff() && id != who.learner_id)
        throw ApiError(403, "learner", "learner: a learner sees only their own attempts");
      learner = id;
    } else {
      throw ApiError(400, key.substr(0, 40),
                     fmt::format("{}: not a parameter of /api/attempts (accepted: exercise, "
                                 "learner)",
                                 key.substr(0, 40)));
    }
  }
  send_json(res, 200, s.store->attempts(exercise, learner));
}

json overview(const ServerState& s) {
  const json attempts = s.store->attempts("", 0);
  json variants = json::object();
  for (long long id : best_attempt_ids(attempts)) {
    const auto a = s.store->attempt(id, 0);
    if (!a) continue;
    json v = json::array();
    const json& m = (*a)["result"].is_object() ? (*a)["result"].value("measure", json()) : json();
    if (m.is_object()) {
      for (const json& x : m.value("variants", json::array()))
        v.push_back(
            {{"variant", x.value("variant", "")}, {"median_ms", x.value("median_ms", 0.0)}});
    }
    variants[std::to_string(id)] = v;
  }
  return class_overview(attempts, s.store->learners(), variants);
}

std::string self_or(const std::string& exe) {
  if (!exe.empty()) return exe;
  std::error_code ec;
  return fs::read_symlink("/proc/self/exe", ec).string();
}

// `memlab claims --json FILE` in a child process, as a job on the one queue.
json run_claims(ServerState& s, const JobQueue::Progress& progress,
                const std::atomic<bool>& cancel) {
  std::string dir = (fs::temp_directory_path() / "memlab-claims-XXXXXX").string();
  if (mkdtemp(dir.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  struct Cleanup {
    std::string d;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(d, ec);
    }
  } cleanup{dir};
  const std::string out = dir + "/claims.json";
  progress("claims: memlab claims --json");
  const exercise::ProcessResult p =
      exercise::run_process({self_or(s.options.memlab_exe), "claims", "--json", out}, "/dev/null",
                            600, 64 * 1024, exercise::ProcessLimits{}, &cancel);
  json result = {{"exit_status", p.exited ? json(p.exit_status) : json(nullptr)},
                 {"signal", p.signal},
                 {"timed_out", p.timed_out},
                 {"cancelled", p.cancelled},
                 {"output", p.output},
                 {"device", s.info.value("device", json())},
                 {"claims", nullptr}};
  std::ifstream f(out);
  if (f) result["claims"] = json::parse(f, nullptr, false);
  if (result["claims"].is_discarded()) result["claims"] = nullptr;
  if (!p.cancelled) s.store->save_claims(result);
  return result;
}

}  // namespace

void add_class_routes(httplib::Server& svr, ServerState& s) {
  svr.Post("/api/class/join", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] { join(s, req, res); });
  });
  svr.Get("/api/attempts", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] { list_attempts(s, req, res); });
  });
  svr.Get("/api/attempts/([^/]+)", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const Principal who = caller(s, req);
      const auto a =
          s.store->attempt(id_param(req.matches[1], "id"), who.is_staff() ? 0 : who.learner_id);
      if (!a) throw ApiError(404, "id", "id: no such attempt");
      send_json(res, 200, *a);
    });
  });
  svr.Get("/api/class/overview", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] { send_json(res, 200, overview(s)); });
  });
  svr.Get("/api/class/export.json", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] {
      send_json(res, 200, s.store->export_rows());
      res.set_header("Content-Disposition", "attachment; filename=\"class-attempts.json\"");
    });
  });
  svr.Get("/api/class/export.csv", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] {
      res.set_content(attempts_csv(s.store->export_rows()), "text/csv; charset=utf-8");
      res.set_header("Content-Disposition", "attachment; filename=\"class-attempts.csv\"");
    });
  });
  svr.Get("/api/class/learners", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] { send_json(res, 200, s.store->learners()); });
  });
  svr.Post("/api/class/learners/([^/]+)/revoke",
           [&s](const httplib::Request& req, httplib::Response& res) {
             guarded(res, [&] {
               const std::int64_t id = id_param(req.matches[1], "id");
               if (!s.store->revoke_learner(id)) throw ApiError(404, "id", "id: no such learner");
               send_json(res, 200, {{"learner_id", id}, {"revoked", true}});
             });
           });
  svr.Post("/api/class/claims", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const Principal who = caller(s, req);
      JobSpec spec;
      spec.kind = "claims";
      spec.owner = who.key();
      spec.staff = true;
      spec.supersede_key = "claims";
      auto admitted =
          s.jobs.enqueue(spec, [&s](const JobQueue::Progress& p, const std::atomic<bool>& cancel) {
            return run_claims(s, p, cancel);
          });
      if (const auto* no = std::get_if<Refused>(&admitted)) {
        res.set_header("Retry-After", fmt::format("{}", static_cast<long>(no->retry_after_s)));
        throw ApiError(no->status, "", no->message);
      }
      send_json(res, 202, admitted_json(s.jobs, std::get<Admitted>(admitted)));
    });
  });
  svr.Get("/api/class/claims", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] {
      const auto c = s.store->latest_claims();
      if (!c) throw ApiError(404, "claims", "claims: none yet; the teacher starts a class run");
      send_json(res, 200, *c);
    });
  });
}

}  // namespace memlab::server
