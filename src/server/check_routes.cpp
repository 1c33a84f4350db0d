// The exercise check through the one GPU queue (issue 21 #3, issue 22): POST
// /api/exercises/<name>/check compiles on the CPU when a compile slot is free (a compile error is
// answered at once, 400), then queues the GPU part as a job and answers 202 {job, position,
// eta_s, superseded}. The job writes the attempt (class lab) before its result is visible at
// GET /api/jobs/<id>. Also: the jobs, the queue and GET /api/me.
#include <fmt/format.h>

#include <chrono>
#include <regex>

#include "http_util.hpp"
#include "memlab/exercise/engine.hpp"
#include "memlab/version.hpp"
#include "roles.hpp"
#include "server_state.hpp"

namespace memlab::server {
namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kCompileSlots = 1;  // HTTP threads compiling at once (2 cores: leave one for pages)

const exercise::Exercise& exercise_named(const std::string& name) {
  try {
    return exercise::get(name);
  } catch (const UsageError& e) {
    throw ApiError(404, "exercise", e.what());
  }
}

// The check's exit code as an HTTP status (engine.hpp): 0, 1 -> 200; 2 -> 400; 3 -> 503; 4 -> 500.
int check_status(int exit_code) {
  switch (exit_code) {
    case 0:
    case 1:
      return 200;
    case 2:
      return 400;
    case 3:
      return 503;
    default:
      return 500;
  }
}

struct CheckRequest {
  std::string source;
  std::string file_name = "kernel.cu";
  bool sanitize = false;
};

CheckRequest parse_check(const json& body, std::size_t max_source) {
  if (!body.is_object() || !body.contains("source") || !body["source"].is_string()) {
    throw ApiError(400, "source", "source: expected {\"source\": \"...\"}");
  }
  for (const auto& [key, value] : body.items()) {
    if (key != "source" && key != "file_name" && key != "sanitize") {
      throw ApiError(400, key.substr(0, 40),
                     fmt::format("{}: not a key of a check (accepted: source, file_name, sanitize)",
                                 key.substr(0, 40)));
    }
  }
  CheckRequest r;
  r.source = body["source"].get<std::string>();
  if (r.source.size() > max_source) {
    throw ApiError(413, "source", fmt::format("source: longer than {} bytes", max_source));
  }
  if (body.contains("file_name")) {
    static const std::regex re("[A-Za-z0-9_.-]{1,64}");
    if (!body["file_name"].is_string() ||
        !std::regex_match(body["file_name"].get_ref<const std::string&>(), re)) {
      throw ApiError(400, "file_name", "file_name: accepted: 1..64 of A-Z a-z 0-9 _ . -");
    }
    r.file_name = body["file_name"].get<std::string>();
  }
  if (body.contains("sanitize")) {
    if (!body["sanitize"].is_boolean())
      throw ApiError(400, "sanitize", "sanitize: accepted: true or false");
    r.sanitize = body["sanitize"].get<bool>();
  }
  return r;
}

std::optional<double> number_at(const json& j, const json::json_pointer& p) {
  if (!j.contains(p) || !j.at(p).is_number()) return std::nullopt;
  return j.at(p).get<double>();
}

// Writes the attempt (class lab) and adds attempt_id to the result; the owner's lab keeps none.
json record_attempt(ServerState& s, const Principal& who, const std::string& job_id,
                    const exercise::Exercise& e, const std::string& source, json result,
                    double wait_s, double run_s) {
  if (!s.store) {
    result["attempt_id"] = nullptr;
    return result;
  }
  Attempt a;
  a.owner = who.key();
  a.learner_id = who.learner_id;
  a.job_id = job_id;
  a.exercise = e.name;
  a.lesson = e.lesson();
  a.source = source;
  a.status = result.value("status", "internal");
  a.message = result.value("message", "");
  a.median_ms = number_at(result, "/measure/yours/median_ms"_json_pointer);
  a.achieved = number_at(result, "/measure/target/achieved"_json_pointer);
  a.target = number_at(result, "/measure/target/value"_json_pointer);
  if (result.contains("/measure/target/met"_json_pointer))
    a.target_met = result.at("/measure/target/met"_json_pointer).get<bool>();
  a.build = fmt::format("memlab {} ({})", kVersion, kGitCommit);
  const json info_device = s.info.value("device", json());
  a.device = result.contains("device") && result["device"].is_string()
                 ? result["device"].get<std::string>()
             : info_device.is_object() ? info_device.value("name", "none")
                                       : std::string("none");
  a.limits = result.value("limits", json::object());
  if (result.contains("counters")) a.counters = result["counters"];
  if (result.contains("/measure/counters"_json_pointer))
    a.counters = result.at("/measure/counters"_json_pointer);
  a.wait_s = wait_s;
  a.run_s = run_s;
  a.result = result;
  result["attempt_id"] = s.store->add_attempt(a);  // committed before anyone sees the result
  return result;
}

exercise::CheckOptions check_options(const ServerState& s, const CheckRequest& c) {
  exercise::CheckOptions o;
  o.worker = s.options.memlab_exe;  // empty: this executable
  o.file_name = c.file_name;
  o.sanitize = c.sanitize;
  o.total_timeout_s =
      s.options.check_timeout_s > 0 ? s.options.check_timeout_s : (s.store ? 60.0 : 240.0);
  // A failed check's diagnosis (sanitizer runs, at most about 3x this) also holds the GPU: in a
  // class a learner's kernel costs at most total_timeout_s + 3 x 20 s of everyone's time.
  if (s.store) o.diagnosis_timeout_s = std::min(o.diagnosis_timeout_s, 20.0);
  return o;
}

void post_check(ServerState& s, const httplib::Request& req, httplib::Response& res) {
  const std::optional<Principal> who = caller(s, req);
  const CheckRequest c = parse_check(parse_body(req), s.options.max_source_bytes);
  const exercise::Exercise& e = exercise_named(req.matches[1]);
  exercise::CheckOptions options = check_options(s, c);
  // 1. The CPU part here when a compile slot is free: a compile error needs no GPU and no wait.
  json compiled;
  if (s.compiling.fetch_add(1) < kCompileSlots) {
    try {
      compiled = exercise::compile_json(e, c.source, c.file_name);
    } catch (const std::exception&) {
      compiled = nullptr;  // NVRTC missing or similar: the job's check says what happened
    }
  }
  s.compiling.fetch_sub(1);
  if (compiled.is_object() && !compiled.value("ok", false)) {
    const auto t0 = Clock::now();
    const exercise::CheckResult r = exercise::check(e.name, c.source, options);
    json out = record_attempt(s, *who, new_job_id(), e, c.source, r.json, 0.0,
                              std::chrono::duration<double>(Clock::now() - t0).count());
    if (r.exit_code >= 2 && !out.contains("error")) out["error"] = out.value("message", "");
    if (r.exit_code == 2) out["parameter"] = "source";  // the API's name of the file
    return send_json(res, check_status(r.exit_code), out);
  }
  options.compiled = compiled.is_object();
  // 2. The GPU part: a job in the one queue.
  JobSpec spec;
  spec.kind = "check";
  spec.owner = who->key();
  spec.staff = who->is_staff();
  spec.supersede_key = e.name;
  spec.id = new_job_id();
  const auto queued_at = Clock::now();
  auto work = [&s, who = *who, id = spec.id, name = e.name, source = c.source, options, compiled,
               queued_at](const JobQueue::Progress& progress, const std::atomic<bool>& cancel) {
    const auto started = Clock::now();
    progress("check: running " + name);
    exercise::CheckOptions o = options;
    o.cancel = &cancel;
    exercise::CheckResult r = exercise::check(name, source, o);
    if (compiled.is_object() && !r.json.contains("compile")) r.json["compile"] = compiled;
    r.json["http_status"] = check_status(r.exit_code);
    const auto ended = Clock::now();
    return record_attempt(s, who, id, exercise_named(name), source, r.json,
                          std::chrono::duration<double>(started - queued_at).count(),
                          std::chrono::duration<double>(ended - started).count());
  };
  auto admitted = s.jobs.enqueue(spec, work);
  if (const auto* no = std::get_if<Refused>(&admitted)) {
    res.set_header("Retry-After",
                   fmt::format("{}", static_cast<long>(std::ceil(no->retry_after_s))));
    return send_error(res, no->status, no->message, "");
  }
  send_json(res, 202, admitted_json(s.jobs, std::get<Admitted>(admitted)));
}

}  // namespace

