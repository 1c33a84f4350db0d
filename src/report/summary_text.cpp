// report::render_summary: run_summary's JSON as about 40 lines of text.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "headline_detail.hpp"
#include "memlab/report/headline.hpp"

namespace memlab::report {

using detail::number;
using detail::text;
using nlohmann::json;

namespace {

std::string format_value(double v) {
  const double a = std::fabs(v);
  if (a >= 100) return fmt::format("{:.0f}", v);
  if (a >= 10) return fmt::format("{:.1f}", v);
  if (a >= 0.1) return fmt::format("{:.2f}", v);
  return fmt::format("{:.3g}", v);
}

// "n=268435456 op=copy" -> "n=2^28 op=copy": powers of two from 1024 on as 2^k.
std::string short_point(const std::string& at) {
  std::string out, word;
  auto flush = [&] {
    const auto eq = word.find('=');
    if (eq != std::string::npos) {
      const std::string v = word.substr(eq + 1);
      const bool digits =
          !v.empty() && v.size() < 20 &&
          std::all_of(v.begin(), v.end(), [](char c) { return c >= '0' && c <= '9'; });
      if (digits) {
        const std::uint64_t n = std::stoull(v);
        if (n >= 1024 && (n & (n - 1)) == 0) {
          int k = 0;
          while ((std::uint64_t{1} << k) != n) ++k;
          word = word.substr(0, eq + 1) + "2^" + std::to_string(k);
        }
      }
    }
    if (!word.empty()) out += (out.empty() ? "" : " ") + word;
    word.clear();
  };
  for (char c : at) {
    if (c == ' ') {
      flush();
    } else {
      word += c;
    }
  }
  flush();
  return out;
}

std::string plural(long n, const char* one, const char* many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string claims_line(const json& counts) {
  if (!counts.is_object()) return "";
  struct Word {
    const char* key;
    const char* one;
    const char* many;
  };
  static const Word words[] = {
      {"holds", "holds", "hold"},
      {"holds_different", "holds with another number", "hold with another number"},
      {"does_not_hold", "does not hold", "do not hold"},
      {"not_testable", "not testable here", "not testable here"},
      {"no_record", "without a record", "without a record"}};
  std::string out;
  for (const Word& w : words) {
    const long n = static_cast<long>(number(counts, w.key));
    if (n > 0) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", n, n == 1 ? w.one : w.many);
  }
  for (const auto& [key, value] : counts.items()) {  // a verdict this build does not know yet
    const bool known = std::any_of(std::begin(words), std::end(words),
                                   [&](const Word& w) { return key == w.key; });
    if (!known && value.is_number() && value.get<double>() > 0) {
      std::string word = key;
      std::replace(word.begin(), word.end(), '_', ' ');
      out += fmt::format("{}{} {}", out.empty() ? "" : ", ", value.get<long>(), word);
    }
  }
  return out.empty() ? "" : "claims: " + out;
}

std::vector<std::string> lesson_cells(const json& lesson) {
  const json& h = lesson["headline"];
  const std::string name = text(lesson, "experiment");
  if (!h.is_object() || !h.contains("best") || !h["best"].is_object()) {
    const json c = h.is_object() ? h.value("counts", json::object()) : json::object();
    std::string why = "nothing timed";
    if (number(c, "verified") > 0)
      why = fmt::format("{} verified, not timed", number(c, "verified"));
    return {name, why, "", "", "", ""};
  }
  const std::string unit = text(h, "unit");
  std::vector<std::string> row{name, fmt::format("{} {} {}", text(h["best"], "variant"),
                                                 format_value(number(h["best"], "value")), unit)};
  if (h.contains("baseline") && h["baseline"].is_object() &&
      text(h["baseline"], "variant") != text(h["best"], "variant")) {
    row.push_back(fmt::format("{:.2f}x {}", number(h, "speedup"), text(h["baseline"], "variant")));
  } else {
    row.emplace_back(h.contains("baseline") && h["baseline"].is_object() ? "(is the baseline)"
                                                                         : "");
  }
  const bool vendor_is_baseline = h.contains("baseline") && h["baseline"].is_object() &&
                                  h.contains("vendor") && h["vendor"].is_object() &&
                                  text(h["vendor"], "variant") == text(h["baseline"], "variant");
  if (h.contains("vendor") && h["vendor"].is_object() && !vendor_is_baseline) {
    row.push_back(fmt::format("{:.0f}% {}", number(h, "pct_vendor"), text(h["vendor"], "variant")));
  } else {
    row.emplace_back("");
  }
  const json m = h.value("model", json::object());
  row.push_back(
      number(m, "of") > 0 ? fmt::format("{}/{}", number(m, "within_15pct"), number(m, "of")) : "");
  row.push_back(short_point(text(lesson, "varying")));
  return row;
}

}  // namespace

std::string render_summary(const json& s, const SummaryTextOptions& o) {
  std::string out;
  // The run.
  std::string head = fmt::format("memlab {}", text(s, "version"));
  if (!text(s, "commit").empty()) head += fmt::format(" ({})", text(s, "commit"));
  if (!text(s, "device").empty()) {
    head += fmt::format(" on {} (#{})", text(s, "device"), number(s, "ordinal"));
  }
  if (!text(s, "date").empty()) head += ", " + text(s, "date");
  if (s.contains("seed") && s["seed"].is_number()) head += ", seed " + s["seed"].dump();
  if (s.value("quick", false)) head += ", --quick";
  out += head + "\n";
  const json c = s.value("clocks", json::object());
  std::string line;
  if (number(c, "sm_start") > 0) {
    auto range = [&](const char* a, const char* b) {
      return number(c, a) == number(c, b) ? fmt::format("{}", number(c, a))
                                          : fmt::format("{} -> {}", number(c, a), number(c, b));
    };
    line = fmt::format("clocks SM {} MHz, memory {} MHz", range("sm_start", "sm_end"),
                       range("mem_start", "mem_end"));
  }
  if (number(s, "memcpy_gbps") > 0) {
    line += fmt::format("{}memcpy ceiling {:.1f} GB/s", line.empty() ? "" : "; ",
                        number(s, "memcpy_gbps"));
    if (number(s, "peak_bandwidth_gbps") > 0) {
      line += fmt::format(" ({:.1f}% of the {:.1f} GB/s peak)",
                          100.0 * number(s, "memcpy_gbps") / number(s, "peak_bandwidth_gbps"),
                          number(s, "peak_bandwidth_gbps"));
    }
  }
  if (!line.empty()) out += line + "\n";
  const json n = s.value("records", json::object());
  line = fmt::format("{}: {} timed",
                     plural(static_cast<long>(number(n, "total")), "record", "records"),
                     number(n, "timed"));
  if (number(n, "verified") > 0)
    line += fmt::format(", {} verified (not timed)", number(n, "verified"));
  if (number(n, "expected_failure") > 0) {
    line += fmt::format(", {} (broken on purpose, caught)",
                        plural(static_cast<long>(number(n, "expected_failure")), "expected failure",
                               "expected failures"));
  }
  if (number(n, "skipped") > 0) line += fmt::format(", {} skipped", number(n, "skipped"));
  if (number(n, "failed") > 0) line += fmt::format(", {} FAILED", number(n, "failed"));
  out += line + "\n";
  if (const std::string cl = claims_line(s.value("claims", json(nullptr))); !cl.empty()) {
    out += cl + "\n";
  }

  // One line per lesson.
  std::vector<std::vector<std::string>> rows{
      {"lesson", "best (not a vendor line)", "vs baseline", "vs vendor", "model +-15%", "at"}};
  for (const json& lesson : s.value("lessons", json::array())) rows.push_back(lesson_cells(lesson));
  if (rows.size() > 1) {
    std::vector<std::size_t> width(rows.front().size(), 0);
    for (const auto& r : rows) {
      for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
    }
    out += "\n";
    for (const auto& r : rows) {
      std::string l;
      for (std::size_t i = 0; i < r.size(); ++i) {
        l += i + 1 < r.size() ? fmt::format("{:<{}}  ", r[i], width[i]) : r[i];
      }
      while (!l.empty() && l.back() == ' ') l.pop_back();
      out += l + "\n";
    }
  }

  // Skips, per reason.
  const json skips = s.value("skips", json::array());
  if (!skips.empty()) {
    out += fmt::format("\n{} skipped, by reason:\n", number(n, "skipped"));
    const std::size_t shown =
        o.max_skip_reasons == 0 ? skips.size() : std::min(skips.size(), o.max_skip_reasons);
    for (std::size_t i = 0; i < shown; ++i) {
      out += fmt::format("  {:>4} {}: {}\n", number(skips[i], "count"),
                         text(skips[i], "experiment"), text(skips[i], "reason"));
    }
    if (shown < skips.size()) {
      double rest = 0;
      for (std::size_t i = shown; i < skips.size(); ++i) rest += number(skips[i], "count");
      out += fmt::format("  ... and {} more {}, {} records (all: memlab summary {} --all)\n",
                         skips.size() - shown, skips.size() - shown == 1 ? "reason" : "reasons",
                         rest, o.run_path.empty() ? "RUN.json" : o.run_path);
    }
  }

  // Failures.
  const json failures = s.value("failures", json::array());
  if (!failures.empty()) {
    out += fmt::format("\n{} FAILED:\n", failures.size());
    const std::size_t shown =
        o.max_failures == 0 ? failures.size() : std::min(failures.size(), o.max_failures);
    for (std::size_t i = 0; i < shown; ++i) {
      const json& f = failures[i];
      out += fmt::format("  {} {} {}: {}\n", text(f, "experiment"), text(f, "variant"),
                         short_point(text(f, "at")), text(f, "detail"));
    }
    if (shown < failures.size()) out += fmt::format("  ... {} more\n", failures.size() - shown);
  }

  // Where the files are.
  std::string written;
  for (const json& w : s.value("outputs", json::array())) {
    written +=
        fmt::format("{}{} {}", written.empty() ? "" : ", ", text(w, "what"), text(w, "path"));
  }
  if (!written.empty()) out += "written: " + written + "\n";
  return out;
}

}  // namespace memlab::report
