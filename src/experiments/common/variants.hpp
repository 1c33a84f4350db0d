// Typed variants: a lesson names each variant once, as an enumerator of its `enum class Variant`
// and one row {id, name, description} of a constexpr table in registration order. Launchers switch
// over the enum (exhaustive, no default: -Wswitch is an error); experiment.cpp registers by
// looping over the table; the check hook turns the harness's variant name back into the enum once.
//
//   enum class Variant { Naive, Tiled };
//   inline constexpr VariantInfo<Variant> kVariants[] = {
//       {Variant::Naive, "naive", "one thread per output"},
//       {Variant::Tiled, "tiled", "32 x 32 tiles in shared memory"},
//   };
//   const Variant v = variant_of(kVariants, name, "lesson");  // std::logic_error if unknown
//
// Plain C++ (no CUDA headers): usable from kernels.cuh, experiment.cpp and the tests.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace memlab::lessons {

template <class Id>
struct VariantInfo {
  Id id;
  const char* name;         // as the CLI, the records and the tests spell it
  const char* description;  // one line: what the variant does to memory
};

// The name of `id` in its lesson's table. An id missing from the table is a bug in the lesson.
template <class Id, std::size_t N>
constexpr const char* variant_name(const VariantInfo<Id> (&table)[N], Id id) {
  for (const VariantInfo<Id>& v : table) {
    if (v.id == id) return v.name;
  }
  throw std::logic_error("variant table misses an enumerator");
}

// After an exhaustive switch that returns in every case: a value outside the enum is a bug.
[[noreturn]] inline void invalid_variant(std::string_view lesson) {
  throw std::logic_error(std::string(lesson) + ": variant value outside its enum");
}

// The enumerator named `name`. The harness only passes names the lesson registered, so an unknown
// name is a bug in memlab (not a user input): std::logic_error naming the lesson and the name.
template <class Id, std::size_t N>
Id variant_of(const VariantInfo<Id> (&table)[N], std::string_view name, std::string_view lesson) {
  for (const VariantInfo<Id>& v : table) {
    if (name == v.name) return v.id;
  }
  throw std::logic_error(std::string(lesson) + ": unknown variant " + std::string(name));
}

}  // namespace memlab::lessons
