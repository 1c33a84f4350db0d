// Sanitizer records -> findings in the learner's terms (include/memlab/exercise/diagnosis.hpp):
// one per distinct (tool, kind, lines), naming the __shared__ array and the indexing expression
// as the learner wrote them on the quoted line, the two threads and the block, and the barrier or
// bounds test that is missing. Each finding carries a "message" key (the web lab's i18n renders
// diagnosis.<message> from the structured fields) and the English "sentence" the CLI prints.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

#include "memlab/exercise/diagnosis.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
}

// The source with comments blanked (newlines kept, so line numbers stay).
std::string without_comments(const std::string& s) {
  std::string out = s;
  for (std::size_t i = 0; i + 1 < out.size(); ++i) {
    if (out[i] == '"') {  // skip string literals
      for (++i; i < out.size() && out[i] != '"' && out[i] != '\n'; ++i) {
        if (out[i] == '\\') ++i;
      }
    } else if (out[i] == '/' && out[i + 1] == '/') {
      for (; i < out.size() && out[i] != '\n'; ++i) out[i] = ' ';
    } else if (out[i] == '/' && out[i + 1] == '*') {
      for (; i + 1 < out.size() && !(out[i] == '*' && out[i + 1] == '/'); ++i) {
        if (out[i] != '\n') out[i] = ' ';
      }
      if (i + 1 < out.size()) out[i] = out[i + 1] = ' ';
    }
  }
  return out;
}

// Occurrences of identifier `name` on `line` with their indexing ("As[ty][tx]"), and whether the
// occurrence is assigned to (=, +=, ..., not ==).
struct Use {
  std::string expr;
  bool assigned = false;
};
std::vector<Use> uses(const std::string& line, const std::string& name) {
  std::vector<Use> out;
  std::size_t pos = 0;
  while ((pos = line.find(name, pos)) != std::string::npos) {
    const std::size_t end = pos + name.size();
    if ((pos > 0 && ident_char(line[pos - 1])) || (end < line.size() && ident_char(line[end]))) {
      pos = end;
      continue;
    }
    std::size_t i = end;
    while (true) {
      std::size_t j = i;
      while (j < line.size() && line[j] == ' ') ++j;
      if (j >= line.size() || line[j] != '[') break;
      int depth = 0;
      std::size_t k = j;
      for (; k < line.size(); ++k) {
        if (line[k] == '[') ++depth;
        if (line[k] == ']' && --depth == 0) break;
      }
      if (k >= line.size()) break;
      i = k + 1;
    }
    Use u;
    u.expr = line.substr(pos, i - pos);
    std::size_t j = i;
    while (j < line.size() && line[j] == ' ') ++j;
    static const std::string ops = "+-*/%&|^";
    if (j < line.size()) {
      if (line[j] == '=' && (j + 1 >= line.size() || line[j + 1] != '=')) u.assigned = true;
      if (j + 1 < line.size() && ops.find(line[j]) != std::string::npos && line[j + 1] == '=')
        u.assigned = true;
      if (j + 2 < line.size() && (line.compare(j, 3, "<<=") == 0 || line.compare(j, 3, ">>=") == 0))
        u.assigned = true;
    }
    out.push_back(u);
    pos = i;
  }
  return out;
}

// The shared array an access on `line` touches, and the expression as written: for a write the
// assigned occurrence, for a read one that is not assigned; `prefer` first when it occurs.
std::pair<std::string, std::string> shared_use(const std::string& line,
                                               const std::vector<std::string>& arrays,
                                               const std::string& access,
                                               const std::string& prefer) {
  std::vector<std::string> order;
  if (!prefer.empty()) order.push_back(prefer);
  for (const std::string& a : arrays) {
    if (a != prefer) order.push_back(a);
  }
  const bool write = access == "write";
  for (int pass = 0; pass < 2; ++pass) {  // 0: the matching kind of use, 1: any use
    for (const std::string& a : order) {
      for (const Use& u : uses(line, a)) {
        if (pass == 1 || u.assigned == write) return {a, u.expr};
      }
    }
  }
  return {"", ""};
}

std::string thread_text(const std::array<int, 3>& t) {
  return fmt::format("({},{},{})", t[0], t[1], t[2]);
}

bool known(const std::array<int, 3>& t) {
  return t[0] >= 0;
}

