// The teacher's view of a class (GET /api/class/overview) and the export rows as CSV, computed
// from the store's attempts and the exercise catalogue (issue 22 #5). Pure over JSON, so the
// host tests feed it attempts without a server.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace memlab::server {

// `attempts`: ClassStore::attempts rows (oldest first); `learners`: ClassStore::learners();
// `best_variants`: attempt id -> the lesson's variants measured beside it ([{variant,
// median_ms}]), for the best attempts. See docs/class-lab.md for the shape.
nlohmann::json class_overview(const nlohmann::json& attempts, const nlohmann::json& learners,
                              const nlohmann::json& best_variants);
// The attempts of the overview that are some learner's best per exercise (their ids).
std::vector<long long> best_attempt_ids(const nlohmann::json& attempts);

// One row per attempt; every field quoted; a field that a spreadsheet would read as a formula
// (= + - @ first) gets a leading apostrophe.
std::string attempts_csv(const nlohmann::json& rows);

}  // namespace memlab::server
