// What the routes share (internal to src/server): the options, the token, the backends.
#pragma once

#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

#include "jobs.hpp"
#include "memlab/server/server.hpp"
#include "model_backend.hpp"
#include "results.hpp"

namespace memlab::server {

struct ServerState {
  explicit ServerState(const ServerOptions& o) : options(o), results(o.results_dir) {}

  ServerOptions options;
  int port = 0;
  ModelBackend models;
  ResultsStore results;
  JobQueue jobs;
  nlohmann::json info;  // GET /api/info, queried once at start-up
  nlohmann::json list;  // GET /api/list
};

// True if the request carries the token (X-Memlab-Token); otherwise answers 401 JSON.
bool require_token(const ServerState& state, const httplib::Request& req, httplib::Response& res);

// The /api/... routes (api.cpp) and the static bundle (server.cpp).
void add_api_routes(httplib::Server& svr, ServerState& state);

}  // namespace memlab::server
