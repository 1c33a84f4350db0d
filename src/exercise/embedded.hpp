// The files of exercises/, embedded at build time (cmake/embed_files.cmake).
#pragma once

#include <cstddef>
#include <vector>

namespace memlab::exercise {

struct EmbeddedFile {
  const char* path;  // "smem_reverse_static/exercise.json"
  const unsigned char* data;
  std::size_t size;
};

const std::vector<EmbeddedFile>& embedded_files();

}  // namespace memlab::exercise
