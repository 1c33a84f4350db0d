// coalescing: how the addresses of a warp's 32 lanes decide the bytes that cross DRAM.
//
// Lane t of the grid reads element  in[t * stride + offset]  (element size 1, 2, 4, 8 or 16
// bytes). The memory system moves whole 32-byte sectors: with stride 1 a warp's request is
// 32 * size bytes in ceil(32 * size / 32) sectors, all used; with stride s the same request spans
// s times the bytes, and once lanes are a sector or more apart every lane costs a sector of its
// own (efficiency size / 32). An offset shifts the window off the 128-byte line boundary: one more
// sector per request, which L2 mostly absorbs because the neighbouring warp wants it too.
// The variants are the enumerators of `Variant` below.
// Napkin math (H200): 256 MiB read at stride 1 is ~65 us at 4.2 TB/s; at stride 32 with 4-byte
// elements each 4 useful bytes drag a 32-byte sector: 8x the traffic, ~0.5 ms.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "common/variants.hpp"

namespace memlab::lessons::coalescing {

inline constexpr unsigned kBlock = 256;

struct Args {
  const void* in;
  void* out;  // copy: n elements; read: one std::uint32_t per block of the read grid
  std::size_t n;
  std::size_t stride;
  std::size_t offset;
  int elem_size;
};

enum class Variant {
  // Reads only (a resident grid, 4 loads in flight per thread); each block writes one 4-byte XOR
  // of what it read (negligible bytes). Useful bytes: n * size.
  StridedRead,
  // out[t] = in[t * stride + offset]: strided gather, coalesced write. Useful bytes: 2 * n * size.
  StridedCopy,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::StridedRead, "strided_read",
     "lane t reads in[t*stride + offset]; one XOR per block written"},
    {Variant::StridedCopy, "strided_copy",
     "out[t] = in[t*stride + offset]: strided gather, coalesced write"},
};

void launch(Variant variant, const Args& args, cudaStream_t stream);
void launch_read(const Args& args, cudaStream_t stream);
// Blocks strided_read launches for n elements (block b handles every t with t / kBlock = b mod
// grid); the reference needs it.
unsigned read_grid(std::size_t n, int elem_size);
void launch_copy(const Args& args, cudaStream_t stream);

}  // namespace memlab::lessons::coalescing