json admitted_json(const JobQueue& jobs, const Admitted& a) {
  const json st = jobs.status(a.id).value_or(json::object());
  const std::string state = st.value("state", "queued");
  // Already started (an empty queue): position 0, nothing to wait for.
  const bool queued = state == "queued";
  return {{"job", a.id},
          {"state", state},
          {"position", queued ? st.value("position", json()) : json(0)},
          {"eta_s", queued ? st.value("eta_s", json()) : json(0)},
          {"superseded", a.superseded}};
}

namespace {

// The job for this principal: nullopt when unknown or another learner's.
std::optional<json> job_for(const ServerState& s, const Principal& who, const std::string& id) {
  auto st = s.jobs.status(id);
  if (!st && s.store) {
    // Trimmed from memory, or from before a restart: a check's attempt holds its result.
    if (auto a = s.store->attempt_of_job(id)) {
      st = json{{"id", id},
                {"kind", "check"},
                {"owner", (*a)["owner"]},
                {"state", "done"},
                {"position", nullptr},
                {"eta_s", nullptr},
                {"progress", json::array()},
                {"result", (*a)["result"]}};
    }
  }
  if (!st) return std::nullopt;
  if (!who.is_staff() && (*st)["owner"] != who.key()) return std::nullopt;
  return st;
}

}  // namespace

