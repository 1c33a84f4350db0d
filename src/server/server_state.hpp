// What the routes share (internal to src/server): the options, the token, the backends.
#pragma once

#include <httplib.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>

#include "class_store.hpp"
#include "jobs.hpp"
#include "memlab/server/server.hpp"
#include "model_backend.hpp"
#include "results.hpp"

namespace memlab::server {

QueueLimits queue_limits(const ServerOptions& o);

struct ServerState {
  explicit ServerState(const ServerOptions& o)
      : options(o),
        results(o.results_dir),
        store(o.class_dir.empty() ? nullptr : std::make_unique<ClassStore>(o.class_dir)),
        jobs(queue_limits(o)) {}

  ServerOptions options;
  int port = 0;
  ModelBackend models;
  ResultsStore results;
  std::unique_ptr<ClassStore> store;  // the class lab; null: single-user
  JobQueue jobs;
  std::atomic<int> compiling{0};  // checks compiled in HTTP threads right now
  std::mutex join_mutex;          // POST /api/class/join's rate limit
  double join_tokens = 40;
  std::chrono::steady_clock::time_point join_at = std::chrono::steady_clock::now();
  nlohmann::json info;  // GET /api/info, queried once at start-up
  nlohmann::json list;  // GET /api/list
};

// True if the request carries the token (X-Memlab-Token); otherwise answers 401 JSON.
bool require_token(const ServerState& state, const httplib::Request& req, httplib::Response& res);

// The /api/... routes (api.cpp) and the static bundle (server.cpp).
void add_api_routes(httplib::Server& svr, ServerState& state);
// The checks, the jobs, the queue (check_routes.cpp) and the class (class_routes.cpp).
void add_check_routes(httplib::Server& svr, ServerState& state);
void add_class_routes(httplib::Server& svr, ServerState& state);
// The 202 answer for an admitted job: {job, state, position, eta_s, superseded}.
nlohmann::json admitted_json(const JobQueue& jobs, const Admitted& a);

}  // namespace memlab::server
