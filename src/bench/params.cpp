#include "memlab/bench/params.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "memlab/bench/seed.hpp"
#include "memlab/common/error.hpp"

namespace memlab::bench {

std::int64_t parse_integer(const std::string& text, const std::string& what) {
  auto fail = [&](const char* why) -> std::int64_t {
    throw UsageError(
        fmt::format("{}: '{}' is not {}; accepted: a positive integer, optionally "
                    "with a suffix Ki/Mi/Gi (or K/M/G) or written 2^k",
                    what, text, why));
  };
  if (text.empty()) return fail("a number");
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (text.size() > 2 && text[0] == '2' && text[1] == '^') {
    std::int64_t k = 0;
    auto [p, ec] = std::from_chars(first + 2, last, k);
    if (ec != std::errc() || p != last) return fail("a number");
    if (k < 0 || k > 62) return fail("in range (2^0 .. 2^62)");
    return std::int64_t{1} << k;
  }
  if (text[0] == '-') return fail("positive");
  std::int64_t value = 0;
  auto [p, ec] = std::from_chars(first, last, value);
  if (ec == std::errc::result_out_of_range) return fail("in range");
  if (ec != std::errc() || p == first) return fail("a number");
  std::string suffix(p, last);
  std::int64_t mult = 1;
  if (suffix.empty()) {
    mult = 1;
  } else if (suffix == "K" || suffix == "Ki" || suffix == "k") {
    mult = std::int64_t{1} << 10;
  } else if (suffix == "M" || suffix == "Mi") {
    mult = std::int64_t{1} << 20;
  } else if (suffix == "G" || suffix == "Gi") {
    mult = std::int64_t{1} << 30;
  } else {
    return fail("a number with a known suffix");
  }
  if (value > INT64_MAX / mult) return fail("in range");
  return value * mult;
}

std::uint64_t parse_seed(const std::string& text, const std::string& what) {
  std::uint64_t value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  const bool digits = !text.empty() && text.size() <= 20 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  auto [p, ec] = std::from_chars(first, last, value);
  if (!digits || ec != std::errc() || p != last) {
    throw UsageError(
        fmt::format("{}: '{}' is not accepted; accepted: an integer in 0..{} "
                    "(decimal digits, as memlab prints seeds)",
                    what, text, UINT64_MAX));
  }
  return value;
}

std::string AxisSpec::accepted() const {
  if (kind == Kind::Choice) return fmt::format("one of {}", fmt::join(choices, ", "));
  if (max == INT64_MAX) return fmt::format("an integer >= {}", min);
  return fmt::format("an integer in [{}, {}]", min, max);
}

std::string AxisSpec::validate(const std::string& value) const {
  if (kind == Kind::Choice) {
    if (std::find(choices.begin(), choices.end(), value) == choices.end()) {
      throw UsageError(
          fmt::format("axis {}: '{}' is not accepted; accepted: {}", name, value, accepted()));
    }
    return value;
  }
  const std::int64_t v = parse_integer(value, fmt::format("axis {}", name));
  if (v < min || v > max) {
    throw UsageError(
        fmt::format("axis {}: {} is out of range; accepted: {}", name, value, accepted()));
  }
  return std::to_string(v);
}

const std::string& Params::s(const std::string& axis) const {
  for (const auto& [k, v] : values_) {
    if (k == axis) return v;
  }
  throw std::logic_error(fmt::format("parameter '{}' is not an axis of this experiment", axis));
}

std::int64_t Params::n(const std::string& axis) const {
  return parse_integer(s(axis), axis);
}

bool Params::has(const std::string& axis) const {
  return std::any_of(values_.begin(), values_.end(),
                     [&](const auto& kv) { return kv.first == axis; });
}

void Params::set(const std::string& axis, const std::string& value) {
  for (auto& [k, v] : values_) {
    if (k == axis) {
      v = value;
      return;
    }
  }
  values_.emplace_back(axis, value);
}

std::string format_point(const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  for (const auto& [k, v] : values) {
    if (!out.empty()) out += ' ';
    out += k + '=' + v;
  }
  return out;
}

std::string Params::label() const {
  return format_point(values_);
}

std::vector<std::string> split_list(const std::string& text, const std::string& what) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    std::string word =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (word.empty()) {
      throw UsageError(
          fmt::format("{}: empty value in '{}'; accepted: a comma-separated list", what, text));
    }
    out.push_back(std::move(word));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

std::pair<std::string, std::vector<std::string>> parse_axis_override(const std::string& text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw UsageError(
        fmt::format("-a/--axis: '{}' is malformed; accepted: NAME=V1,V2,... (e.g. n=1Gi)", text));
  }
  std::string name = text.substr(0, eq);
  return {name, split_list(text.substr(eq + 1), fmt::format("-a/--axis {}", name))};
}

std::vector<Params> expand_axes(const std::vector<AxisSpec>& axes,
                                const std::map<std::string, std::vector<std::string>>& overrides,
                                bool quick) {
  std::vector<Params> points{Params{}};
  for (const AxisSpec& axis : axes) {
    std::vector<std::string> values;
    if (auto it = overrides.find(axis.name); it != overrides.end()) {
      for (std::size_t i = 0; i < it->second.size(); ++i) {
        std::string v = axis.validate(it->second[i]);
        if (auto dup = std::find(values.begin(), values.end(), v); dup != values.end()) {
          const std::string& earlier = it->second[static_cast<std::size_t>(dup - values.begin())];
          throw UsageError(fmt::format(
              "axis {}: '{}' is given twice{}; accepted: each value once", axis.name, it->second[i],
              earlier == it->second[i] ? "" : fmt::format(" (also as '{}')", earlier)));
        }
        values.push_back(std::move(v));
      }
    } else {
      const auto& src = (quick && !axis.quick.empty()) ? axis.quick : axis.defaults;
      for (const auto& v : src) values.push_back(axis.validate(v));
    }
    std::vector<Params> next;
    for (const Params& p : points) {
      for (const auto& v : values) {
        Params q = p;
        q.set(axis.name, v);
        next.push_back(std::move(q));
      }
    }
    points = std::move(next);
  }
  return points;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024.0 && u < 4) {
    bytes /= 1024.0;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", bytes, units[u]);
}

}  // namespace memlab::bench