long long warp_of(const std::array<int, 3>& t, const std::array<long long, 3>& block) {
  return (t[0] + t[1] * block[0] + t[2] * block[0] * block[1]) / 32;
}

std::string basename(const std::string& path) {
  const auto slash = path.find_last_of("/\\");
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

struct Group {
  SanitizerRecord first;   // the first record of the group: threads, block, address
  long long records = 0;   // records of this group in the output
  long long reported = 0;  // the analysis reports' "[N hazards]" for these lines
  std::string kind;        // RAW | WAR | WAW | access | exception | barrier
  bool inferred = false;   // racecheck kind from an analysis report only (order not printed)
};

// A racecheck record's write and read sides (RAW: write first; WAR: read first).
const SanitizerAccess& side(const SanitizerRecord& r, const std::string& access) {
  if (r.first.access == access) return r.first;
  return r.second;
}

class Builder {
 public:
  explicit Builder(const DiagnosisSource& s)
      : src_(s), code_(without_comments(s.source)), arrays_(shared_arrays(s.source)) {
    const std::string base = basename(s.file_name);
    file_ = base;
  }

  bool mine(const SanitizerAccess& a) const {
    return a.line > 0 && (file_.empty() || a.file.empty() || a.file == file_);
  }

  std::string code_line(int n) const { return source_line(src_.source, n); }

  json side_json(const SanitizerAccess& a, const std::string& prefer, std::string* array) const {
    json j = {{"access", a.access}, {"line", a.line}, {"file", a.file}};
    if (known(a.thread)) j["thread"] = a.thread;
    if (mine(a)) {
      j["code"] = code_line(a.line);
      const auto [name, expr] = shared_use(source_line(code_, a.line), arrays_, a.access, prefer);
      if (!name.empty()) {
        j["expr"] = expr;
        if (array != nullptr && array->empty()) *array = name;
      }
    }
    return j;
  }

  json race(const Group& g) const {
    const SanitizerRecord& r = g.first;
    json f = {{"tool", "racecheck"},        {"kind", g.kind},   {"severity", r.severity},
              {"warp_level", r.warp_level}, {"space", r.space}, {"records", g.records}};
    if (!r.address.empty()) f["address"] = r.address;
    if (known(r.block)) f["block"] = r.block;
    if (g.reported > 0) f["reported"] = g.reported;
    if (g.inferred) f["kind_inferred"] = true;
    const SanitizerAccess& w = g.kind == "WAW" ? r.first : side(r, "write");
    const SanitizerAccess& rd = g.kind == "WAW" ? r.second : side(r, "read");
    std::string array;
    f["write"] = side_json(w, "", &array);
    f["read"] = side_json(rd, array, &array);
    if (!array.empty()) f["array"] = array;
    const bool threads = known(w.thread) && known(rd.thread);
    if (threads) f["same_warp"] = warp_of(w.thread, src_.block) == warp_of(rd.thread, src_.block);
    const long long n = std::max(g.records, g.reported);
    f["hazards"] = n;
    if (!mine(w) || !mine(rd)) {
      f["message"] = "elsewhere";
      const std::string at =
          w.line > 0 ? fmt::format("{}:{}", w.file, w.line) : std::string("no line information");
      f["sentence"] =
          fmt::format("racecheck: {} {} hazard{} on {} memory outside the lines of {} ({}{})", n,
                      g.kind, n == 1 ? "" : "s", r.space.empty() ? "shared" : r.space, file_,
                      w.function.empty() ? "" : w.function + ", ", at);
      return f;
    }
    const std::string wexpr = f["write"].value("expr", array.empty() ? "shared memory" : array);
    const std::string rexpr = f["read"].value("expr", wexpr);
    const std::string it = rexpr == wexpr ? "it" : rexpr;
    const bool same = f.value("same_warp", false);
    const std::string who = !threads ? "another thread" : same ? "the same warp" : "another warp";
    std::string tail;
    if (threads) {
      tail = fmt::format("thread {} against {}", thread_text(w.thread), thread_text(rd.thread));
      if (g.kind == "WAR") {
        tail = fmt::format("thread {} against {}", thread_text(rd.thread), thread_text(w.thread));
      }
      if (known(r.block)) tail += ", block " + thread_text(r.block);
      tail += "; ";
    }
    tail += fmt::format("{} hazard{}", n, n == 1 ? "" : "s");
    const std::string lockstep =
        same ? " (the threads of one warp do not run in lockstep: __syncwarp() orders them, "
               "__syncthreads() orders the whole block)"
             : "";
    std::string s;
    if (g.kind == "WAW") {
      f["message"] = "waw";
      s = w.line == rd.line
              ? fmt::format("line {} writes {} from two threads to the same element", w.line, wexpr)
              : fmt::format("lines {} and {} write the same element of {}", w.line, rd.line,
                            array.empty() ? wexpr : array);
      s += fmt::format(": let one thread write it, or order the writes with a __syncthreads() ({})",
                       tail);
    } else if (g.kind == "WAR" && w.line < rd.line) {
      f["message"] = "war_next";
      s = fmt::format(
          "line {} reads {} while line {} of {} overwrites it for the next iteration: a "
          "__syncthreads() is missing after the loop body (after line {}, before the loop "
          "starts over){} ({})",
          rd.line, rexpr, w.line, who, rd.line, lockstep, tail);
    } else if (g.kind == "WAR") {
      f["message"] = "war";
      s = fmt::format(
          "line {} reads {} while line {} of {} overwrites it: a __syncthreads() is missing "
          "between them{} ({})",
          rd.line, rexpr, w.line, who, lockstep, tail);
    } else {
      f["message"] = same ? "raw_same_warp" : "raw";
      s = fmt::format(
          "line {} writes {} while line {} of {} reads {}: a __syncthreads() is missing between "
          "them{} ({})",
          w.line, wexpr, rd.line, who, it, lockstep, tail);
    }
    f["sentence"] = s;
    return f;
  }

  // "is the bounds test i < n missing?": the index of a pointer parameter on the line, and the
  // kernel's one int parameter.
  json bounds(const std::string& line) const {
    std::vector<std::string> ints;
    for (const auto& [type, name] : src_.params) {
      if (type == "int" || type == "unsigned" || type == "size_t" || type == "long long" ||
          type == "unsigned int")
        ints.push_back(name);
    }
    for (const auto& [type, name] : src_.params) {
      if (type.find('*') == std::string::npos) continue;
      for (const Use& u : uses(line, name)) {
        if (u.expr.size() <= name.size() + 2) continue;
        const std::string idx = u.expr.substr(name.size() + 1, u.expr.size() - name.size() - 2);
        json b = {{"array", name}, {"index", idx}};
        if (ints.size() == 1) b["limit"] = ints[0];
        return b;
      }
    }
    return json();
  }

  json memcheck(const Group& g) const {
    const SanitizerRecord& r = g.first;
    json f = {{"tool", r.tool},
              {"kind", g.kind},
              {"severity", r.severity},
              {"records", g.records},
              {"hazards", g.records}};
    if (!r.space.empty()) f["space"] = r.space;
    if (!r.address.empty()) f["address"] = r.address;
    if (known(r.block)) f["block"] = r.block;
    if (!r.problem.empty()) f["problem"] = r.problem;
    json at = {{"access", r.first.access}, {"line", r.first.line}, {"file", r.first.file}};
    if (known(r.first.thread)) at["thread"] = r.first.thread;
    const bool in_file = mine(r.first);
    if (in_file) at["code"] = code_line(r.first.line);
    f["at"] = at;
    std::string who;
    if (known(r.first.thread)) {
      who = "thread " + thread_text(r.first.thread);
      if (known(r.block)) who += " of block " + thread_text(r.block);
    }
    const std::string where =
        in_file ? fmt::format("line {} ({})", r.first.line, code_line(r.first.line))
        : r.first.line > 0
            ? fmt::format("{}:{} (outside {})", r.first.file, r.first.line, file_)
            : fmt::format("{} (no line information)",
                          r.first.function.empty() ? "the kernel" : r.first.function);
    const std::string more =
        g.records > 1 ? fmt::format(" ({} such errors, the first shown)", g.records) : "";
    std::string s;
    if (g.kind == "access") {
      f["size_bytes"] = r.size_bytes;
      const bool shared = r.space == "__shared__";
      const std::string verb = r.first.access == "write"  ? "writes"
                               : r.first.access == "read" ? "reads"
                                                          : "accesses";
      if (r.problem.find("misaligned") != std::string::npos) {
        f["message"] = "misaligned";
        s = fmt::format(
            "{}: {} {} {} bytes at the misaligned address {} (an access of {} bytes must start at "
            "a multiple of {}: check the offset of a wide load such as float4){}",
            where, who, verb, r.size_bytes, r.address, r.size_bytes, r.size_bytes, more);
      } else {
        f["message"] = shared ? "oob_shared" : "oob";
        if (!r.relation.empty()) {
          f["relation"] = r.relation;
          if (r.distance_bytes >= 0) f["distance_bytes"] = r.distance_bytes;
          if (r.allocation_bytes >= 0) f["allocation_bytes"] = r.allocation_bytes;
        }
        std::string outside = shared ? "outside the block's shared memory" : "outside every buffer";
        if (!shared && r.relation == "after" && r.allocation_bytes >= 0) {
          outside = r.distance_bytes == 0
                        ? fmt::format("just past the end of a {}-byte buffer", r.allocation_bytes)
                        : fmt::format("{} bytes past the end of a {}-byte buffer", r.distance_bytes,
                                      r.allocation_bytes);
        } else if (!shared && r.relation == "before" && r.allocation_bytes >= 0) {
          outside = fmt::format("{} bytes before the start of a {}-byte buffer", r.distance_bytes,
                                r.allocation_bytes);
        }
        const json b = in_file ? bounds(source_line(code_, r.first.line)) : json();
        std::string hint = "is a bounds test missing?";
        if (!b.is_null()) {
          f["bounds"] = b;
          hint =
              b.contains("limit")
                  ? fmt::format("is the bounds test {} < {} missing?",
                                b["index"].get<std::string>(), b["limit"].get<std::string>())
                  : fmt::format("is a bounds test on {} missing?", b["index"].get<std::string>());
        }
        if (shared) hint = "check the index against the array's size";
        s = fmt::format("{}: {} {} {} bytes {} — {}{}", where, who, verb, r.size_bytes, outside,
                        hint, more);
      }
    } else if (g.kind == "exception") {
      f["message"] = "exception";
      s = fmt::format("{}: the GPU raised \"{}\"{}{}", where, r.problem,
                      who.empty() ? "" : " in " + who, more);
    } else {  // synccheck
      const std::string p = r.problem;
      std::string what;
      if (p.find("in block") != std::string::npos) {
        f["message"] = "barrier_block";
        what =
            "not every thread of the block reaches this barrier together: a __syncthreads() "
            "inside an if or a loop that only some threads of the block enter — move it to where "
            "all of them arrive";
      } else if (p.find("in warp") != std::string::npos) {
        f["message"] = "barrier_warp";
        what =
            "the threads of one warp reach this barrier apart: a barrier inside a branch that "
            "splits the warp — move it to where all of them arrive";
      } else if (p.find("nvalid argument") != std::string::npos) {
        f["message"] = "barrier_mask";
        what = "the mask given to __syncwarp() leaves out a thread that calls it";
      } else {
        f["message"] = "barrier";
        what = "barrier error: " + (p.empty() ? std::string("(no class printed)") : p);
      }
      s = fmt::format("{}: {}{}{}", where, what, who.empty() ? "" : " (" + who + ")", more);
    }
    if (!in_file) f["message"] = "elsewhere";
    f["sentence"] = s;
    return f;
  }

 private:
  const DiagnosisSource& src_;
  std::string code_;
  std::vector<std::string> arrays_;
  std::string file_;
};

std::string line_key(const SanitizerAccess& a) {
  return fmt::format("{}:{}:{}", a.file, a.line, a.line > 0 ? "" : a.function);
}

}  // namespace

