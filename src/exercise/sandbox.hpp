// The compile sandbox (issue 21, hole 1): a learner's source is compiled by NVRTC inside this
// process, and NVRTC opens whatever path an `#include` names. run_without_files() runs a
// function on a fresh thread whose seccomp filter answers every system call that names a path
// (open, stat, readlink, exec, ...) and every socket with EACCES, so nothing the source says can
// read a byte, or learn the existence, of a host file. The filter is per thread: the rest of
// the process (the server, the CLI) keeps its files. Linux only; fails closed.
#pragma once

#include <functional>
#include <stdexcept>

namespace memlab::exercise {

// The filter could not be installed (a kernel without seccomp, a platform memlab does not know):
// memlab then compiles no learner code at all.
class SandboxUnavailable : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs `fn` on a new thread under the filter and joins it; rethrows what `fn` throws. Throws
// SandboxUnavailable when the filter cannot be installed (then `fn` does not run).
void run_without_files(const std::function<void()>& fn);

}  // namespace memlab::exercise
