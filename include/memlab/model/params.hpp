// Parameters of the models as the user spells them: one description per CLI flag (`--stride`),
// shared by the command line, the JSON API (api.hpp), the web server and the WebAssembly build.
//
// Host-only, no CUDA, no CLI11. A parameter's key is its CLI long option without the dashes
// (`elem-size`); JSON input may also spell it with underscores (`elem_size`). Every error is a
// memlab::UsageError whose message starts with the flag: `--stride: must be in [1, 2^48] (got 0)`.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace memlab::model {

enum class ParamType {
  kInt,          // signed 64-bit integer: JSON integer, or a string of decimal digits
  kUint,         // unsigned 64-bit integer (seeds)
  kFloat,        // finite double: JSON number, or a string strtod reads whole
  kChoice,       // one of `choices`
  kBool,         // JSON true/false (the CLI: a flag)
  kIntList,      // list of kInt: JSON array, or one string "1,2,3"
  kSegmentList,  // list of "H2D,KERNEL,D2H" (timeline --segment): strings or [h, k, d] arrays
};

std::string_view to_string(ParamType type);  // int, uint, float, choice, bool, int_list, ...

struct ParamSpec {
  std::string key;  // CLI long option without dashes: "elem-size"
  ParamType type = ParamType::kInt;
  std::string help;  // one line, as in `memlab model X --help`
  // Inclusive limits of the value (of each element for lists); null when not numeric. Some
  // limits depend on other parameters too (`--field` < `--fields`): validate() checks those.
  nlohmann::json min;
  nlohmann::json max;
  std::vector<std::string> choices;  // kChoice
  std::string flag() const { return "--" + key; }
};

// "[1, 2^48]", "1, 2, 4, 8 or 16", ...: the accepted values as error messages spell them.
std::string range_text(const ParamSpec& spec);
// The UsageError every model throws: "<flag>: <message>".
[[noreturn]] void fail(const ParamSpec& spec, const std::string& message);
[[noreturn]] void fail(std::string_view flag, const std::string& message);

// Conversions of one JSON value (the CLI passes strings) to the spec's type. They check the type
// and that the value fits the C++ type; the limits are checked by check_range (validate()).
std::int64_t parse_int(const ParamSpec& spec, const nlohmann::json& value);
std::uint64_t parse_uint(const ParamSpec& spec, const nlohmann::json& value);
double parse_float(const ParamSpec& spec, const nlohmann::json& value);
bool parse_bool(const ParamSpec& spec, const nlohmann::json& value);
std::string parse_choice(const ParamSpec& spec, const nlohmann::json& value);
std::vector<std::int64_t> parse_int_list(const ParamSpec& spec, const nlohmann::json& value);
// Each element: three durations; the limits (min/max) apply to each duration.
std::vector<std::array<double, 3>> parse_segment_list(const ParamSpec& spec,
                                                      const nlohmann::json& value);
// Type check only (what the CLI does while parsing): throws UsageError.
void check_type(const ParamSpec& spec, const nlohmann::json& value);

// Throws UsageError unless `value` (a number, or every element of a list) lies in [min, max],
// or, for a choice, is one of the choices.
void check_range(const ParamSpec& spec, const nlohmann::json& value);

// One parameter of an input struct `In`: its description, and how to read and write it.
template <class In>
struct Field {
  ParamSpec spec;
  std::function<void(In&, const nlohmann::json&)> set;  // parses; throws UsageError
  std::function<nlohmann::json(const In&)> get;         // the value as JSON
};

template <class In>
using Fields = std::vector<Field<In>>;

// Catalog entry of one parameter: {key, flag, type, default, min, max, choices, range, help}.
nlohmann::json describe(const ParamSpec& spec, const nlohmann::json& default_value);

// The key a JSON input names, normalised: leading dashes dropped, '_' -> '-'.
std::string normalise_key(std::string_view key);

