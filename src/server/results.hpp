// The results folder of `memlab serve --results DIR`: every *.json run in it, listed with a
// summary and served by id (the file name without .json). Only names found by listing the folder
// are ever opened, so an id cannot walk out of it.
#pragma once

#include <ctime>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace memlab::server {

class ResultsStore {
 public:
  explicit ResultsStore(std::string dir) : dir_(std::move(dir)) {}

  // [{id, date, device, commit, records}], newest date first. Files that are not run JSON are
  // listed with an "error" instead.
  nlohmann::json list();

  // The file's text, or nullopt for an unknown id.
  std::optional<std::string> get(const std::string& id);

  // Names a results file may have: [A-Za-z0-9][A-Za-z0-9._-]* (at most 128 characters).
  static bool valid_id(const std::string& id);

 private:
  struct Entry {
    std::time_t mtime = 0;
    std::uintmax_t size = 0;
    nlohmann::json summary;
  };
  std::map<std::string, std::string> scan() const;  // id -> path

  std::string dir_;
  std::mutex mutex_;
  std::map<std::string, Entry> cache_;
};

}  // namespace memlab::server
