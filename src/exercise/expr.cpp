#include "exercise/expr.hpp"

#include <fmt/format.h>

#include <cctype>

#include "memlab/common/error.hpp"

namespace memlab::exercise {
namespace {

class Parser {
 public:
  Parser(const std::string& text, const std::map<std::string, std::int64_t>& vars,
         const std::string& what)
      : s_(text), vars_(vars), what_(what) {}

  std::int64_t parse() {
    const std::int64_t v = sum();
    skip();
    if (pos_ != s_.size()) fail(fmt::format("unexpected '{}'", s_[pos_]));
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw UsageError(fmt::format("{}: \"{}\": {}", what_, s_, why));
  }
  void skip() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  static std::int64_t checked(long double v, const Parser& p) {
    if (v > 9.2e18L || v < -9.2e18L) p.fail("overflow");
    return static_cast<std::int64_t>(v);
  }
  std::int64_t sum() {
    std::int64_t v = product();
    for (;;) {
      if (eat('+')) {
        v = checked(static_cast<long double>(v) + product(), *this);
      } else if (eat('-')) {
        v = checked(static_cast<long double>(v) - product(), *this);
      } else {
        return v;
      }
    }
  }
  std::int64_t product() {
    std::int64_t v = atom();
    for (;;) {
      if (eat('*')) {
        v = checked(static_cast<long double>(v) * atom(), *this);
      } else if (eat('/')) {
        const std::int64_t d = atom();
        if (d == 0) fail("division by zero");
        v /= d;
      } else {
        return v;
      }
    }
  }
  std::int64_t atom() {
    skip();
    if (pos_ >= s_.size()) fail("unexpected end");
    if (eat('(')) {
      const std::int64_t v = sum();
      if (!eat(')')) fail("missing ')'");
      return v;
    }
    if (eat('-')) return -atom();
    const char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      std::int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        v = checked(static_cast<long double>(v) * 10 + (s_[pos_++] - '0'), *this);
      }
      return v;
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::string name;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
        name += s_[pos_++];
      }
      if (eat('(')) return call(name);
      const auto it = vars_.find(name);
      if (it == vars_.end()) fail(fmt::format("unknown variable '{}'", name));
      return it->second;
    }
    fail(fmt::format("unexpected '{}'", c));
  }
  std::int64_t call(const std::string& name) {
    const std::int64_t a = sum();
    if (!eat(',')) fail(fmt::format("{}() takes two arguments", name));
    const std::int64_t b = sum();
    if (!eat(')')) fail("missing ')'");
    if (name == "cdiv") {
      if (b <= 0) fail("cdiv by a value <= 0");
      return (a + b - 1) / b;
    }
    if (name == "min") return a < b ? a : b;
    if (name == "max") return a > b ? a : b;
    fail(fmt::format("unknown function '{}' (accepted: cdiv, min, max)", name));
  }

  const std::string& s_;
  const std::map<std::string, std::int64_t>& vars_;
  const std::string& what_;
  std::size_t pos_ = 0;
};

}  // namespace

std::int64_t eval_expr(const std::string& text, const std::map<std::string, std::int64_t>& vars,
                       const std::string& what) {
  const std::int64_t v = Parser(text, vars, what).parse();
  if (v < 0 || v >= (std::int64_t{1} << 31)) {
    throw UsageError(fmt::format("{}: \"{}\" = {} is outside [0, 2^31)", what, text, v));
  }
  return v;
}

}  // namespace memlab::exercise
