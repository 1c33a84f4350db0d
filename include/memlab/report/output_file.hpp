// An output file (--json, --csv, --md, --report, -o, ...) opened before any GPU work, so that a bad
// path fails in milliseconds instead of after a long run: a missing folder, a folder, no
// permission and a full disk (no free block, or a device such as /dev/full) are UsageErrors. The
// file is created when missing; an existing file keeps its content until write(). A file this
// object created and never wrote is removed again (a run that fails or finds no GPU leaves nothing
// behind). Host-only, POSIX.
#pragma once

#include <string>

namespace memlab::report {

class OutputFile {
 public:
  OutputFile() = default;
  // Throws UsageError "OPTION: cannot open 'PATH' for writing (reason)" or, for a full disk,
  // "OPTION: cannot write 'PATH' (No space left on device)".
  OutputFile(std::string path, std::string option);
  ~OutputFile();
  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  bool is_open() const { return fd_ >= 0; }
  const std::string& path() const { return path_; }
  // Replaces the content with `text` and closes the file. Throws UsageError naming the option.
  void write(const std::string& text);

 private:
  void close_and_maybe_remove() noexcept;
  void check_space();

  std::string path_, option_;
  int fd_ = -1;
  bool created_ = false;  // this object created the file
  bool written_ = false;
};

}  // namespace memlab::report
