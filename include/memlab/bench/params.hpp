// Axes and parameter points (host-only). An axis is either an integer axis (sizes, strides, with
// an accepted range; values may use binary suffixes: 64Ki, 256Mi, 1Gi, or powers: 2^28) or a
// choice axis (a fixed set of words). A Params is one point of the cartesian product.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace memlab::bench {

struct AxisSpec {
  enum class Kind { Int, Choice };
  std::string name;
  Kind kind = Kind::Int;
  std::vector<std::string> defaults;  // the values a plain run uses
  std::vector<std::string> quick;     // the values --quick uses (empty: the defaults)
  std::int64_t min = 1;               // Int axes: accepted range, inclusive
  std::int64_t max = INT64_MAX;
  std::vector<std::string> choices;  // Choice axes: accepted words
  std::string help;

  // Throws UsageError naming the axis and what it accepts. Returns the canonical spelling.
  std::string validate(const std::string& value) const;
  std::string accepted() const;  // "an integer in [1, 2^31]" or "one of a, b, c"
};

// One point: axis name -> canonical value, in axis declaration order.
class Params {
 public:
  Params() = default;
  explicit Params(std::vector<std::pair<std::string, std::string>> values)
      : values_(std::move(values)) {}

  std::int64_t n(const std::string& axis) const;        // integer value; throws if absent
  const std::string& s(const std::string& axis) const;  // raw value; throws if absent
  bool has(const std::string& axis) const;
  void set(const std::string& axis, const std::string& value);
  const std::vector<std::pair<std::string, std::string>>& values() const { return values_; }
  std::string label() const;  // "n=268435456 stride=4"

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

// "n=268435456 stride=4": the one spelling of an axis point in tables, CSV and comparisons.
std::string format_point(const std::vector<std::pair<std::string, std::string>>& values);

// Parses an integer with an optional binary suffix (Ki, Mi, Gi, K, M, G) or a power "2^k".
// Throws UsageError mentioning `what` on malformed input.
std::int64_t parse_integer(const std::string& text, const std::string& what);

// "n=1,2,3" -> {"n", {"1","2","3"}}. Throws UsageError on malformed input.
std::pair<std::string, std::vector<std::string>> parse_axis_override(const std::string& text);

// Splits "a,b,c" into words; empty words are an error naming `what`.
std::vector<std::string> split_list(const std::string& text, const std::string& what);

// The cartesian product of the axes, each with its default (or quick) values unless overridden.
// Overrides naming axes not in `axes` are ignored here (the CLI checks them across experiments).
std::vector<Params> expand_axes(const std::vector<AxisSpec>& axes,
                                const std::map<std::string, std::vector<std::string>>& overrides,
                                bool quick);

// Human-readable byte count: "1.00 GiB".
std::string format_bytes(double bytes);

}  // namespace memlab::bench
