// aos_soa: particles with 8 float fields (x, y, z, vx, vy, vz, mass, charge: 32 bytes).
//
// Array of structures (AoS): particle i's fields are adjacent, so lane t reading field f touches
// byte 32 t + 4 f: a warp's 4-byte load spans 1024 bytes, one sector per lane, 1/8 of each sector
// used. Structure of arrays (SoA): field f of all particles is one array, lane t reads f[t], a
// warp's load is 128 contiguous bytes.
//   update=one  x' = a x + b        useful bytes 8 per particle (read x, write x)
//   update=all  every field read and written (x += dt vx, ..., v *= damping, vz -= g dt)
//               useful bytes 64 per particle
// Variants: the enumerators of `Variant` below.
// The kernels are out of place (in -> out) so that every run can be verified.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "common/variants.hpp"

namespace memlab::lessons::aos_soa {

inline constexpr int kFields = 8;
inline constexpr int kTile = 32;                        // particles per AoSoA tile
inline constexpr float kA = 1.0009765625f, kB = 0.25f;  // x' = kA x + kB
inline constexpr float kDt = 0.0078125f, kDamp = 0.9990234375f, kG = 9.8125f;

enum class Layout { Aos, Soa, Aosoa };
enum class Update { One, All };

// AoS: base[i * 8 + f]; SoA: base[f * n + i]; AoSoA: base[(i / 32) * 256 + f * 32 + i % 32].
// AoSoA buffers hold whole tiles: ceil(n / 32) * 256 floats.
// Host and device: where field f of particle i lives in each layout.
std::size_t layout_floats(Layout layout, std::size_t n);

// Rewrites an AoS buffer into `layout` (not timed: used to prepare the inputs).
void relayout_from_aos(Layout layout, const float* aos, float* out, std::size_t n,
                       cudaStream_t stream);

enum class Variant {
  // AoS, one 4-byte access per field: "one" drags 32 bytes per 4 used (8x traffic); "all" uses
  // every byte but issues 8 strided 4-byte loads per particle.
  Aos,
  // AoS read and written as two float4 per particle: all bytes used, 16-byte accesses (for "one"
  // it still moves the whole structure).
  AosF4,
  // SoA, 4-byte coalesced accesses: "one" moves only x.
  Soa,
  // Array of structures of arrays, tiles of 32 particles per field: coalesced like SoA, while one
  // particle's fields stay within one kilobyte.
  Aosoa32,
};

inline constexpr VariantInfo<Variant> kVariants[] = {
    {Variant::Aos, "aos", "array of structures, one 4-byte access per field"},
    {Variant::AosF4, "aos_f4", "array of structures, two 16-byte accesses per particle"},
    {Variant::Soa, "soa", "structure of arrays, coalesced 4-byte accesses"},
    {Variant::Aosoa32, "aosoa32", "tiles of 32 particles per field (AoSoA)"},
};

// The layout a variant reads and writes.
constexpr Layout layout_of(Variant v) {
  switch (v) {
    case Variant::Aos:
    case Variant::AosF4:
      return Layout::Aos;
    case Variant::Soa:
      return Layout::Soa;
    case Variant::Aosoa32:
      return Layout::Aosoa;
  }
  invalid_variant("aos_soa");
}

void launch(Variant variant, Update update, const float* in, float* out, std::size_t n,
            cudaStream_t stream);

}  // namespace memlab::lessons::aos_soa
