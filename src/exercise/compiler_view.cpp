#include "exercise/compiler_view.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <sstream>
#include <vector>

namespace memlab::exercise {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxSourceChars = 240;

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string line;
  while (std::getline(ss, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(line);
  }
  return out;
}

// `.file 1 "kernel.cu"` (optionally followed by a timestamp and size): the index whose name is
// the learner's file, else 1.
int learner_file_index(const std::vector<std::string>& ptx, const std::string& file_name) {
  for (const std::string& raw : ptx) {
    const std::string l = trim(raw);
    if (l.rfind(".file", 0) != 0) continue;
    std::istringstream in(l.substr(5));
    int index = 0;
    if (!(in >> index)) continue;
    const auto q1 = l.find('"');
    const auto q2 = q1 == std::string::npos ? q1 : l.find('"', q1 + 1);
    if (q2 == std::string::npos) continue;
    const std::string name = l.substr(q1 + 1, q2 - q1 - 1);
    if (name == file_name ||
        (name.size() > file_name.size() && name.compare(name.size() - file_name.size() - 1,
                                                        std::string::npos, "/" + file_name) == 0)) {
      return index;
    }
  }
  return 1;
}

// The function name of `.visible .entry _Z3fooPf(` / `.func (.param ...) _Z3bar(`, or "".
std::string function_name(const std::string& l) {
  if (l.find(".entry") == std::string::npos && l.find(".func") == std::string::npos) return {};
  const auto paren = l.rfind('(');
  std::string head = trim(paren == std::string::npos ? l : l.substr(0, paren));
  const auto space = head.find_last_of(" \t)");
  return space == std::string::npos ? head : head.substr(space + 1);
}

}  // namespace

json ptx_by_line(const std::string& ptx, const std::string& source, const std::string& file_name,
                 std::size_t max_lines) {
  const std::vector<std::string> lines = split_lines(ptx);
  const std::vector<std::string> src = split_lines(source);
  const int file = learner_file_index(lines, file_name);
  json groups = json::array();
  json functions = json::array();
  std::size_t total = 0, shown = 0;
  int depth = 0;
  int current = -1;  // the learner's line of the open group (-1: none open)
  std::string pending_function;
  auto text_of = [&](int line) {
    if (line < 1 || static_cast<std::size_t>(line) > src.size()) return std::string();
    std::string t = src[static_cast<std::size_t>(line) - 1];
    if (t.size() > kMaxSourceChars) t = t.substr(0, kMaxSourceChars) + " ...";
    return t;
  };
  int loc_line = 0;
  for (const std::string& raw : lines) {
    const std::string l = trim(raw);
    if (depth == 0) {
      if (const std::string f = function_name(l); !f.empty()) pending_function = f;
      if (l.rfind('{', 0) == 0) {
        depth = 1;
        loc_line = 0;
        current = -1;
        if (!pending_function.empty()) functions.push_back(pending_function);
        pending_function.clear();
      }
      continue;
    }
    // Nested scopes (`{ // callseq 0, 0`) and the body's end: no instructions.
    if (l.rfind('{', 0) == 0) {
      ++depth;
      continue;
    }
    if (l.rfind('}', 0) == 0) {
      --depth;
      continue;
    }
    if (l.empty() || l.rfind("//", 0) == 0) continue;
    if (l.rfind(".loc", 0) == 0) {
      std::istringstream in(l.substr(4));
      int f = 0, line = 0;
      if (in >> f >> line) loc_line = f == file ? line : 0;
      continue;
    }
    ++total;
    if (shown >= max_lines) continue;
    ++shown;
    if (current != loc_line) {
      groups.push_back({{"line", loc_line}, {"source", text_of(loc_line)}, {"ptx", json::array()}});
      current = loc_line;
    }
    groups.back()["ptx"].push_back(l);
  }
  return {{"ptx_lines", groups},
          {"ptx_total", total},
          {"ptx_shown", shown},
          {"ptx_truncated", shown < total},
          {"functions", functions}};
}

json compiler_json(const Compiled& c, const std::string& source, const std::string& file_name,
                   std::size_t max_lines) {
  const Resources& r = c.resources;
  json j = {{"registers", r.registers},       {"spill_stores", r.spill_stores},
            {"spill_loads", r.spill_loads},   {"stack_bytes", r.stack_bytes},
            {"shared_bytes", r.shared_bytes}, {"barriers", r.barriers},
            {"local_bytes", r.stack_bytes},   {"ptxas_info", c.ptxas_info}};
  j.update(ptx_by_line(c.ptx, source, file_name, max_lines));
  return j;
}

std::string resources_line(const json& c) {
  auto bytes = [](int b) {
    if (b >= 1024) return fmt::format("{:.1f} KiB", b / 1024.0);
    return fmt::format("{} B", b);
  };
  const int regs = c.value("registers", -1);
  if (regs < 0) return "ptxas gave no resources";
  const int spilled =
      std::max(0, c.value("spill_stores", 0)) + std::max(0, c.value("spill_loads", 0));
  std::string s = fmt::format("{} registers, {} spilled, {} shared", regs, bytes(spilled),
                              bytes(std::max(0, c.value("shared_bytes", 0))));
  if (c.value("local_bytes", 0) > 0)
    s += fmt::format(", {} local", bytes(c["local_bytes"].get<int>()));
  if (c.value("barriers", 0) > 0) s += fmt::format(", {} barriers", c["barriers"].get<int>());
  return s;
}

}  // namespace memlab::exercise