void add_check_routes(httplib::Server& svr, ServerState& s) {
  svr.Post("/api/exercises/([^/]+)/check",
           [&s](const httplib::Request& req, httplib::Response& res) {
             guarded(res, [&] { post_check(s, req, res); });
           });
  svr.Get("/api/jobs/([^/]+)", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const auto st = job_for(s, caller(s, req), req.matches[1]);
      if (!st)
        throw ApiError(404, "id",
                       "id: no such job (a job of another learner, or one "
                       "queued before the server restarted: check again)");
      send_json(res, 200, *st);
    });
  });
  svr.Post("/api/jobs/([^/]+)/cancel", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const std::string id = req.matches[1];
      if (!job_for(s, caller(s, req), id) || !s.jobs.cancel(id))
        throw ApiError(404, "id", "id: no such job");
      send_json(res, 200, *s.jobs.status(id));
    });
  });
  svr.Get("/api/queue", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const Principal who = caller(s, req);
      send_json(res, 200, s.jobs.queue_json(who.key(), who.is_staff()));
    });
  });
  svr.Post("/api/queue/pause", [&s](const httplib::Request&, httplib::Response& res) {
    s.jobs.pause();
    send_json(res, 200, s.jobs.queue_json("teacher", true));
  });
  svr.Post("/api/queue/resume", [&s](const httplib::Request&, httplib::Response& res) {
    s.jobs.resume();
    send_json(res, 200, s.jobs.queue_json("teacher", true));
  });
  svr.Post("/api/queue/reserve", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const json body = parse_body(req);
      const json minutes = body.is_object() ? body.value("minutes", json()) : json();
      if (!minutes.is_number() || !(minutes.get<double>() >= 1 && minutes.get<double>() <= 240)) {
        throw ApiError(400, "minutes", "minutes: accepted: a number from 1 to 240");
      }
      const Principal who = caller(s, req);
      s.jobs.reserve(who.key(), minutes.get<double>() * 60);
      send_json(res, 200, s.jobs.queue_json(who.key(), true));
    });
  });
  svr.Post("/api/queue/release", [&s](const httplib::Request&, httplib::Response& res) {
    s.jobs.release();
    send_json(res, 200, s.jobs.queue_json("teacher", true));
  });
  svr.Get("/api/me", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const Principal who = caller(s, req);
      json klass = nullptr;
      if (s.store) {
        klass = {{"name", s.store->name()}};
        if (who.is_staff()) klass["code"] = s.store->code();
      }
      send_json(res, 200,
                {{"role", to_string(who.role)},
                 {"name", who.name},
                 {"learner_id", who.role == Role::Learner ? json(who.learner_id) : json(nullptr)},
                 {"class", klass},
                 {"expires_at", who.expires_at.empty() ? json(nullptr) : json(who.expires_at)}});
    });
  });
}

}  // namespace memlab::server
