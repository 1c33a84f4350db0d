// compute-sanitizer's text output -> records (include/memlab/exercise/diagnosis.hpp). The forms,
// from NVIDIA's Compute Sanitizer documentation (2024-2025) and reports quoted in public projects:
//
//   racecheck --racecheck-report hazard (one record per byte):
//     ========= Error: Potential RAW hazard detected at __shared__ 0x8c in block (0,0,0) :
//     =========     Write Thread (35,0,0) at sumKernel(int *, int *)+0x90 in warp_error.cu:44
//     =========     Read Thread (32,0,0) at sumKernel(int *, int *)+0x120 in warp_error.cu:56
//     =========     Current Value : 35
//   (older: "WARN:(Warp Level Programming) Potential ...", "Write Thread (31, 0, 0) at
//   0x00000148 in ./race.cu:3:test(int*, int*)")
//   racecheck --racecheck-report analysis (the default; one record per pair of locations):
//     ========= Error: Race reported between Write access at k(...)+0x90 in block_error.cu:41
//     =========     and Read access at k(...)+0x100 in block_error.cu:51 [508 hazards]
//     ========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
//   memcheck:
//     ========= Invalid __global__ write of size 4 bytes
//     =========     at unaligned_kernel()+0x100 in memcheck_demo.cu:34
//     =========     by thread (0,0,0) in block (0,0,0)
//     =========     Address 0x7cc43aa00001 is misaligned
//     =========     and is inside the nearest allocation at 0x7cc43aa00000 of size 4 bytes
//   synccheck:
//     ========= Barrier error detected. Divergent thread(s) in block.
//     =========     at [clone myKernel(int *, int *)] outlineSync()+0x11f0 in test.cu:42
//     =========     by thread (32,0,0) in block (0,0,0)
//     =========     Device Frame: myKernel(int *, int *)+0xe40 in test.cu:60
#include <algorithm>
#include <cctype>
#include <regex>

#include "memlab/exercise/diagnosis.hpp"

namespace memlab::exercise {
namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The line without the tool's prefix (any run of '=') and surrounding blanks.
std::string strip(const std::string& raw) {
  std::size_t b = 0;
  while (b < raw.size() && raw[b] == '=') ++b;
  while (b < raw.size() && std::isspace(static_cast<unsigned char>(raw[b]))) ++b;
  std::size_t e = raw.size();
  while (e > b && std::isspace(static_cast<unsigned char>(raw[e - 1]))) --e;
  return raw.substr(b, e - b);
}

std::string severity_of(const std::string& word) {
  const std::string w = lower(word);
  if (w.rfind("err", 0) == 0 || w == "fatal") return "error";
  if (w.rfind("warn", 0) == 0) return "warning";
  if (w.rfind("info", 0) == 0) return "info";
  return "";
}

std::string basename(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

long long number(const std::string& s) {  // "1,024" -> 1024
  long long v = 0;
  bool any = false;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      any = true;
    }
  }
  return any ? v : -1;
}

std::array<int, 3> triple(const std::smatch& m, int first) {
  return {std::stoi(m[first].str()), std::stoi(m[first + 1].str()), std::stoi(m[first + 2].str())};
}

// "k(int *)+0x90 in f.cu:44", "0x00000148 in ./race.cu:3:test(int*, int*)", "k():0x160 in f.cu:6",
// "pre_block_prefix_sum+0x860" (no line information): file, line and function.
void parse_location(const std::string& text, SanitizerAccess& a) {
  static const std::regex file_line(R"(^(.*) in (\S+?):(\d+)(?::(.*))?$)");
  std::smatch m;
  std::string where = text;
  if (std::regex_match(text, m, file_line)) {
    a.file = basename(m[2].str());
    a.line = std::stoi(m[3].str());
    where = m[1].str();
    if (m[4].matched && !m[4].str().empty()) {  // the older form: the function after the line
      a.function = m[4].str();
      return;
    }
  } else if (const auto in = text.rfind(" in "); in != std::string::npos) {
    where = text.substr(0, in);
  }
  // Drop the offset ("+0x90", ":0x160") and a bare address.
  static const std::regex offset(R"((\+|:)0x[0-9a-fA-F]+$)");
  where = std::regex_replace(where, offset, "");
  if (where.rfind("0x", 0) == 0 && where.find(' ') == std::string::npos) where.clear();
  a.function = where;
}

