// The /api/... routes of `memlab serve` (TEAM.md, contract 2).
#include <fmt/format.h>

#include <regex>

#include "api_error.hpp"
#include "catalogue.hpp"
#include "embedded.hpp"
#include "http_util.hpp"
#include "memlab/claims/claims.hpp"
#include "memlab/common/error.hpp"
#include "memlab/exercise/engine.hpp"
#include "memlab/report/lessons.hpp"
#include "results.hpp"
#include "roles.hpp"
#include "runs.hpp"
#include "server_state.hpp"

namespace memlab::server {
namespace {

using nlohmann::json;

bool valid_name(const std::string& s) {
  static const std::regex re("[a-z0-9_]{1,40}");
  return std::regex_match(s, re);
}

json lesson_json(const std::string& name) {
  auto content = lesson_content(name);
  if (!content) {
    throw ApiError(404, "lesson",
                   fmt::format("lesson: '{}' is unknown; see GET /api/lessons", name));
  }
  return *content;
}

json lesson_names() {
  json names = json::array();
  for (std::string_view p : embedded::list("docs/")) {
    std::string n(p.substr(5));
    if (n.size() > 3 && n.ends_with(".md")) names.push_back(n.substr(0, n.size() - 3));
  }
  return {{"lessons", names}};
}

const exercise::Exercise& find_exercise(const std::string& name) {
  try {
    return exercise::get(name);
  } catch (const UsageError& e) {
    throw ApiError(404, "exercise", e.what());
  }
}

void model_route(ServerState& s, const std::string& name, const json& params,
                 httplib::Response& res) {
  if (!is_model_name(name)) {
    throw ApiError(404, "model",
                   fmt::format("model: '{}' is unknown; see GET /api/models", name.substr(0, 40)));
  }
  send_json(res, 200, s.models.run(name, params));
}

}  // namespace

json parse_body(const httplib::Request& req) {
  if (req.body.empty()) return json::object();
  try {
    return json::parse(req.body);
  } catch (const json::parse_error& e) {
    throw ApiError(400, "body",
                   fmt::format("body: malformed JSON at byte {}; expected a JSON object", e.byte));
  }
}

void add_api_routes(httplib::Server& svr, ServerState& s) {
  svr.Get("/api/info",
          [&s](const httplib::Request&, httplib::Response& res) { send_json(res, 200, s.info); });
  svr.Get("/api/list",
          [&s](const httplib::Request&, httplib::Response& res) { send_json(res, 200, s.list); });
  svr.Get("/api/models", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] { send_json(res, 200, s.models.catalog()); });
  });
  svr.Get("/api/model/([^/]+)", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      json params = json::object();
      for (const auto& [k, v] : req.params) {
        params[k] = v == "true" ? json(true) : v == "false" ? json(false) : json(v);
      }
      model_route(s, req.matches[1], params, res);
    });
  });
  svr.Post("/api/model/([^/]+)", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] { model_route(s, req.matches[1], parse_body(req), res); });
  });
  svr.Get("/api/lessons", [](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, lesson_names());
  });
  svr.Get("/api/lessons/(.*)", [](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const std::string name = req.matches[1];
      if (!valid_name(name)) {
        throw ApiError(404, "lesson",
                       "lesson: unknown name; accepted: [a-z0-9_]+, see GET /api/lessons");
      }
      send_json(res, 200, lesson_json(name));
    });
  });
  svr.Get("/api/results", [&s](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] { send_json(res, 200, s.results.list()); });
  });
  svr.Get("/api/results/(.*)", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      const auto text = s.results.get(req.matches[1]);
      if (!text) throw ApiError(404, "id", "id: no such result; see GET /api/results");
      // A run without a lessons block (schema 1) gets today's declarations and its findings.
      nlohmann::json run = nlohmann::json::parse(*text, nullptr, false);
      if (!run.is_object() || run.contains("lessons") || !run.contains("records")) {
        return res.set_content(*text, "application/json");
      }
      report::with_lessons(run);
      res.set_content(run.dump(), "application/json");
    });
  });
  svr.Post("/api/runs", [&s](const httplib::Request& req, httplib::Response& res) {
    if (!require_token(s, req, res)) return;
    guarded(res, [&] {
      const bench::RunRequest request = parse_run_request(parse_body(req));
      auto plan = std::make_shared<const bench::Plan>(plan_run(request));
      if (auto why = no_device_reason()) throw ApiError(503, "", *why);
      auto id = s.jobs.submit(JobQueue::CancellableWork(
          [plan](const JobQueue::Progress& p, const std::atomic<bool>& cancel) {
            return execute_run(*plan, p, &cancel);
          }));
      if (!id) throw ApiError(429, "", "the job queue is full; wait for a run to finish");
      send_json(res, 202, {{"id", *id}});
    });
  });
  svr.Get("/api/runs/([^/]+)", [&s](const httplib::Request& req, httplib::Response& res) {
    const auto who = principal_of(s, req);
    auto status = s.jobs.status(req.matches[1]);
    // A learner sees only their own jobs (runs are the teacher's).
    if (status && who && !who->is_staff() && (*status)["owner"] != who->key()) status.reset();
    if (!status) return send_error(res, 404, "id: no such run", "id");
    send_json(res, 200, *status);
  });
  svr.Post("/api/runs/([^/]+)/cancel", [&s](const httplib::Request& req, httplib::Response& res) {
    if (!require_token(s, req, res)) return;
    if (!s.jobs.cancel(req.matches[1])) return send_error(res, 404, "id: no such run", "id");
    send_json(res, 200, *s.jobs.status(req.matches[1]));
  });
  svr.Get("/api/exercises", [](const httplib::Request&, httplib::Response& res) {
    guarded(res, [&] { send_json(res, 200, exercise::list_json()); });
  });
  svr.Get("/api/exercises/([^/]+)", [](const httplib::Request& req, httplib::Response& res) {
    guarded(res,
            [&] { send_json(res, 200, exercise::exercise_json(find_exercise(req.matches[1]))); });
  });
  // Without ?run: the claims and the plan that measures them. With ?run=ID (an id of GET
  // /api/results): the verdicts of `memlab claims` over that stored run.
  svr.Get("/api/claims", [&s](const httplib::Request& req, httplib::Response& res) {
    guarded(res, [&] {
      for (const auto& [key, value] : req.params) {
        if (key != "run") {
          throw ApiError(
              400, key,
              fmt::format("{}: not a parameter of /api/claims (accepted: run)", key.substr(0, 40)));
        }
      }
      if (!req.has_param("run")) return send_json(res, 200, claims::list_json());
      const std::string id = req.get_param_value("run");
      const auto text = ResultsStore::valid_id(id) ? s.results.get(id) : std::nullopt;
      if (!text) throw ApiError(404, "run", "run: no such result; see GET /api/results");
      const json run = json::parse(*text, nullptr, false);
      if (run.is_discarded() || !run.is_object() || !run.contains("records") ||
          !run["records"].is_array()) {
        throw ApiError(422, "run", "run: the result is not a run (memlab run --json)");
      }
      json out;
      try {
        out = claims::evaluate_json(run);
      } catch (const json::exception&) {
        throw ApiError(422, "run", "run: the result's records do not have the run schema");
      }
      out["run"] = id;
      send_json(res, 200, out);
    });
  });
}

}  // namespace memlab::server