std::string source_line(const std::string& source, int n) {
  if (n <= 0) return "";
  std::size_t start = 0;
  for (int i = 1; i < n; ++i) {
    start = source.find('\n', start);
    if (start == std::string::npos) return "";
    ++start;
  }
  std::size_t end = source.find('\n', start);
  if (end == std::string::npos) end = source.size();
  std::string line = source.substr(start, end - start);
  const auto b = line.find_first_not_of(" \t\r");
  const auto e = line.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : line.substr(b, e - b + 1);
}

std::vector<std::string> shared_arrays(const std::string& source) {
  const std::string code = without_comments(source);
  std::vector<std::string> out;
  static const std::string kw = "__shared__";
  std::size_t pos = 0;
  while ((pos = code.find(kw, pos)) != std::string::npos) {
    pos += kw.size();
    const std::size_t semi = code.find(';', pos);
    if (semi == std::string::npos) break;
    std::string decl = code.substr(pos, semi - pos);
    // Declarators at the top level: "float As[16][16], Bs[16][16]" -> As, Bs.
    std::vector<std::string> parts;
    int depth = 0;
    std::string cur;
    for (char c : decl) {
      if (c == '[' || c == '(' || c == '{') ++depth;
      if (c == ']' || c == ')' || c == '}') --depth;
      if (c == ',' && depth == 0) {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    parts.push_back(cur);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      std::string p = parts[i];
      const std::size_t cut = p.find_first_of("[=");
      if (cut != std::string::npos) p = p.substr(0, cut);
      // The last identifier before the cut (the first declarator follows its type).
      std::size_t e = p.size();
      while (e > 0 && !ident_char(p[e - 1])) --e;
      std::size_t b = e;
      while (b > 0 && ident_char(p[b - 1])) --b;
      const std::string name = p.substr(b, e - b);
      if (!name.empty() && std::isdigit(static_cast<unsigned char>(name[0])) == 0 &&
          std::find(out.begin(), out.end(), name) == out.end())
        out.push_back(name);
    }
    pos = semi;
  }
  return out;
}

json findings_json(const std::vector<SanitizerRecord>& records, const DiagnosisSource& src) {
  const Builder b(src);
  std::vector<std::string> order;
  std::map<std::string, Group> groups;
  auto add = [&](const std::string& key, const SanitizerRecord& r, const std::string& kind) {
    auto [it, fresh] = groups.try_emplace(key);
    if (fresh) {
      it->second.first = r;
      it->second.kind = kind;
      order.push_back(key);
    }
    return &it->second;
  };
  // Hazard reports first (they carry threads and the order of the accesses), then the analysis
  // reports: their counts join the hazards of the same write and read lines.
  for (const SanitizerRecord& r : records) {
    if (r.tool != "racecheck" || r.type == "race") continue;
    const std::string key =
        fmt::format("race|{}|{}|{}", r.type, line_key(r.first), line_key(r.second));
    ++add(key, r, r.type)->records;
  }
  for (const SanitizerRecord& r : records) {
    if (r.tool != "racecheck" || r.type != "race") continue;
    const SanitizerAccess& w = side(r, "write");
    const SanitizerAccess& rd = r.first.access == "write" ? r.second : r.first;
    Group* hit = nullptr;
    for (const std::string& k : order) {
      Group& g = groups[k];
      if (g.kind == "RAW" || g.kind == "WAR" || g.kind == "WAW") {
        const SanitizerAccess& gw = g.kind == "WAW" ? g.first.first : side(g.first, "write");
        const SanitizerAccess& gr = g.kind == "WAW" ? g.first.second : side(g.first, "read");
        if (line_key(gw) == line_key(w) && line_key(gr) == line_key(rd)) {
          hit = &g;
          break;
        }
      }
    }
    if (hit != nullptr) {
      hit->reported += r.hazards;
      continue;
    }
    // No hazard report for these lines: the order is not printed; a write above the read in the
    // file is taken as read-after-write, a write below it as write-after-read (inferred).
    std::string kind = "WAW";
    if (r.first.access != r.second.access) kind = w.line <= rd.line ? "RAW" : "WAR";
    SanitizerRecord ordered = r;
    if (kind == "RAW") {
      ordered.first = w;
      ordered.second = rd;
    } else if (kind == "WAR") {
      ordered.first = rd;
      ordered.second = w;
    }
    Group* g =
        add(fmt::format("race|{}|{}|{}", kind, line_key(ordered.first), line_key(ordered.second)),
            ordered, kind);
    g->reported += r.hazards;
    g->inferred = true;
  }
  for (const SanitizerRecord& r : records) {
    if (r.tool == "racecheck") continue;
    const std::string cls = r.problem.find("misaligned") != std::string::npos ? "misaligned"
                            : r.type == "access"                              ? "oob"
                                                                              : r.problem;
    const std::string key = fmt::format("{}|{}|{}|{}|{}|{}", r.tool, r.type, r.space,
                                        r.first.access, cls, line_key(r.first));
    ++add(key, r, r.type)->records;
  }
  json out = json::array();
  for (const std::string& k : order) {
    const Group& g = groups[k];
    out.push_back(g.first.tool == "racecheck" ? b.race(g) : b.memcheck(g));
  }
  return out;
}

}  // namespace memlab::exercise
