#include "exercise/headers.hpp"

namespace memlab::exercise {
namespace {

constexpr const char* kNone =
    "// memlab: served from memory; NVRTC needs no header for this (printf, the math functions,\n"
    "// atomics and assert are built in).\n";

constexpr const char* kStdint = R"(// memlab: served from memory (LP64).
#pragma once
typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;
typedef long intptr_t;
typedef unsigned long uintptr_t;
typedef long long intmax_t;
typedef unsigned long long uintmax_t;
#define INT8_MIN (-128)
#define INT8_MAX 127
#define UINT8_MAX 255
#define INT16_MIN (-32768)
#define INT16_MAX 32767
#define UINT16_MAX 65535
#define INT32_MIN (-2147483647 - 1)
#define INT32_MAX 2147483647
#define UINT32_MAX 4294967295u
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT64_MAX 9223372036854775807LL
#define UINT64_MAX 18446744073709551615ULL
#define SIZE_MAX 18446744073709551615UL
)";

constexpr const char* kClimits = R"(// memlab: served from memory (LP64).
#pragma once
#define CHAR_BIT 8
#define SCHAR_MIN (-128)
#define SCHAR_MAX 127
#define UCHAR_MAX 255
#define CHAR_MIN SCHAR_MIN
#define CHAR_MAX SCHAR_MAX
#define SHRT_MIN (-32768)
#define SHRT_MAX 32767
#define USHRT_MAX 65535
#define INT_MIN (-2147483647 - 1)
#define INT_MAX 2147483647
#define UINT_MAX 4294967295u
#define LONG_MIN (-9223372036854775807L - 1)
#define LONG_MAX 9223372036854775807L
#define ULONG_MAX 18446744073709551615UL
#define LLONG_MIN (-9223372036854775807LL - 1)
#define LLONG_MAX 9223372036854775807LL
#define ULLONG_MAX 18446744073709551615ULL
)";

constexpr const char* kCfloat = R"(// memlab: served from memory (IEEE 754 binary32/binary64).
#pragma once
#define FLT_MAX 3.40282347e+38F
#define FLT_MIN 1.17549435e-38F
#define FLT_EPSILON 1.19209290e-7F
#define FLT_MANT_DIG 24
#define DBL_MAX 1.7976931348623157e+308
#define DBL_MIN 2.2250738585072014e-308
#define DBL_EPSILON 2.2204460492503131e-16
#define DBL_MANT_DIG 53
)";

constexpr const char* kCmath =
    R"(// memlab: served from memory; the math functions (sqrtf, expf, fmaf, ...) are built into NVRTC.
#pragma once
#ifndef INFINITY
#define INFINITY __int_as_float(0x7f800000)
#endif
#ifndef NAN
#define NAN __int_as_float(0x7fffffff)
#endif
#ifndef HUGE_VALF
#define HUGE_VALF INFINITY
#endif
)";

}  // namespace

const std::vector<std::pair<std::string, std::string>>& learner_headers() {
  static const std::vector<std::pair<std::string, std::string>> headers = {
      {"cstdio", kNone},
      {"stdio.h", kNone},
      {"cstdlib", kNone},
      {"stdlib.h", kNone},
      {"cassert", kNone},
      {"assert.h", kNone},
      {"cmath", kCmath},
      {"math.h", kCmath},
      {"cstdint", kStdint},
      {"stdint.h", kStdint},
      {"climits", kClimits},
      {"limits.h", kClimits},
      {"cfloat", kCfloat},
      {"float.h", kCfloat},
      {"cstddef", kNone},
      {"stddef.h", kNone},
      {"cuda_runtime.h", kNone},
      {"cuda.h", kNone},
      {"device_launch_parameters.h", kNone},
  };
  return headers;
}

std::string learner_header_list() {
  std::string s;
  for (const auto& [name, content] : learner_headers()) {
    if (!s.empty()) s += ", ";
    s += "<" + name + ">";
  }
  return s;
}

}  // namespace memlab::exercise
