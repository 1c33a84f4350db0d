// Small helpers shared by the server's route files (internal to src/server).
#pragma once

#include <httplib.h>

#include <nlohmann/json.hpp>
#include <string>

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

// The request body as JSON; throws ApiError(400, "body") naming the byte of a syntax error.
nlohmann::json parse_body(const httplib::Request& req);

}  // namespace memlab::server
