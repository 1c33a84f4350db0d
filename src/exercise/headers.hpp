// The headers a learner's kernel may include (issue 21, holes 1 and 2). NVRTC needs none of
// them: printf, the math functions, atomics, assert and size_t are built in. The ones a learner
// writes from habit are served from memory, each with a one-line comment that says so, and
// nothing else can be included (the compile runs in the sandbox, exercise/sandbox.hpp).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace memlab::exercise {

// {name as written in #include, content}; <cstdint>/<stdint.h> give the fixed-width integer
// types, <climits>/<cfloat> the limits, the rest are empty.
const std::vector<std::pair<std::string, std::string>>& learner_headers();

// "<cstdio>, <stdio.h>, ..." for error messages.
std::string learner_header_list();

}  // namespace memlab::exercise
