#include "memlab/cli/progress.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cmath>
#include <iostream>

namespace memlab::cli {

std::string format_duration(double seconds) {
  const long s = seconds > 0 ? std::lround(seconds) : 0;
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  return fmt::format("{}h{:02}m", s / 3600, (s % 3600) / 60);
}

std::string format_eta(double elapsed_s, std::size_t done, std::size_t total) {
  std::string out = fmt::format("{}/{}, {}", done, total, format_duration(elapsed_s));
  if (done > 0 && total > done) {
    const double left = elapsed_s / static_cast<double>(done) * static_cast<double>(total - done);
    out += fmt::format(", about {} left", format_duration(left));
  }
  return out;
}

std::string ProgressLine::line(const bench::ProgressEvent& e) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (e.stage != bench::ProgressEvent::Stage::Measure || e.total == 0) {
    return fmt::format("{}: {}", format_duration(elapsed), bench::format_progress(e));
  }
  const std::size_t total = e.total * static_cast<std::size_t>(passes_);
  const std::size_t index = e.total * static_cast<std::size_t>(pass_) + e.index;  // 1-based
  std::string what = fmt::format("{} {} {}", e.experiment, e.variant, e.point);
  if (passes_ > 1) what += fmt::format(" [run {}/{}]", pass_ + 1, passes_);
  return format_eta(elapsed, index - 1, total) + ": " + what;  // the ETA first: it is never cut
}

void ProgressLine::print(const bench::ProgressEvent& e) {
  std::string text = "[memlab] " + line(e);
  // One terminal row: a wrapped line would not be erased by the next "\r\x1b[K".
  winsize w{};
  if (::ioctl(STDERR_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 10 && text.size() >= w.ws_col) {
    text = text.substr(0, w.ws_col - 4) + "...";
  }
  std::cerr << "\r\x1b[K" << text << std::flush;
}

void ProgressLine::clear() {
  std::cerr << "\r\x1b[K" << std::flush;
}

}  // namespace memlab::cli
