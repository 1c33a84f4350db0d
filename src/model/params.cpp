// Parameters of the models as the user spells them: see include/memlab/model/params.hpp.
#include "memlab/model/params.hpp"

#include <fmt/format.h>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "memlab/common/error.hpp"

namespace memlab::model {
namespace {

using nlohmann::json;

// "2^48" for large powers of two, the plain number otherwise.
std::string limit_text(const json& v) {
  if (v.is_number_unsigned() || v.is_number_integer()) {
    const auto u = v.is_number_unsigned() ? v.get<std::uint64_t>()
                                          : static_cast<std::uint64_t>(v.get<std::int64_t>());
    if (v.is_number_unsigned() || v.get<std::int64_t>() > 0) {
      if (u == std::numeric_limits<std::uint64_t>::max()) return "2^64 - 1";
      if (u >= (1u << 16) && (u & (u - 1)) == 0) {
        int k = 0;
        while ((std::uint64_t{1} << k) != u) ++k;
        return fmt::format("2^{}", k);
      }
    }
    return v.dump();
  }
  if (v.is_number_float()) return fmt::format("{:g}", v.get<double>());
  return v.dump();
}

// The value as the user gave it, for "(got ...)".
std::string shown(const json& v) {
  if (v.is_string()) return fmt::format("'{}'", v.get<std::string>());
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());
  return v.dump();
}

const char* type_noun(ParamType type) {
  switch (type) {
    case ParamType::kInt:
    case ParamType::kIntList:
      return "an integer";
    case ParamType::kUint:
      return "an integer >= 0";
    case ParamType::kFloat:
    case ParamType::kSegmentList:
      return "a finite number";
    case ParamType::kChoice:
      return "a name";
    case ParamType::kBool:
      return "true or false";
  }
  return "a value";
}

[[noreturn]] void fail_type(const ParamSpec& spec, const json& v) {
  std::string accepted = type_noun(spec.type);
  if (!spec.min.is_null() && !spec.max.is_null()) accepted += " in " + range_text(spec);
  fail(spec, fmt::format("must be {} (got {})", accepted, shown(v)));
}

// Decimal digits with an optional sign, nothing else (no hex, no octal, no exponent, no spaces).
bool parse_decimal(const std::string& s, bool& negative, std::uint64_t& magnitude, bool& overflow) {
  std::size_t i = 0;
  negative = false;
  if (i < s.size() && (s[i] == '-' || s[i] == '+')) negative = s[i++] == '-';
  if (i == s.size()) return false;
  magnitude = 0;
  overflow = false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    const auto digit = static_cast<std::uint64_t>(s[i] - '0');
    if (magnitude > (std::numeric_limits<std::uint64_t>::max() - digit) / 10) overflow = true;
    magnitude = magnitude * 10 + digit;
  }
  return true;
}

}  // namespace

std::string_view to_string(ParamType type) {
  switch (type) {
    case ParamType::kInt:
      return "int";
    case ParamType::kUint:
      return "uint";
    case ParamType::kFloat:
      return "float";
    case ParamType::kChoice:
      return "choice";
    case ParamType::kBool:
      return "bool";
    case ParamType::kIntList:
      return "int_list";
    case ParamType::kSegmentList:
      return "segment_list";
  }
  return "unknown";
}

std::string range_text(const ParamSpec& spec) {
  if (spec.type == ParamType::kChoice) {
    std::string out;
    for (std::size_t i = 0; i < spec.choices.size(); ++i) {
      if (i > 0) out += i + 1 == spec.choices.size() ? " or " : ", ";
      out += spec.choices[i];
    }
    return out;
  }
  if (spec.min.is_null() || spec.max.is_null()) return "";
  return fmt::format("[{}, {}]", limit_text(spec.min), limit_text(spec.max));
}

void fail(const ParamSpec& spec, const std::string& message) {
  fail(spec.flag(), message);
}

void fail(std::string_view flag, const std::string& message) {
  throw UsageError(fmt::format("{}: {}", flag, message));
}

