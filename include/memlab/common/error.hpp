// Host-only error types shared by every layer of memlab (no CUDA headers).
#pragma once

#include <stdexcept>
#include <string>

namespace memlab {

// A bad input from the user: one line naming the parameter and what is accepted.
// The CLI turns it into exit code 2 before anything is allocated on the device.
class UsageError : public std::runtime_error {
 public:
  explicit UsageError(const std::string& message) : std::runtime_error(message) {}
};

// Exit codes of the memlab command (documented in the README).
enum ExitCode : int {
  kExitOk = 0,
  kExitVerificationFailed = 1,  // also: a regression found by `memlab compare`
  kExitUsage = 2,
  kExitCuda = 3,      // no CUDA device, or a CUDA error
  kExitInternal = 4,  // an internal error: a bug in memlab (logic_error, bad_alloc, JSON type, ...)
};

// Where an internal error asks to be reported (printed with the message of exit code 4).
inline constexpr const char* kReportBugsAt =
    "the memlab issue tracker (see README.md, 'Exit codes')";

}  // namespace memlab
