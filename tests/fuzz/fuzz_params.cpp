// libFuzzer harness: axis and size parsing (src/bench/params.cpp). Every input either parses or
// throws memlab::UsageError; anything else (another exception, a sanitizer report) is a bug.
#include <cstddef>
#include <cstdint>
#include <string>

#include "memlab/bench/params.hpp"
#include "memlab/common/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  using memlab::bench::AxisSpec;
  try {
    const std::int64_t v = memlab::bench::parse_integer(text, "--size");
    if (v < 0) __builtin_trap();  // parse_integer promises a non-negative value
  } catch (const memlab::UsageError&) {
  }
  try {
    auto [name, values] = memlab::bench::parse_axis_override(text);
    if (name.empty() || values.empty()) __builtin_trap();
    AxisSpec n{"n", AxisSpec::Kind::Int, {"1"}, {}, 1, std::int64_t{1} << 40, {}, ""};
    AxisSpec op{"op", AxisSpec::Kind::Choice, {"read"}, {}, 1, INT64_MAX, {"read", "write"}, ""};
    std::map<std::string, std::vector<std::string>> overrides{{name, values}};
    const auto points = memlab::bench::expand_axes({n, op}, overrides, false);
    for (const auto& p : points) {
      if (memlab::bench::format_point(p.values()).empty()) __builtin_trap();
      (void)p.n("n");
    }
  } catch (const memlab::UsageError&) {
  }
  try {
    (void)memlab::bench::split_list(text, "-v/--variants");
  } catch (const memlab::UsageError&) {
  }
  return 0;
}
