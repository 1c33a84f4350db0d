// Small helpers shared by the server's route files (internal to src/server).
#pragma once

#include <httplib.h>

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <string>

#include "api_error.hpp"
#include "memlab/common/error.hpp"

namespace memlab::server {

inline void send_json(httplib::Response& res, int status, const nlohmann::json& body) {
  res.status = status;
  // Replace invalid UTF-8 instead of throwing: error messages may quote what a client sent.
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                  "application/json");
}

inline void send_error(httplib::Response& res, int status, const std::string& message,
                       const std::string& parameter = "") {
  nlohmann::json body = {{"error", message}};
  if (!parameter.empty()) body["parameter"] = parameter;
  send_json(res, status, body);
}

// Runs a handler, turning its exceptions into JSON errors.
template <typename F>
void guarded(httplib::Response& res, F&& f) {
  try {
    f();
  } catch (const ApiError& e) {
    send_error(res, e.status(), e.what(), e.parameter());
  } catch (const UsageError& e) {
    send_error(res, 400, e.what(), parameter_of(e.what()));
  } catch (const std::exception& e) {
    send_error(res, 500, fmt::format("internal error (a bug in memlab): {}", e.what()));
  }
}

// The request body as JSON; throws ApiError(400, "body") naming the byte of a syntax error.
nlohmann::json parse_body(const httplib::Request& req);

}  // namespace memlab::server