bool in_learner_file(const SanitizerAccess& a) {
  return a.line > 0;
}

}  // namespace

SanitizerReport parse_sanitizer_output(const std::string& tool, const std::string& text) {
  static const std::regex hazard(
      R"(^(\w+)\s*:?\s*(\(Warp Level Programming\))?\s*Potential (RAW|WAR|WAW) hazard detected at (__\w+__)\s+(0x[0-9a-fA-F]+) in block \((\d+),\s*(\d+),\s*(\d+)\)\s*:?.*$)");
  static const std::regex thread_access(
      R"(^(Read|Write)\s+Thread \((\d+),\s*(\d+),\s*(\d+)\) at (.*)$)");
  static const std::regex race_first(
      R"(^(\w+)\s*:\s*Race reported between (Read|Write) access at (.*)$)");
  static const std::regex race_and(R"(^and (Read|Write) access at (.*)$)");
  static const std::regex hazards_count(R"(^(.*?)\s*\[([\d,]+) hazards?\]$)");
  static const std::regex invalid(
      R"(^(?:\w+\s*:\s*)?(?:Potential )?[Ii]nvalid (__\w+__)?\s*(read|write|atomic)\w* of size (\d+) bytes?.*$)");
  static const std::regex exception(
      R"(^(?:\w+\s*:\s*)?((?:Warp |Lane )?(?:Illegal Address|Misaligned Address|Out-of-range Address|Out-of-range Shared or Local Address|Misaligned Shared or Local Address|Illegal Instruction|Invalid PC|Hardware Stack Overflow|Invalid Address Space|Assert))\s*$)");
  static const std::regex barrier(R"(^(?:\w+\s*:\s*)?Barrier error detected\.?\s*(.*?)\.?$)");
  static const std::regex at_line(R"(^at (.*)$)");
  static const std::regex device_frame(R"(^Device Frame:\s*(.*)$)");
  static const std::regex by_thread(
      R"(^by thread \((\d+),\s*(\d+),\s*(\d+)\) in block \((\d+),\s*(\d+),\s*(\d+)\).*$)");
  static const std::regex address(R"(^(?:Address|Access at) (0x[0-9a-fA-F]+)(?: is (.*))?$)");
  static const std::regex nearest(
      R"(^and is (?:([\d,]+) bytes? (after|before)|(inside)) the nearest allocation at 0x[0-9a-fA-F]+ of size ([\d,]+) bytes?.*$)");
  static const std::regex error_summary(R"(^ERROR SUMMARY:\s*([\d,]+) errors?.*$)");
  static const std::regex race_summary(
      R"(^RACECHECK SUMMARY:\s*[\d,]+ hazards? displayed \(([\d,]+) errors?, ([\d,]+) warnings?\).*$)");

  SanitizerReport rep;
  SanitizerRecord* open = nullptr;  // the record the following detail lines belong to
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = strip(text.substr(start, end - start));
    start = end + 1;
    if (line.empty()) {
      open = nullptr;
      continue;
    }
    std::smatch m;
    if (std::regex_match(line, m, hazard)) {
      SanitizerRecord r;
      r.tool = "racecheck";
      r.severity = severity_of(m[1].str());
      r.warp_level = m[2].matched;
      r.type = m[3].str();
      r.space = m[4].str();
      r.address = m[5].str();
      r.block = triple(m, 6);
      rep.records.push_back(r);
      open = &rep.records.back();
      continue;
    }
    if (std::regex_match(line, m, race_first)) {
      SanitizerRecord r;
      r.tool = "racecheck";
      r.type = "race";
      r.severity = severity_of(m[1].str());
      r.first.access = lower(m[2].str());
      std::string rest = m[3].str();
      // A report on one line: "... at X and Read access at Y [N hazards]".
      static const std::regex inline_and(R"(^(.*?) and (Read|Write) access at (.*)$)");
      std::smatch im;
      std::string second;
      if (std::regex_match(rest, im, inline_and)) {
        second = im[2].str() + "|" + im[3].str();
        rest = im[1].str();
      }
      parse_location(rest, r.first);
      rep.records.push_back(r);
      open = &rep.records.back();
      if (!second.empty()) {
        const auto bar = second.find('|');
        std::string where = second.substr(bar + 1);
        std::smatch cm;
        if (std::regex_match(where, cm, hazards_count)) {
          open->hazards = number(cm[2].str());
          where = cm[1].str();
        }
        open->second.access = lower(second.substr(0, bar));
        parse_location(where, open->second);
      }
      continue;
    }
    if (std::regex_match(line, m, race_and) && open != nullptr && open->type == "race") {
      // Each further line is one more pair with the first location.
      SanitizerRecord* r = open;
      if (!r->second.access.empty()) {
        SanitizerRecord copy = *r;
        copy.second = SanitizerAccess{};
        copy.hazards = 1;
        rep.records.push_back(copy);
        r = &rep.records.back();
      }
      std::string where = m[2].str();
      std::smatch cm;
      if (std::regex_match(where, cm, hazards_count)) {
        r->hazards = number(cm[2].str());
        where = cm[1].str();
      }
      r->second.access = lower(m[1].str());
      parse_location(where, r->second);
      open = r;
      continue;
    }
    if (std::regex_match(line, m, thread_access) && open != nullptr && open->tool == "racecheck" &&
        open->type != "race") {
      SanitizerAccess& a = open->first.access.empty() ? open->first : open->second;
      a.access = lower(m[1].str());
      a.thread = triple(m, 2);
      parse_location(m[5].str(), a);
      continue;
    }
    if (std::regex_match(line, m, invalid)) {
      SanitizerRecord r;
      r.tool = tool.empty() ? "memcheck" : tool;
      r.type = "access";
      r.severity = "error";
      r.space = m[1].matched ? m[1].str() : "";
      r.first.access = m[2].str();
      r.size_bytes = std::stoi(m[3].str());
      rep.records.push_back(r);
      open = &rep.records.back();
      continue;
    }
    if (std::regex_match(line, m, exception)) {
      SanitizerRecord r;
      r.tool = tool.empty() ? "memcheck" : tool;
      r.type = "exception";
      r.severity = "error";
      r.problem = m[1].str();
      rep.records.push_back(r);
      open = &rep.records.back();
      continue;
    }
    if (std::regex_match(line, m, barrier)) {
      SanitizerRecord r;
      r.tool = "synccheck";
      r.type = "barrier";
      r.severity = "error";
      r.problem = m[1].str();
      rep.records.push_back(r);
      open = &rep.records.back();
      continue;
    }
    if (open != nullptr && open->type != "race" && std::regex_match(line, m, at_line)) {
      if (open->first.line == 0 && open->first.function.empty())
        parse_location(m[1].str(), open->first);
      continue;
    }
    if (open != nullptr && std::regex_match(line, m, device_frame)) {
      // The barrier or access sits in an outlined or inlined function: take the first frame in a
      // file with lines when the "at" line had none.
      if (open->first.line == 0) {
        SanitizerAccess frame;
        parse_location(m[1].str(), frame);
        if (in_learner_file(frame)) {
          frame.access = open->first.access;
          frame.thread = open->first.thread;
          open->first = frame;
        }
      }
      continue;
    }
    if (open != nullptr && std::regex_match(line, m, by_thread)) {
      open->first.thread = triple(m, 1);
      open->block = triple(m, 4);
      continue;
    }
    if (open != nullptr && std::regex_match(line, m, address)) {
      open->address = m[1].str();
      if (m[2].matched && open->type == "access") open->problem = m[2].str();
      continue;
    }
    if (open != nullptr && std::regex_match(line, m, nearest)) {
      if (m[3].matched) {
        open->relation = "inside";
      } else {
        open->relation = m[2].str();
        open->distance_bytes = number(m[1].str());
      }
      open->allocation_bytes = number(m[4].str());
      continue;
    }
    if (std::regex_match(line, m, race_summary)) {
      rep.summary_errors = number(m[1].str());
      rep.summary_warnings = number(m[2].str());
      open = nullptr;
      continue;
    }
    if (std::regex_match(line, m, error_summary)) {
      rep.summary_errors = number(m[1].str());
      open = nullptr;
      continue;
    }
    const std::string l = lower(line);
    if (l.find("internal sanitizer error") != std::string::npos ||
        l.find("unrecognized option") != std::string::npos ||
        l.find("unknown option") != std::string::npos ||
        l.find("no attachable process") != std::string::npos ||
        l.find("target application returned an error") != std::string::npos ||
        l.find("unable to") != std::string::npos) {
      if (rep.tool_errors.size() < 5) rep.tool_errors.push_back(line);
    }
  }
  return rep;
}

}  // namespace memlab::exercise