std::int64_t parse_int(const ParamSpec& spec, const json& v) {
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
      fail(spec, fmt::format("must be in {} (got {})", range_text(spec), v.dump()));
    }
    return static_cast<std::int64_t>(v.get<std::uint64_t>());
  }
  if (v.is_number_integer()) return v.get<std::int64_t>();
  if (v.is_number_float()) {
    const double d = v.get<double>();
    // An integral double (JavaScript numbers): accept it when it is exactly an int64.
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) {
      return static_cast<std::int64_t>(d);
    }
    if (std::isfinite(d) && d == std::floor(d)) {
      fail(spec, fmt::format("must be in {} (got {})", range_text(spec), shown(v)));
    }
    fail_type(spec, v);
  }
  if (v.is_string()) {
    bool negative = false, overflow = false;
    std::uint64_t magnitude = 0;
    if (!parse_decimal(v.get<std::string>(), negative, magnitude, overflow)) fail_type(spec, v);
    const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : INT64_MAX;
    if (overflow || magnitude > limit) {
      fail(spec, fmt::format("must be in {} (got {})", range_text(spec), v.get<std::string>()));
    }
    return negative ? static_cast<std::int64_t>(0 - magnitude)
                    : static_cast<std::int64_t>(magnitude);
  }
  fail_type(spec, v);
}

std::uint64_t parse_uint(const ParamSpec& spec, const json& v) {
  if (v.is_number_unsigned()) return v.get<std::uint64_t>();
  if (v.is_number_integer() && v.get<std::int64_t>() >= 0) {
    return static_cast<std::uint64_t>(v.get<std::int64_t>());
  }
  if (v.is_number_integer() || (v.is_number_float() && v.get<double>() < 0)) {
    fail(spec, fmt::format("must be in {} (got {})", range_text(spec), shown(v)));
  }
  if (v.is_number_float()) {
    const double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && d < 1.8e19) return static_cast<std::uint64_t>(d);
    fail_type(spec, v);
  }
  if (v.is_string()) {
    bool negative = false, overflow = false;
    std::uint64_t magnitude = 0;
    if (!parse_decimal(v.get<std::string>(), negative, magnitude, overflow)) fail_type(spec, v);
    if (overflow || (negative && magnitude != 0)) {
      fail(spec, fmt::format("must be in {} (got {})", range_text(spec), v.get<std::string>()));
    }
    return magnitude;
  }
  fail_type(spec, v);
}

double parse_float(const ParamSpec& spec, const json& v) {
  double d = 0.0;
  if (v.is_number()) {
    d = v.get<double>();
  } else if (v.is_string()) {
    const std::string s = v.get<std::string>();
    // strtod alone would also take leading spaces, hex floats and "nan(...)"; be strict.
    if (s.empty() || s.find_first_not_of("0123456789+-.eE") != std::string::npos) {
      fail_type(spec, v);
    }
    char* end = nullptr;
    errno = 0;
    d = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size()) fail_type(spec, v);
    if (errno == ERANGE && std::isinf(d)) {
      fail(spec, fmt::format("must be in {} (got {})", range_text(spec), s));
    }
  } else {
    fail_type(spec, v);
  }
  if (!std::isfinite(d)) fail_type(spec, v);
  return d;
}

bool parse_bool(const ParamSpec& spec, const json& v) {
  if (v.is_boolean()) return v.get<bool>();
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    if (s == "true" || s == "1") return true;
    if (s == "false" || s == "0") return false;
  }
  if (v.is_number_integer() || v.is_number_unsigned()) {
    if (v == 0) return false;
    if (v == 1) return true;
  }
  fail_type(spec, v);
}

std::string parse_choice(const ParamSpec& spec, const json& v) {
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    for (const auto& c : spec.choices) {
      if (c == s) return s;
    }
  }
  fail(spec, fmt::format("must be one of {} (got {})", range_text(spec), shown(v)));
}

std::vector<std::int64_t> parse_int_list(const ParamSpec& spec, const json& v) {
  std::vector<std::int64_t> out;
  if (v.is_array()) {
    for (const auto& e : v) out.push_back(parse_int(spec, e));
    return out;
  }
  if (!v.is_string()) fail_type(spec, v);
  const std::string s = v.get<std::string>();
  if (s.empty()) return out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t comma = s.find(',', pos);
    out.push_back(
        parse_int(spec, json(s.substr(pos, comma == std::string::npos ? comma : comma - pos))));
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return out;
}

