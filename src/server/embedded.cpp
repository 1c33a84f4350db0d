#include "embedded.hpp"

namespace memlab::server::embedded {

std::optional<std::string_view> find(std::string_view path) {
  for (std::size_t i = 0; i < kFileCount; ++i) {
    if (path == kFiles[i].path) {
      return std::string_view(reinterpret_cast<const char*>(kFiles[i].data), kFiles[i].size);
    }
  }
  return std::nullopt;
}

std::vector<std::string_view> list(std::string_view prefix) {
  std::vector<std::string_view> out;
  for (std::size_t i = 0; i < kFileCount; ++i) {
    const std::string_view p = kFiles[i].path;
    if (p.substr(0, prefix.size()) == prefix) out.push_back(p);
  }
  return out;
}

}  // namespace memlab::server::embedded
