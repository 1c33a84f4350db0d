#include "memlab/bench/verify.hpp"

#include <fmt/format.h>

namespace memlab::bench {

std::string describe_mismatch(std::size_t index, double got, double want) {
  return fmt::format(" [{}] got {:.9g} want {:.9g};", index, got, want);
}

}  // namespace memlab::bench