std::vector<std::array<double, 3>> parse_segment_list(const ParamSpec& spec, const json& v) {
  std::vector<std::array<double, 3>> out;
  auto one = [&](const json& e) {
    auto bad = [&] {
      fail(spec, fmt::format("must be three durations H2D,KERNEL,D2H (got {})",
                             e.is_string() ? "'" + e.get<std::string>() + "'" : e.dump()));
    };
    std::array<double, 3> seg{};
    if (e.is_array()) {
      if (e.size() != 3) bad();
      for (std::size_t i = 0; i < 3; ++i) {
        if (!e[i].is_number()) bad();
        seg[i] = e[i].get<double>();
      }
    } else if (e.is_string()) {
      const std::string s = e.get<std::string>();
      std::vector<std::string> parts;
      std::size_t pos = 0;
      while (true) {
        const std::size_t comma = s.find(',', pos);
        parts.push_back(s.substr(pos, comma == std::string::npos ? comma : comma - pos));
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
      if (parts.size() != 3) bad();
      for (std::size_t i = 0; i < 3; ++i) {
        try {
          seg[i] = parse_float(spec, json(parts[i]));
        } catch (const UsageError&) {
          bad();
        }
      }
    } else {
      bad();
    }
    out.push_back(seg);
  };
  if (v.is_array() && !(v.size() == 3 && v[0].is_number())) {
    for (const auto& e : v) one(e);
  } else {
    one(v);  // one segment: "1,2,3" or [1, 2, 3]
  }
  return out;
}

void check_type(const ParamSpec& spec, const json& value) {
  switch (spec.type) {
    case ParamType::kInt:
      parse_int(spec, value);
      break;
    case ParamType::kUint:
      parse_uint(spec, value);
      break;
    case ParamType::kFloat:
      parse_float(spec, value);
      break;
    case ParamType::kChoice:
      break;  // checked by validate() (the message lists the choices)
    case ParamType::kBool:
      parse_bool(spec, value);
      break;
    case ParamType::kIntList:
      parse_int_list(spec, value);
      break;
    case ParamType::kSegmentList:
      parse_segment_list(spec, value);
      break;
  }
}

void check_range(const ParamSpec& spec, const json& value) {
  if (spec.type == ParamType::kChoice) {
    parse_choice(spec, value);
    return;
  }
  if (spec.min.is_null() || spec.max.is_null()) return;
  auto below = [](const json& a, const json& b) {
    // a < b for JSON numbers of any kind, exactly for integers.
    if (a.is_number_float() || b.is_number_float()) return a.get<double>() < b.get<double>();
    const bool au = a.is_number_unsigned(), bu = b.is_number_unsigned();
    if (au && bu) return a.get<std::uint64_t>() < b.get<std::uint64_t>();
    if (!au && !bu) return a.get<std::int64_t>() < b.get<std::int64_t>();
    if (au) {
      const auto bi = b.get<std::int64_t>();
      return bi >= 0 && a.get<std::uint64_t>() < static_cast<std::uint64_t>(bi);
    }
    const auto ai = a.get<std::int64_t>();
    return ai < 0 || static_cast<std::uint64_t>(ai) < b.get<std::uint64_t>();
  };
  auto one = [&](const json& v) {
    if (below(v, spec.min) || below(spec.max, v)) {
      fail(spec, fmt::format("must be in {} (got {})", range_text(spec), shown(v)));
    }
  };
  if (value.is_array()) {
    for (const auto& e : value) {
      if (e.is_array()) {
        for (const auto& x : e) one(x);
      } else {
        one(e);
      }
    }
  } else {
    one(value);
  }
}

json describe(const ParamSpec& spec, const json& default_value) {
  json out = {{"key", spec.key},
              {"flag", spec.flag()},
              {"type", std::string(to_string(spec.type))},
              {"default", default_value},
              {"help", spec.help}};
  if (!spec.min.is_null()) out["min"] = spec.min;
  if (!spec.max.is_null()) out["max"] = spec.max;
  if (!spec.choices.empty()) out["choices"] = spec.choices;
  const std::string range = range_text(spec);
  if (!range.empty()) out["range"] = range;
  return out;
}

std::string normalise_key(std::string_view key) {
  while (!key.empty() && key.front() == '-') key.remove_prefix(1);
  std::string out(key);
  for (char& c : out) {
    if (c == '_') c = '-';
  }
  return out;
}

void fail_unknown_key(std::string_view model, const std::string& key,
                      const std::vector<std::string>& accepted) {
  std::string list;
  for (const auto& a : accepted) list += (list.empty() ? "" : ", ") + a;
  fail("--" + normalise_key(key),
       fmt::format("not a parameter of model {} (accepted: {})", model, list));
}

void fail_not_object(std::string_view model) {
  throw UsageError(fmt::format("params: the parameters of model {} must be a JSON object", model));
}

}  // namespace memlab::model
