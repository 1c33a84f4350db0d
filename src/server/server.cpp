// `memlab serve`: the server's set-up, its guards and the embedded static bundle.
#include "memlab/server/server.hpp"

#include <fmt/format.h>
#include <httplib.h>
#include <unistd.h>

#include <csignal>

#include <thread>

#include "embedded.hpp"
#include "http_util.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/common/error.hpp"
#include "memlab/cuda/device.hpp"
#include "memlab/report/lessons.hpp"
#include "memlab/report/report.hpp"
#include "roles.hpp"
#include "security.hpp"
#include "server_state.hpp"

namespace memlab::server {
namespace {

using nlohmann::json;

bool is_wildcard(const std::string& host) {
  return host == "0.0.0.0" || host == "::";
}

// {"device": {...as in the run JSON's context...}, "driver_version", "runtime_version"} or
// {"device": null, "reason": "..."}.
json query_info() {
  std::string why;
  if (device_count_or_zero(&why) == 0)
    return {{"device", nullptr}, {"reason", "no CUDA device (" + why + ")"}};
  try {
    bench::RunReport r;
    r.context.device = query_device(0);
    const json run = json::parse(report::render_json(r));
    return {{"device", run["context"]["device"]},
            {"driver_version", run["context"]["driver_version"]},
            {"runtime_version", run["context"]["runtime_version"]}};
  } catch (const std::exception& e) {
    return {{"device", nullptr}, {"reason", e.what()}};
  }
}

json list_json() {
  json out = json::array();
  for (const bench::Experiment& e : bench::experiments()) {
    json variants = json::array(), axes = json::array();
    // Each variant with its axes / only / needs / opt_in (docs/lessons-json.md).
    for (const bench::Variant& v : e.variants) variants.push_back(report::variant_json(v));
    for (const bench::AxisSpec& a : e.axes) {
      json axis = {{"name", a.name},
                   {"kind", a.kind == bench::AxisSpec::Kind::Int ? "int" : "choice"},
                   {"defaults", a.defaults},
                   {"quick", a.quick.empty() ? a.defaults : a.quick},
                   {"accepted", a.accepted()},
                   {"help", a.help}};
      if (a.kind == bench::AxisSpec::Kind::Int) {
        axis["min"] = a.min;
        axis["max"] = a.max;
      } else {
        axis["choices"] = a.choices;
      }
      axes.push_back(axis);
    }
    out.push_back({{"name", e.name},
                   {"summary", e.summary},
                   {"in_default_suite", e.in_default_suite},
                   {"baseline", e.baseline},
                   {"vendor", e.vendor},
                   {"bytes_convention", e.bytes_convention},
                   {"variants", variants},
                   {"axes", axes},
                   {"plots", report::lesson_declaration(e).at("plots")}});
  }
  return {{"experiments", out}};
}

std::string mime_type(const std::string& path) {
  static const std::pair<const char*, const char*> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript"},
      {".mjs", "text/javascript"},
      {".css", "text/css"},
      {".wasm", "application/wasm"},
      {".json", "application/json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".ico", "image/x-icon"},
      {".woff2", "font/woff2"},
      {".md", "text/markdown; charset=utf-8"}};
  for (const auto& [ext, type] : kTypes) {
    if (path.ends_with(ext)) return type;
  }
  return "application/octet-stream";
}

// A static path: letters, digits and . _ - / only, no "..", no empty segment.
bool safe_static_path(const std::string& path) {
  if (path.empty() || path.size() > 256 || path.find("..") != std::string::npos ||
      path.find("//") != std::string::npos || path.front() == '/') {
    return false;
  }
  for (char c : path) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-' || c == '/';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

bool require_token(const ServerState& state, const httplib::Request& req, httplib::Response& res) {
  std::string why;
  if (principal_of(state, req, &why)) return true;
  send_error(res, 401, why, "X-Memlab-Token");
  return false;
}

QueueLimits queue_limits(const ServerOptions& o) {
  QueueLimits l;
  if (o.class_dir.empty()) return l;  // single-user: 8 waiting, no per-owner limits
  l.max_waiting = 400;
  l.max_waiting_per_owner = o.max_queued_checks;
  l.rate_per_minute = o.checks_per_minute;
  l.keep_finished = 512;
  return l;
}

struct Server::Impl {
  ServerState state;
  httplib::Server svr;
  std::thread thread;
  bool bound = false;

  explicit Impl(const ServerOptions& o) : state(o) {}
  void configure();
};

void Server::Impl::configure() {
  ServerState& s = state;
  const int threads = std::max(1, s.options.threads);
  svr.new_task_queue = [threads] {
    return new httplib::ThreadPool(static_cast<std::size_t>(threads));
  };
  svr.set_payload_max_length(s.options.max_body_bytes);
  svr.set_read_timeout(s.options.io_timeout_s, 0);
  svr.set_write_timeout(s.options.io_timeout_s, 0);
  svr.set_keep_alive_timeout(s.options.io_timeout_s);
  svr.set_keep_alive_max_count(100);
  svr.set_default_headers({{"X-Content-Type-Options", "nosniff"},
                           {"Referrer-Policy", "no-referrer"},
                           {"X-Frame-Options", "DENY"},
                           {"Cache-Control", "no-store"}});

  // Before any route: Host (DNS rebinding), Origin (cross-site requests), methods.
  svr.set_pre_routing_handler([&s](const httplib::Request& req, httplib::Response& res) {
    const std::string host = req.get_header_value("Host");
    const bool any_host = is_wildcard(s.options.host);
    const bool host_ok = any_host ? !host.empty() : host_allowed(host, s.options.host, s.port);
    if (!host_ok) {
      send_error(res, 403,
                 fmt::format("Host: '{}' is not this server; open {}:{} by its own name",
                             host.substr(0, 100), s.options.host, s.port),
                 "Host");
      return httplib::Server::HandlerResponse::Handled;
    }
    if (req.has_header("Origin")) {
      const std::string origin = req.get_header_value("Origin");
      const bool ok =
          any_host ? origin == "http://" + host : origin_allowed(origin, s.options.host, s.port);
      if (!ok) {
        send_error(res, 403,
                   fmt::format("Origin: '{}' may not call this server", origin.substr(0, 100)),
                   "Origin");
        return httplib::Server::HandlerResponse::Handled;
      }
    }
    if (req.method != "GET" && req.method != "POST" && req.method != "HEAD") {
      send_error(
          res, 405,
          fmt::format("method: {} is not accepted; accepted: GET, POST", req.method.substr(0, 20)),
          "method");
      return httplib::Server::HandlerResponse::Handled;
    }
    // Every /api route's role, from one table (roles.cpp): 404, 401 or 403 before any handler.
    if (req.path.starts_with("/api/") && !authorize(s, req, res))
      return httplib::Server::HandlerResponse::Handled;
    return httplib::Server::HandlerResponse::Unhandled;
  });
  // Every error the library produces itself (404, 413, 400 ...) answers JSON too.
  svr.set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request& req,
                                                                httplib::Response& res) {
    if (!res.body.empty()) return httplib::Server::HandlerResponse::Unhandled;
    if (res.status == 404) {
      send_error(res, 404,
                 fmt::format("no route {} {}", req.method.substr(0, 10), req.path.substr(0, 200)),
                 "path");
    } else if (res.status == 413) {
      send_error(res, 413, "body: too large", "body");
    } else if (res.status == 400 && (req.method == "POST" || req.method == "PUT") &&
               !req.has_header("Content-Length") && !req.has_header("Transfer-Encoding")) {
      // cpp-httplib refuses a body-carrying method whose length it cannot know.
      send_error(res, 400, "Content-Length: missing; a POST says its body's length (0 for none)",
                 "Content-Length");
    } else {
      send_error(res, res.status, fmt::format("HTTP {}", res.status));
    }
    return httplib::Server::HandlerResponse::Handled;
  }));
  svr.set_exception_handler(
      [](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
        send_error(res, 500, "internal error (a bug in memlab)");
      });

