// The class lab's store (issue 22): one SQLite file DIR/class.db holding the class, its learners,
// their tokens (SHA-256 only, with expiry and revocation), every finished check (an attempt) and
// the latest class claims. Every write is one transaction, committed (synchronous=FULL, WAL)
// before the caller answers anything that depends on it. Thread-safe (one connection, a mutex).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace memlab::server {

namespace sql {
class Db;
}

enum class Role { Owner, Teacher, Learner };
const char* to_string(Role r);

// Who sent a request: the single-user owner, the class's teacher, or one learner.
struct Principal {
  Role role = Role::Owner;
  std::int64_t learner_id = 0;  // learners only
  std::string name;             // the learner's name; "teacher" / "owner"
  std::string expires_at;       // ISO 8601 UTC; "" for the owner
  // The queue's owner key: "owner", "teacher" or "learner:<id>".
  std::string key() const;
  bool is_staff() const { return role != Role::Learner; }
};

// SHA-256 of the token as 64 hex digits (OpenSSL EVP); what the store keeps instead of a token.
std::string token_hash(const std::string& token);
// "2026-12-01T10:00:00Z" for a time `offset_s` seconds from now.
std::string iso_now(std::int64_t offset_s = 0);
// "30d", "12h", "90m", "45s" -> seconds; throws UsageError naming `option`.
std::int64_t parse_duration(const std::string& text, const std::string& option);

struct IssuedToken {
  std::string token;  // shown once, never stored
  std::int64_t learner_id = 0;
  std::string name;
  std::string expires_at;
};

struct ClassCreated {
  std::string name, code, expires_at;
  IssuedToken teacher;
  std::vector<IssuedToken> learners;
};

struct Attempt {
  std::string owner;            // Principal::key()
  std::int64_t learner_id = 0;  // 0: the teacher's or the owner's
  std::string job_id, exercise, lesson, source, status, message;
  std::optional<double> median_ms, achieved, target;
  std::optional<bool> target_met;
  std::string build, device;
  nlohmann::json limits, counters, result;
  double wait_s = 0, run_s = 0;
};

class ClassStore {
 public:
  // Creates DIR/class.db (DIR is created; an existing class.db is refused: UsageError naming
  // `dir_option`), the teacher's token and one token per roster name.
  static ClassCreated create(const std::string& dir, const std::string& name,
                             std::int64_t expires_in_s, const std::vector<std::string>& roster,
                             const std::string& dir_option = "DIR");

  // Opens DIR/class.db (UsageError naming --class when it is missing or not a class).
  explicit ClassStore(const std::string& dir);
  ~ClassStore();
  ClassStore(const ClassStore&) = delete;
  ClassStore& operator=(const ClassStore&) = delete;

  std::string name() const;
  std::string code() const;
  std::string expires_at() const;

  // The token's principal; nullopt with `why` ("unknown", "revoked", "expired") otherwise.
  std::optional<Principal> resolve(const std::string& token, std::string* why) const;

  // A new learner with a token; nullopt if the name is taken (case-insensitively).
  std::optional<IssuedToken> join(const std::string& name);
  // A new token for the teacher (the old ones are revoked).
  IssuedToken rotate_teacher_token();
  // [{learner_id, name, created_at, expires_at, revoked}]
  nlohmann::json learners() const;
  // False if no such learner.
  bool revoke_learner(std::int64_t id);

  // Writes one attempt in one transaction; returns its id.
  std::int64_t add_attempt(const Attempt& a);
  // The attempt written for a job (its result JSON with attempt_id), if any.
  std::optional<nlohmann::json> attempt_of_job(const std::string& job_id) const;
  // Rows (no source/result) with the filters; learner_id 0: everyone.
  nlohmann::json attempts(const std::string& exercise, std::int64_t learner_id) const;
  // One attempt with source and result; nullopt if absent or (learner_id != 0) not theirs.
  std::optional<nlohmann::json> attempt(std::int64_t id, std::int64_t learner_id) const;
  // Every attempt, oldest first, as export rows (source included, result not).
  nlohmann::json export_rows() const;
  std::int64_t attempt_count() const;

  void save_claims(const nlohmann::json& result);
  std::optional<nlohmann::json> latest_claims() const;

 private:
  mutable std::mutex mutex_;
  std::unique_ptr<sql::Db> db_;
  std::string name_, code_, expires_at_;
};

}  // namespace memlab::server
