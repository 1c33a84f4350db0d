// Every /api route with the role it needs, in one table (issue 22). server.cpp's pre-routing
// guard looks each request up here before any handler runs: a path not in the table is 404, a
// missing, unknown, revoked or expired token is 401, a known token without the role is 403. The
// handlers then only decide ownership (a learner's own attempts and jobs).
#pragma once

#include <httplib.h>

#include <optional>
#include <string>
#include <vector>

#include "class_store.hpp"

namespace memlab::server {

struct ServerState;

enum class Need {
  Public,  // no token (the lab's content: lessons, models, exercises, stored runs)
  Member,  // any valid token: learner, teacher, owner
  Staff,   // teacher or (single-user) owner
};
const char* to_string(Need n);

struct RouteRole {
  std::string method;   // "GET" (HEAD too) or "POST"
  std::string pattern;  // httplib's regex of the path
  Need need;
  bool class_only;  // 404 on a server without --class
};

const std::vector<RouteRole>& route_roles();
// The route for this method and path, or nullptr.
const RouteRole* find_route(const std::string& method, const std::string& path);

// The principal of a request's X-Memlab-Token; nullopt with the 401 message otherwise.
std::optional<Principal> principal_of(const ServerState& state, const httplib::Request& req,
                                      std::string* why = nullptr);

// principal_of for a handler behind the guard: throws ApiError(401) if the token stopped being
// valid in between (revoked, expired).
Principal caller(const ServerState& state, const httplib::Request& req);

// The guard for /api paths: true if the request may reach its handler; otherwise the answer
// (401/403/404) is in `res`.
bool authorize(const ServerState& state, const httplib::Request& req, httplib::Response& res);

}  // namespace memlab::server
