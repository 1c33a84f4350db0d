// CPU references of the coalescing lesson, computed from the counter-based random input
// (memlab::random_byte), so that gigabyte-sized strided inputs never travel back to the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace memlab::lessons::coalescing {

// Bytes of out[i] = in[i * stride + offset] for i < n, elements of elem_size bytes.
std::vector<std::uint8_t> reference_copy(std::uint64_t seed, std::size_t n, std::size_t stride,
                                         std::size_t offset, int elem_size);

// Per block of a grid of `grid` blocks of `block` threads walking t with a grid stride: XOR of
// the 32-bit folds of the elements with (t / block) % grid == b.
std::vector<std::uint32_t> reference_read(std::uint64_t seed, std::size_t n, std::size_t stride,
                                          std::size_t offset, int elem_size, unsigned block,
                                          unsigned grid);

}  // namespace memlab::lessons::coalescing
