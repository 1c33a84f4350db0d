#include "unified_memory/honesty.hpp"

#include <fmt/format.h>

#include <optional>

namespace memlab::lessons::unified_memory {
namespace {

std::optional<double> figure(const bench::Record& r, const char* name) {
  for (const auto& [key, value] : r.figures) {
    if (key == name) return value;
  }
  return std::nullopt;
}

std::string point_label(const bench::Record& r) {
  std::string out;
  for (const auto& [key, value] : r.params) out += (out.empty() ? "" : ", ") + key + "=" + value;
  return out;
}

// explicit's copy at the record's point: its transfer figure, else its whole time.
std::optional<double> explicit_copy_ms(const std::vector<bench::Record>& records,
                                       const bench::Record& at) {
  for (const bench::Record& r : records) {
    if (r.experiment != at.experiment || r.variant != "explicit" || !r.timed) continue;
    if (r.params != at.params) continue;
    return figure(r, kTransferFigure).value_or(r.stats.median);
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> faster_than_the_link(const std::vector<bench::Record>& records) {
  std::vector<std::string> out;
  for (const bench::Record& r : records) {
    if (r.experiment != "unified_memory" || !r.timed || r.variant == "explicit") continue;
    const std::optional<double> copy = explicit_copy_ms(records, r);
    if (!copy || !(*copy > 0)) continue;
    if (r.stats.median < kLinkFloor * *copy) {
      out.push_back(fmt::format(
          "{} at {}: {:.3f} ms, under {} x explicit's copy of the same data ({:.3f} ms): it "
          "cannot have brought the data from host memory (it was already on the GPU)",
          r.variant, point_label(r), r.stats.median, kLinkFloor, *copy));
    }
  }
  return out;
}

}  // namespace memlab::lessons::unified_memory