// Sets every key of `params` (a JSON object) on `in`. Unknown keys, and a non-object, throw
// UsageError naming the key and listing the accepted ones.
template <class In>
void assign(const Fields<In>& fields, std::string_view model, const nlohmann::json& params, In& in);
// check_range of every field of `in`.
template <class In>
void check_ranges(const Fields<In>& fields, const In& in) {
  for (const auto& f : fields) check_range(f.spec, f.get(in));
}
template <class In>
nlohmann::json describe_all(const Fields<In>& fields) {
  const In defaults{};
  nlohmann::json out = nlohmann::json::array();
  for (const auto& f : fields) out.push_back(describe(f.spec, f.get(defaults)));
  return out;
}

// Non-template part of assign: throws for a non-object or an unknown key.
[[noreturn]] void fail_unknown_key(std::string_view model, const std::string& key,
                                   const std::vector<std::string>& accepted);
[[noreturn]] void fail_not_object(std::string_view model);

template <class In>
void assign(const Fields<In>& fields, std::string_view model, const nlohmann::json& params,
            In& in) {
  if (params.is_null()) return;
  if (!params.is_object()) fail_not_object(model);
  for (const auto& [key, value] : params.items()) {
    const std::string k = normalise_key(key);
    const Field<In>* field = nullptr;
    for (const auto& f : fields) {
      if (f.spec.key == k) field = &f;
    }
    if (field == nullptr) {
      std::vector<std::string> accepted;
      for (const auto& f : fields) accepted.push_back(f.spec.key);
      fail_unknown_key(model, key, accepted);
    }
    field->set(in, value);
  }
}

// Helpers to build fields from members.
template <class In>
Field<In> int_field(std::string key, std::int64_t In::*member, nlohmann::json min,
                    nlohmann::json max, std::string help) {
  ParamSpec spec{std::move(key), ParamType::kInt, std::move(help),
                 std::move(min), std::move(max),  {}};
  return {spec,
          [spec, member](In& in, const nlohmann::json& v) { in.*member = parse_int(spec, v); },
          [member](const In& in) { return nlohmann::json(in.*member); }};
}

template <class In>
Field<In> uint_field(std::string key, std::uint64_t In::*member, nlohmann::json min,
                     nlohmann::json max, std::string help) {
  ParamSpec spec{std::move(key), ParamType::kUint, std::move(help),
                 std::move(min), std::move(max),   {}};
  return {spec,
          [spec, member](In& in, const nlohmann::json& v) { in.*member = parse_uint(spec, v); },
          [member](const In& in) { return nlohmann::json(in.*member); }};
}

template <class In>
Field<In> float_field(std::string key, double In::*member, nlohmann::json min, nlohmann::json max,
                      std::string help) {
  ParamSpec spec{std::move(key), ParamType::kFloat, std::move(help),
                 std::move(min), std::move(max),    {}};
  return {spec,
          [spec, member](In& in, const nlohmann::json& v) { in.*member = parse_float(spec, v); },
          [member](const In& in) { return nlohmann::json(in.*member); }};
}

template <class In>
Field<In> bool_field(std::string key, bool In::*member, std::string help) {
  ParamSpec spec{std::move(key), ParamType::kBool, std::move(help), nullptr, nullptr, {}};
  return {spec,
          [spec, member](In& in, const nlohmann::json& v) { in.*member = parse_bool(spec, v); },
          [member](const In& in) { return nlohmann::json(in.*member); }};
}

template <class In>
Field<In> choice_field(std::string key, std::string In::*member, std::vector<std::string> choices,
                       std::string help) {
  ParamSpec spec{std::move(key), ParamType::kChoice, std::move(help), nullptr,
                 nullptr,        std::move(choices)};
  return {spec,
          [spec, member](In& in, const nlohmann::json& v) { in.*member = parse_choice(spec, v); },
          [member](const In& in) { return nlohmann::json(in.*member); }};
}

}  // namespace memlab::model