  add_api_routes(svr, s);
  add_check_routes(svr, s);
  add_class_routes(svr, s);

  // The bundle: "/" is web/index.html; other paths are looked up in the embedded files only.
  svr.Get("/(.*)", [](const httplib::Request& req, httplib::Response& res) {
    std::string path = req.matches[1];
    if (path.empty()) path = "index.html";
    if (path.starts_with("api/"))
      return send_error(res, 404, "no route GET /" + path.substr(0, 200), "path");
    std::optional<std::string_view> file;
    if (safe_static_path(path)) {
      file = embedded::find("web/" + path);
      if (!file && path.starts_with("wasm/")) file = embedded::find(path);
    }
    if (!file) return send_error(res, 404, "no file /" + path.substr(0, 200), "path");
    res.set_header("Content-Security-Policy",
                   "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
                   "script-src 'self' 'wasm-unsafe-eval'; frame-ancestors 'none'");
    res.set_content(std::string(*file), mime_type(path));
  });
}

Server::Server(ServerOptions options) {
  if (options.port < 0 || options.port > 65535) {
    throw UsageError(fmt::format("--port: {} is out of range; accepted: 0..65535", options.port));
  }
  if (options.host.empty() || options.host.size() > 255)
    throw UsageError("--host: empty or too long");
  if (!is_loopback_host(options.host) && options.token.empty() && options.class_dir.empty()) {
    throw UsageError(fmt::format(
        "--host: {} is not a loopback address; serving to the network needs an explicit --token "
        "(at least 16 characters)",
        options.host));
  }
  if (!options.token.empty() && options.token.size() < 16) {
    throw UsageError("--token: shorter than 16 characters; accepted: 16..256 characters");
  }
  if (options.token.size() > 256) throw UsageError("--token: longer than 256 characters");
  if (options.token.empty()) options.token = random_token();
  // A client that hangs up mid-response must not kill the process.
  std::signal(SIGPIPE, SIG_IGN);
  impl_ = std::make_unique<Impl>(options);
  impl_->state.info = query_info();
  impl_->state.list = list_json();
  impl_->configure();
}

