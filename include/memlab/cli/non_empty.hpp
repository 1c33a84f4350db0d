// A CLI11 check for options whose empty value CLI11 would otherwise convert to 0 (`-d ''`).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace memlab::cli {

inline CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& value) {
        return value.empty() ? std::string("'' is not accepted; accepted: a number")
                             : std::string();
      },
      "", "non-empty");
}

}  // namespace memlab::cli
