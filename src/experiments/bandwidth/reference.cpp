#include <cmath>

#include "bandwidth/reference.hpp"

namespace memlab::lessons::bandwidth {

float reference(Op op, float a, float b, float s, float fill) {
  switch (op) {
    case Op::Copy:
      return a;
    case Op::Scale:
      return s * a;
    case Op::Add:
      return a + b;
    case Op::Triad:
      return std::fma(s, b, a);
    case Op::Fill:
      return fill;
  }
  return 0.0f;
}

}  // namespace memlab::lessons::bandwidth
