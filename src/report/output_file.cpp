#include "memlab/report/output_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "memlab/common/error.hpp"

namespace memlab::report {

OutputFile::OutputFile(std::string path, std::string option)
    : path_(std::move(path)), option_(std::move(option)) {
  if (path_.empty()) {
    throw UsageError(fmt::format("{}: empty path; accepted: a file name", option_));
  }
  // O_EXCL first: tells whether this object creates the file (and so may remove it again).
  fd_ = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd_ >= 0) {
    created_ = true;
    check_space();
    return;
  }
  if (errno == EEXIST) {
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) errno = EISDIR;
    if (errno != EISDIR) fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
  }
  if (fd_ < 0) {
    throw UsageError(
        fmt::format("{}: cannot open '{}' for writing ({})", option_, path_, std::strerror(errno)));
  }
  check_space();
}

// A full disk fails now, not after the run: a write of no bytes reports it for a device such as
// /dev/full; an empty regular file on a file system without a free block will not take the text.
void OutputFile::check_space() {
  int error = 0;
  if (::write(fd_, "", 0) < 0) error = errno;
  struct stat st {};
  struct statvfs fs {};
  if (error == 0 && ::fstat(fd_, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0 &&
      ::fstatvfs(fd_, &fs) == 0 && fs.f_blocks > 0) {
    const auto free_blocks = ::geteuid() == 0 ? fs.f_bfree : fs.f_bavail;  // root: the reserve too
    if (free_blocks == 0) error = ENOSPC;
  }
  if (error == 0) return;
  close_and_maybe_remove();
  throw UsageError(fmt::format("{}: cannot write '{}' ({})", option_, path_, std::strerror(error)));
}

OutputFile::~OutputFile() {
  close_and_maybe_remove();
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : path_(std::move(other.path_)),
      option_(std::move(other.option_)),
      fd_(std::exchange(other.fd_, -1)),
      created_(other.created_),
      written_(other.written_) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    close_and_maybe_remove();
    path_ = std::move(other.path_);
    option_ = std::move(other.option_);
    fd_ = std::exchange(other.fd_, -1);
    created_ = other.created_;
    written_ = other.written_;
  }
  return *this;
}

void OutputFile::close_and_maybe_remove() noexcept {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  if (created_ && !written_) ::unlink(path_.c_str());
}

void OutputFile::write(const std::string& text) {
  auto fail = [&] {
    throw UsageError(
        fmt::format("{}: cannot write '{}' ({})", option_, path_, std::strerror(errno)));
  };
  if (fd_ < 0) {
    errno = EBADF;
    fail();
  }
  struct stat st {};
  if (::fstat(fd_, &st) != 0) fail();
  // A regular file is replaced; a device (/dev/null, /dev/stdout) cannot be truncated.
  if (S_ISREG(st.st_mode) && (::ftruncate(fd_, 0) != 0 || ::lseek(fd_, 0, SEEK_SET) != 0)) fail();
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail();
    }
    done += static_cast<std::size_t>(n);
  }
  written_ = true;
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail();
  }
  fd_ = -1;
}

}  // namespace memlab::report
