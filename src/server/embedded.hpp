// Files embedded into the binary at build time (cmake/embed_web.cmake): the web bundle, the
// WebAssembly models, docs/*.md and each lesson's kernels.cuh / kernels.cu.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace memlab::server::embedded {

struct File {
  const char* path;  // "web/index.html", "wasm/memlab_models.mjs", "docs/coalescing.md", ...
  const unsigned char* data;
  std::size_t size;
};

extern const File kFiles[];  // kFileCount entries (and a terminator)
extern const std::size_t kFileCount;

// The file at exactly `path` (no normalisation: a name with ".." is simply not found).
std::optional<std::string_view> find(std::string_view path);

// The paths that start with `prefix`, in sorted order.
std::vector<std::string_view> list(std::string_view prefix);

}  // namespace memlab::server::embedded
