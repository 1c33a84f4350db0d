#include "memlab/bench/distributed.hpp"

#include <utility>

namespace memlab::bench {
namespace {
Distributed& state() {
  static Distributed d;
  return d;
}
}  // namespace

const Distributed& distributed() {
  return state();
}

void set_distributed(Distributed d) {
  state() = std::move(d);
}

}  // namespace memlab::bench