Server::~Server() {
  stop();
}

int Server::bind() {
  const auto& o = impl_->state.options;
  const int port = o.port == 0 ? impl_->svr.bind_to_any_port(o.host)
                               : (impl_->svr.bind_to_port(o.host, o.port) ? o.port : -1);
  if (port < 0) {
    throw UsageError(
        fmt::format("--port: cannot listen on {}:{} (in use, or --host is not an "
                    "address of this machine)",
                    o.host, o.port));
  }
  impl_->state.port = port;
  impl_->bound = true;
  return port;
}

void Server::listen() {
  impl_->svr.listen_after_bind();
}

int Server::start_in_background() {
  const int port = bind();
  impl_->thread = std::thread([this] { impl_->svr.listen_after_bind(); });
  return port;
}

void Server::stop() {
  if (!impl_) return;
  // stop() only reaches a server whose accept loop runs: give a just-started thread a moment.
  for (int i = 0; i < 200 && impl_->thread.joinable() && !impl_->svr.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  impl_->svr.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

std::string Server::url() const {
  const std::string& h = impl_->state.options.host;
  const std::string shown = h.find(':') != std::string::npos ? "[" + h + "]" : h;
  // A class lab prints no token here: each person has their own (memlab class init).
  if (impl_->state.store) return fmt::format("http://{}:{}/", shown, impl_->state.port);
  return fmt::format("http://{}:{}/?token={}", shown, impl_->state.port,
                     impl_->state.options.token);
}

const std::string& Server::token() const {
  return impl_->state.options.token;
}

}  // namespace memlab::server
