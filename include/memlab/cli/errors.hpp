// The one place that turns an exception escaping a subcommand into memlab's exit code and its
// one-line message: usage errors 2, CUDA errors 3, everything else is a bug in memlab (4).
#pragma once

#include <exception>
#include <ostream>

namespace memlab::cli {

// Writes "memlab: ..." (one line) to `err` and returns the exit code for `error`:
// CLI::ParseError and UsageError -> kExitUsage; CudaError -> kExitCuda; any other exception
// (std::logic_error, std::bad_alloc, a JSON type error, a non-std exception) -> kExitInternal.
// The help and version "errors" of CLI11 are not handled here (main lets CLI11 print them).
int report_error(const std::exception_ptr& error, std::ostream& err);

}  // namespace memlab::cli
