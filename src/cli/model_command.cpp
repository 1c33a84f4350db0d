// `memlab model ...`: the analytical models as tables, ASCII pictures or JSON. Table-driven: the
// subcommands and their options come from the model catalog (include/memlab/model/api.hpp); the
// text output lives in model_command_{memory,kernels,timeline}.cpp.
#include "memlab/cli/model_command.hpp"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "memlab/common/error.hpp"
#include "memlab/model/api.hpp"
#include "model_command_text.hpp"

namespace memlab::cli {
namespace {

using nlohmann::json;
namespace m = memlab::model;

using Printer = void (*)(const json& params);

Printer printer_of(const std::string& name) {
  static const std::map<std::string, Printer> printers = {
      {"coalescing", model_text::print_coalescing}, {"banks", model_text::print_banks},
      {"tiling", model_text::print_tiling},         {"timeline", model_text::print_timeline},
      {"roofline", model_text::print_roofline},     {"occupancy", model_text::print_occupancy}};
  const auto it = printers.find(name);
  if (it == printers.end()) throw std::logic_error("model " + name + " has no text output");
  return it->second;
}

// The CLI checks each value's type while parsing (a CLI11 error, like any other); the limits are
// the model's (UsageError from validate). Both name the flag.
CLI::Validator type_check(const m::ParamSpec& spec) {
  return CLI::Validator(
      [spec](std::string& text) -> std::string {
        try {
          m::check_type(spec, json(text));
        } catch (const UsageError& e) {
          const std::string message = e.what();
          const std::string prefix = spec.flag() + ": ";
          return message.rfind(prefix, 0) == 0 ? message.substr(prefix.size()) : message;
        }
        return {};
      },
      "");
}

std::string default_text(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array() && value.empty()) return "";
  return value.dump();
}

// What the user gave on the command line, by key.
struct Given {
  std::map<std::string, std::string> values;
  std::map<std::string, std::vector<std::string>> lists;
  std::map<std::string, bool> flags;
  bool json = false;
};

void add_model(CLI::App& model, const m::ModelInfo& info, const json& described, int& exit_code) {
  auto given = std::make_shared<Given>();
  auto* cmd = model.add_subcommand(info.name, info.summary);
  for (std::size_t i = 0; i < info.params.size(); ++i) {
    const m::ParamSpec& spec = info.params[i];
    const json& def = described[i]["default"];
    CLI::Option* opt = nullptr;
    switch (spec.type) {
      case m::ParamType::kBool:
        cmd->add_flag(spec.flag(), given->flags[spec.key], spec.help);
        continue;
      case m::ParamType::kIntList:
        opt = cmd->add_option(spec.flag(), given->lists[spec.key], spec.help)->delimiter(',');
        break;
      case m::ParamType::kSegmentList:
        opt = cmd->add_option(spec.flag(), given->lists[spec.key], spec.help);
        break;
      case m::ParamType::kInt:
      case m::ParamType::kUint:
      case m::ParamType::kFloat:
      case m::ParamType::kChoice:
        opt = cmd->add_option(spec.flag(), given->values[spec.key], spec.help);
        break;
    }
    // Lists are checked by the model, whose message shows the whole value.
    if (spec.type != m::ParamType::kIntList && spec.type != m::ParamType::kSegmentList) {
      opt->check(type_check(spec));
    }
    const std::string text = default_text(def);
    if (!text.empty()) opt->default_str(text);
    opt->type_name(spec.type == m::ParamType::kChoice        ? "NAME"
                   : spec.type == m::ParamType::kFloat       ? "FLOAT"
                   : spec.type == m::ParamType::kSegmentList ? "H2D,KERNEL,D2H"
                                                             : "INT");
  }
  cmd->add_flag("--json", given->json, "print JSON instead of a table");
  cmd->callback([cmd, given, name = info.name, &exit_code] {
    json params = json::object();
    for (const auto& [key, value] : given->values) {
      if (cmd->count("--" + key) > 0) params[key] = value;
    }
    for (const auto& [key, list] : given->lists) {
      if (cmd->count("--" + key) > 0) params[key] = list;
    }
    for (const auto& [key, set] : given->flags) {
      if (set) params[key] = true;
    }
    if (given->json) {
      fmt::print("{}\n", m::run(name, params).dump(2));
    } else {
      printer_of(name)(params);
    }
    exit_code = kExitOk;
  });
}

}  // namespace

void add_model_command(CLI::App& app, int& exit_code) {
  auto* model = app.add_subcommand(
      "model", "Analytical models of the memory hierarchy (host only, no GPU needed)");
  std::string names;
  for (const auto& info : m::models()) names += (names.empty() ? "" : ", ") + info.name;
  // A name that is no model lands here (subcommands match first), so the error can name it.
  auto unknown = std::make_shared<std::string>();
  model->add_option("MODEL", *unknown, "the model: " + names);
  model->callback([model, unknown, names] {
    if (!model->get_subcommands().empty()) return;
    if (unknown->empty()) {
      throw CLI::ValidationError("model", "a model name is required (accepted: " + names + ")");
    }
    throw CLI::ValidationError("model",
                               fmt::format("unknown model '{}' (accepted: {})", *unknown, names));
  });
  const json described = m::catalog()["models"];
  for (std::size_t i = 0; i < m::models().size(); ++i) {
    add_model(*model, m::models()[i], described[i]["params"], exit_code);
  }
}

}  // namespace memlab::cli
