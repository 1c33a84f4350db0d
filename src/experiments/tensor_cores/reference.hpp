// Host side of the tensor-core lesson: rounding to BF16/TF32 and the double-precision reference.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace memlab::lessons::tensor_cores {

inline std::uint32_t float_bits(float f) {
  std::uint32_t u = 0;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f = 0;
  std::memcpy(&f, &u, 4);
  return f;
}
// Round to nearest even BF16 (finite inputs), as __float2bfloat16_rn.
inline std::uint16_t to_bf16(float f) {
  const std::uint32_t u = float_bits(f);
  return static_cast<std::uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}
inline float bf16_value(std::uint16_t h) {
  return bits_float(static_cast<std::uint32_t>(h) << 16);
}
// Round to nearest TF32 (10 mantissa bits), ties away from zero, as cvt.rna.tf32.f32.
inline float to_tf32(float f) {
  return bits_float((float_bits(f) + 0x1000u) & 0xFFFFE000u);
}

// Reference values at chosen positions of C = A B (row-major, padded leading dimensions), in
// double, with the bound sum_k |a_ik b_kj| that the accuracy argument needs.
struct Reference {
  std::vector<std::size_t> rows, cols;
  std::vector<double> value, abs_sum;
};
Reference reference_at(const std::vector<float>& a, int lda, const std::vector<float>& b, int ldb,
                       int m, int n, int k, std::size_t samples, std::uint64_t seed);

}  // namespace memlab::lessons::tensor_cores
