#include "roles.hpp"

#include <fmt/format.h>

#include <regex>

#include "api_error.hpp"
#include "http_util.hpp"
#include "security.hpp"
#include "server_state.hpp"

namespace memlab::server {
namespace {

struct Compiled {
  RouteRole role;
  std::regex re;
};

const std::vector<Compiled>& compiled() {
  static const std::vector<Compiled> table = [] {
    std::vector<Compiled> out;
    for (const RouteRole& r : route_roles()) out.push_back({r, std::regex(r.pattern)});
    return out;
  }();
  return table;
}

}  // namespace

const char* to_string(Need n) {
  switch (n) {
    case Need::Public:
      return "public";
    case Need::Member:
      return "member";
    case Need::Staff:
      return "staff";
  }
  return "staff";
}

const std::vector<RouteRole>& route_roles() {
  static const std::vector<RouteRole> table = {
      // The lab's content: the same for everyone, no token.
      {"GET", "/api/info", Need::Public, false},
      {"GET", "/api/list", Need::Public, false},
      {"GET", "/api/models", Need::Public, false},
      {"GET", "/api/model/([^/]+)", Need::Public, false},
      {"POST", "/api/model/([^/]+)", Need::Public, false},
      {"GET", "/api/lessons", Need::Public, false},
      {"GET", "/api/lessons/(.*)", Need::Public, false},
      {"GET", "/api/results", Need::Public, false},
      {"GET", "/api/results/(.*)", Need::Public, false},
      {"GET", "/api/exercises", Need::Public, false},
      {"GET", "/api/exercises/([^/]+)", Need::Public, false},
      {"GET", "/api/claims", Need::Public, false},
      {"POST", "/api/class/join", Need::Public, true},
      // Anyone with a token: their own checks, jobs and attempts.
      {"GET", "/api/me", Need::Member, false},
      {"POST", "/api/exercises/([^/]+)/check", Need::Member, false},
      {"GET", "/api/jobs/([^/]+)", Need::Member, false},
      {"POST", "/api/jobs/([^/]+)/cancel", Need::Member, false},
      {"GET", "/api/queue", Need::Member, false},
      {"GET", "/api/runs/([^/]+)", Need::Member, false},
      {"GET", "/api/attempts", Need::Member, true},
      {"GET", "/api/attempts/([^/]+)", Need::Member, true},
      {"GET", "/api/class/claims", Need::Member, true},
      // The teacher (or the single-user owner): the GPU, the queue, the class.
      {"POST", "/api/runs", Need::Staff, false},
      {"POST", "/api/runs/([^/]+)/cancel", Need::Staff, false},
      {"POST", "/api/queue/pause", Need::Staff, false},
      {"POST", "/api/queue/resume", Need::Staff, false},
      {"POST", "/api/queue/reserve", Need::Staff, false},
      {"POST", "/api/queue/release", Need::Staff, false},
      {"GET", "/api/class/overview", Need::Staff, true},
      {"GET", "/api/class/export\\.csv", Need::Staff, true},
      {"GET", "/api/class/export\\.json", Need::Staff, true},
      {"GET", "/api/class/learners", Need::Staff, true},
      {"POST", "/api/class/learners/([^/]+)/revoke", Need::Staff, true},
      {"POST", "/api/class/claims", Need::Staff, true},
  };
  return table;
}

const RouteRole* find_route(const std::string& method, const std::string& path) {
  const std::string m = method == "HEAD" ? "GET" : method;
  for (const Compiled& c : compiled()) {
    if (c.role.method == m && std::regex_match(path, c.re)) return &c.role;
  }
  return nullptr;
}

std::optional<Principal> principal_of(const ServerState& s, const httplib::Request& req,
                                      std::string* why) {
  const std::string given = req.get_header_value("X-Memlab-Token");
  std::string reason;
  std::optional<Principal> p;
  if (given.empty()) {
    reason =
        "token: missing; send the X-Memlab-Token header (the token is in the URL memlab serve "
        "printed)";
  } else if (given.size() > 256) {
    reason = "token: unknown token";
  } else if (s.store) {
    std::string what;
    p = s.store->resolve(given, &what);
    if (!p) reason = fmt::format("token: {} token", what);
  } else if (tokens_equal(s.options.token, given)) {
    p = Principal{};
    p->name = "owner";
  } else {
    reason = "token: unknown token";
  }
  if (why != nullptr) *why = reason;
  return p;
}

Principal caller(const ServerState& s, const httplib::Request& req) {
  std::string why;
  auto p = principal_of(s, req, &why);
  if (!p) throw ApiError(401, "X-Memlab-Token", why);
  return *p;
}

bool authorize(const ServerState& s, const httplib::Request& req, httplib::Response& res) {
  const RouteRole* route = find_route(req.method, req.path);
  if (route == nullptr) {
    send_error(res, 404,
               fmt::format("no route {} {}", req.method.substr(0, 10), req.path.substr(0, 200)),
               "path");
    return false;
  }
  if (route->class_only && !s.store) {
    send_error(res, 404,
               fmt::format("{}: this server is not a class lab (memlab serve --class DIR)",
                           req.path.substr(0, 200)),
               "path");
    return false;
  }
  if (route->need == Need::Public) return true;
  std::string why;
  const auto p = principal_of(s, req, &why);
  if (!p) {
    send_error(res, 401, why, "X-Memlab-Token");
    return false;
  }
  if (route->need == Need::Staff && !p->is_staff()) {
    send_error(res, 403,
               fmt::format("token: a {}'s token may not {} {}", to_string(p->role), req.method,
                           req.path.substr(0, 200)),
               "X-Memlab-Token");
    return false;
  }
  return true;
}

}  // namespace memlab::server
