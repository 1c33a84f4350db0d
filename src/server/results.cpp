#include "results.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

namespace memlab::server {
namespace fs = std::filesystem;
namespace {
constexpr std::size_t kMaxFiles = 500;
constexpr std::uintmax_t kMaxFileBytes = std::uintmax_t{64} << 20;

std::optional<std::string> read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}
}  // namespace

bool ResultsStore::valid_id(const std::string& id) {
  if (id.empty() || id.size() > 128) return false;
  for (std::size_t i = 0; i < id.size(); ++i) {
    const char c = id[i];
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && (i == 0 || (c != '.' && c != '_' && c != '-'))) return false;
  }
  return true;
}

std::map<std::string, std::string> ResultsStore::scan() const {
  std::map<std::string, std::string> out;
  if (dir_.empty()) return out;
  std::error_code ec;
  for (fs::directory_iterator it(dir_, ec), end; !ec && it != end && out.size() < kMaxFiles;
       it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".json" || !it->is_regular_file(ec)) continue;
    const std::string id = p.stem().string();
    if (valid_id(id)) out[id] = p.string();
  }
  return out;
}

nlohmann::json ResultsStore::list() {
  nlohmann::json out = nlohmann::json::array();
  std::lock_guard lock(mutex_);
  for (const auto& [id, path] : scan()) {
    std::error_code ec;
    const auto size = fs::file_size(path, ec);
    const auto mtime = fs::last_write_time(path, ec).time_since_epoch().count();
    Entry& e = cache_[id];
    if (e.summary.is_null() || e.size != size || e.mtime != static_cast<std::time_t>(mtime)) {
      e.size = size;
      e.mtime = static_cast<std::time_t>(mtime);
      e.summary = {{"id", id}};
      const auto text = size <= kMaxFileBytes ? read_text(path) : std::nullopt;
      const auto j = text ? nlohmann::json::parse(*text, nullptr, false) : nlohmann::json();
      if (!j.is_object() || !j.contains("context") || !j.contains("records")) {
        e.summary["error"] = "not a memlab run JSON";
      } else {
        const auto& c = j["context"];
        e.summary["date"] = c.value("date", "");
        e.summary["device"] = c.contains("device") ? c["device"].value("name", "") : "";
        e.summary["commit"] =
            c.contains("tool") ? c["tool"].value("git_commit", "") : std::string();
        e.summary["quick"] = c.value("quick", false);
        e.summary["records"] = j["records"].is_array() ? j["records"].size() : 0;
      }
    }
    out.push_back(e.summary);
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a.value("date", "") > b.value("date", "");
  });
  return out;
}

std::optional<std::string> ResultsStore::get(const std::string& id) {
  if (!valid_id(id)) return std::nullopt;
  const auto files = scan();
  const auto it = files.find(id);
  if (it == files.end()) return std::nullopt;
  std::error_code ec;
  if (fs::file_size(it->second, ec) > kMaxFileBytes) return std::nullopt;
  return read_text(it->second);
}

}  // namespace memlab::server
