// An HTTP error the routes answer as {"error": message, "parameter": parameter}.
#pragma once

#include <stdexcept>
#include <string>

namespace memlab::server {

class ApiError : public std::runtime_error {
 public:
  ApiError(int status, std::string parameter, const std::string& message)
      : std::runtime_error(message), status_(status), parameter_(std::move(parameter)) {}
  int status() const { return status_; }
  const std::string& parameter() const { return parameter_; }

 private:
  int status_;
  std::string parameter_;
};

// The parameter a memlab::UsageError message names: the text before its first ": "
// ("--stride: 0 is out of range" -> "--stride", "axis n: ..." -> "axis n").
std::string parameter_of(const std::string& usage_message);

}  // namespace memlab::server
