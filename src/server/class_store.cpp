#include "class_store.hpp"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <chrono>
#include <ctime>
#include <filesystem>

#include "memlab/common/error.hpp"
#include "security.hpp"
#include "sqlite.hpp"

namespace memlab::server {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr const char* kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE learners(
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  created_at TEXT NOT NULL);
CREATE TABLE tokens(
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('teacher', 'learner')),
  learner_id INTEGER REFERENCES learners(id),
  created_at TEXT NOT NULL,
  expires_at TEXT NOT NULL,
  revoked_at TEXT);
CREATE TABLE attempts(
  id INTEGER PRIMARY KEY,
  job_id TEXT UNIQUE,
  owner TEXT NOT NULL,
  learner_id INTEGER REFERENCES learners(id),
  exercise TEXT NOT NULL,
  lesson TEXT NOT NULL,
  status TEXT NOT NULL,
  message TEXT NOT NULL,
  created_at TEXT NOT NULL,
  source TEXT NOT NULL,
  median_ms REAL, achieved REAL, target REAL, target_met INTEGER,
  build TEXT NOT NULL, device TEXT NOT NULL,
  limits TEXT NOT NULL, counters TEXT, result TEXT NOT NULL,
  wait_s REAL NOT NULL, run_s REAL NOT NULL);
CREATE INDEX attempts_learner ON attempts(learner_id, exercise);
CREATE TABLE claims(id INTEGER PRIMARY KEY, created_at TEXT NOT NULL, result TEXT NOT NULL);
)sql";

constexpr const char* kAttemptColumns =
    "id, learner_id, owner, exercise, status, message, created_at, median_ms, achieved, target, "
    "target_met, build, device, wait_s, run_s, "
    "(SELECT name FROM learners WHERE learners.id = attempts.learner_id)";

std::optional<double> opt_real(const sql::Stmt& s, int col) {
  if (s.is_null(col)) return std::nullopt;
  return s.real(col);
}

json nullable(const std::optional<double>& v) {
  return v ? json(*v) : json(nullptr);
}

// One row of kAttemptColumns as the API's attempt object.
json attempt_row(const sql::Stmt& s) {
  const std::string owner = s.text(2);
  json tm = nullptr;
  if (!s.is_null(10)) tm = s.integer(10) != 0;
  return {{"id", s.integer(0)},
          {"learner_id", s.is_null(1) ? json(nullptr) : json(s.integer(1))},
          {"learner", s.is_null(1) ? owner : s.text(15)},
          {"exercise", s.text(3)},
          {"status", s.text(4)},
          {"message", s.text(5)},
          {"created_at", s.text(6)},
          {"median_ms", nullable(opt_real(s, 7))},
          {"achieved", nullable(opt_real(s, 8))},
          {"target", nullable(opt_real(s, 9))},
          {"target_met", tm},
          {"build", s.text(11)},
          {"device", s.text(12)},
          {"wait_s", s.real(13)},
          {"run_s", s.real(14)}};
}

std::string meta(sql::Db& db, const char* key) {
  auto s = db.prepare("SELECT value FROM meta WHERE key = ?");
  s.bind(1, std::string(key));
  if (!s.step()) throw UsageError(fmt::format("--class: the class store has no '{}'", key));
  return s.text(0);
}

IssuedToken insert_token(sql::Db& db, const char* role, std::int64_t learner_id,
                         const std::string& expires_at) {
  IssuedToken t;
  t.token = random_token();
  t.learner_id = learner_id;
  t.expires_at = expires_at;
  auto s = db.prepare(
      "INSERT INTO tokens(hash, role, learner_id, created_at, expires_at) VALUES (?, ?, ?, ?, ?)");
  s.bind(1, token_hash(t.token)).bind(2, std::string(role));
  if (learner_id > 0) {
    s.bind(3, learner_id);
  } else {
    s.bind_null(3);
  }
  s.bind(4, iso_now()).bind(5, expires_at);
  s.step();
  return t;
}

std::optional<IssuedToken> insert_learner(sql::Db& db, const std::string& name,
                                          const std::string& expires_at) {
  auto exists = db.prepare("SELECT 1 FROM learners WHERE name = ?");
  exists.bind(1, name);
  if (exists.step()) return std::nullopt;
  auto s = db.prepare("INSERT INTO learners(name, created_at) VALUES (?, ?)");
  s.bind(1, name).bind(2, iso_now());
  s.step();
  IssuedToken t = insert_token(db, "learner", db.last_insert_id(), expires_at);
  t.name = name;
  return t;
}

// A class code a learner types: 8 characters without look-alikes (no 0/O, 1/l/I).
std::string class_code() {
  static constexpr char kAlphabet[] = "abcdefghjkmnpqrstuvwxyz23456789";
  const std::string hex = random_token();
  std::string code;
  for (std::size_t i = 0; i < 8; ++i) {
    const unsigned v = static_cast<unsigned>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    code += kAlphabet[v % (sizeof kAlphabet - 1)];
  }
  return code;
}

}  // namespace

const char* to_string(Role r) {
  switch (r) {
    case Role::Owner:
      return "owner";
    case Role::Teacher:
      return "teacher";
    case Role::Learner:
      return "learner";
  }
  return "owner";
}

std::string Principal::key() const {
  return role == Role::Learner ? fmt::format("learner:{}", learner_id) : to_string(role);
}

std::string token_hash(const std::string& token) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  if (EVP_Digest(token.data(), token.size(), digest, &len, EVP_sha256(), nullptr) != 1) {
    throw std::runtime_error("SHA-256 (OpenSSL EVP_Digest) failed");
  }
  std::string hex;
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", digest[i]);
  return hex;
}

std::string iso_now(std::int64_t offset_s) {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now()) +
                        static_cast<std::time_t>(offset_s);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::int64_t parse_duration(const std::string& text, const std::string& option) {
  const auto bad = [&] {
    return UsageError(fmt::format(
        "{}: '{}' is not a duration; accepted: a number with s, m, h or d (e.g. 30d), up to 400d",
        option, text.substr(0, 40)));
  };
  if (text.size() < 2 || text.size() > 8) throw bad();
  std::int64_t n = 0;
  for (std::size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') throw bad();
    n = n * 10 + (text[i] - '0');
  }
  std::int64_t unit = 0;
  switch (text.back()) {
    case 's':
      unit = 1;
      break;
    case 'm':
      unit = 60;
      break;
    case 'h':
      unit = 3600;
      break;
    case 'd':
      unit = 86400;
      break;
    default:
      throw bad();
  }
  if (n <= 0 || n * unit > 400 * 86400) throw bad();
  return n * unit;
}

ClassCreated ClassStore::create(const std::string& dir, const std::string& name,
                                std::int64_t expires_in_s, const std::vector<std::string>& roster,
                                const std::string& dir_option) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (!fs::is_directory(dir)) {
    throw UsageError(fmt::format("{}: '{}' is not a directory and cannot be created", dir_option,
                                 dir.substr(0, 200)));
  }
  const fs::path file = fs::path(dir) / "class.db";
  if (fs::exists(file)) {
    throw UsageError(fmt::format("{}: '{}' already holds a class (class.db); choose another folder",
                                 dir_option, dir.substr(0, 200)));
  }
  sql::Db db(file.string(), true);
  ClassCreated c;
  c.name = name;
  c.code = class_code();
  c.expires_at = iso_now(expires_in_s);
  sql::Transaction tx(db);
  db.exec(kSchema);
  const std::pair<const char*, std::string> rows[] = {{"schema", "1"},
                                                      {"name", name},
                                                      {"code", c.code},
                                                      {"created_at", iso_now()},
                                                      {"expires_at", c.expires_at}};
  for (const auto& [k, v] : rows) {
    auto s = db.prepare("INSERT INTO meta(key, value) VALUES (?, ?)");
    s.bind(1, std::string(k)).bind(2, v);
    s.step();
  }
  c.teacher = insert_token(db, "teacher", 0, c.expires_at);
  c.teacher.name = "teacher";
  for (const std::string& learner : roster) {
    auto t = insert_learner(db, learner, c.expires_at);
    if (!t) {
      throw UsageError(fmt::format("--roster: '{}' is listed twice (names are case-insensitive)",
                                   learner.substr(0, 60)));
    }
    c.learners.push_back(*t);
  }
  tx.commit();
  return c;
}

ClassStore::ClassStore(const std::string& dir) {
  const fs::path file = fs::path(dir) / "class.db";
  if (!fs::is_regular_file(file)) {
    throw UsageError(fmt::format(
        "--class: '{}' holds no class.db; create one with: memlab class init {} --name NAME",
        dir.substr(0, 200), dir.substr(0, 200)));
  }
  db_ = std::make_unique<sql::Db>(file.string(), false);
  name_ = meta(*db_, "name");
  code_ = meta(*db_, "code");
  expires_at_ = meta(*db_, "expires_at");
}

ClassStore::~ClassStore() = default;

std::string ClassStore::name() const {
  return name_;
}
std::string ClassStore::code() const {
  return code_;
}
std::string ClassStore::expires_at() const {
  return expires_at_;
}

std::optional<Principal> ClassStore::resolve(const std::string& token, std::string* why) const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare(
      "SELECT role, learner_id, expires_at, revoked_at, "
      "(SELECT name FROM learners WHERE learners.id = tokens.learner_id) "
      "FROM tokens WHERE hash = ?");
  s.bind(1, token_hash(token));
  if (!s.step()) {
    *why = "unknown";
    return std::nullopt;
  }
  if (!s.is_null(3)) {
    *why = "revoked";
    return std::nullopt;
  }
  const std::string expires = s.text(2);
  if (expires <= iso_now()) {
    *why = "expired";
    return std::nullopt;
  }
  Principal p;
  p.expires_at = expires;
  if (s.text(0) == "teacher") {
    p.role = Role::Teacher;
    p.name = "teacher";
  } else {
    p.role = Role::Learner;
    p.learner_id = s.integer(1);
    p.name = s.text(4);
  }
  return p;
}

std::optional<IssuedToken> ClassStore::join(const std::string& name) {
  const std::lock_guard lock(mutex_);
  sql::Transaction tx(*db_);
  auto t = insert_learner(*db_, name, expires_at_);
  if (t) tx.commit();
  return t;
}

IssuedToken ClassStore::rotate_teacher_token() {
  const std::lock_guard lock(mutex_);
  sql::Transaction tx(*db_);
  auto s = db_->prepare(
      "UPDATE tokens SET revoked_at = ? WHERE role = 'teacher' AND revoked_at IS NULL");
  s.bind(1, iso_now());
  s.step();
  IssuedToken t = insert_token(*db_, "teacher", 0, expires_at_);
  t.name = "teacher";
  tx.commit();
  return t;
}

json ClassStore::learners() const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare(
      "SELECT l.id, l.name, l.created_at, MAX(t.expires_at), "
      "SUM(CASE WHEN t.revoked_at IS NULL THEN 1 ELSE 0 END) "
      "FROM learners l LEFT JOIN tokens t ON t.learner_id = l.id GROUP BY l.id ORDER BY l.id");
  json out = json::array();
  while (s.step()) {
    out.push_back({{"learner_id", s.integer(0)},
                   {"name", s.text(1)},
                   {"created_at", s.text(2)},
                   {"expires_at", s.text(3)},
                   {"revoked", s.integer(4) == 0}});
  }
  return out;
}

bool ClassStore::revoke_learner(std::int64_t id) {
  const std::lock_guard lock(mutex_);
  sql::Transaction tx(*db_);
  auto exists = db_->prepare("SELECT 1 FROM learners WHERE id = ?");
  exists.bind(1, id);
  if (!exists.step()) return false;
  auto s =
      db_->prepare("UPDATE tokens SET revoked_at = ? WHERE learner_id = ? AND revoked_at IS NULL");
  s.bind(1, iso_now()).bind(2, id);
  s.step();
  tx.commit();
  return true;
}

std::int64_t ClassStore::add_attempt(const Attempt& a) {
  const std::lock_guard lock(mutex_);
  sql::Transaction tx(*db_);
  auto s = db_->prepare(
      "INSERT INTO attempts(job_id, owner, learner_id, exercise, lesson, status, message, "
      "created_at, source, median_ms, achieved, target, target_met, build, device, limits, "
      "counters, result, wait_s, run_s) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, "
      "?, ?, ?, ?)");
  if (a.job_id.empty()) {
    s.bind_null(1);
  } else {
    s.bind(1, a.job_id);
  }
  s.bind(2, a.owner);
  if (a.learner_id > 0) {
    s.bind(3, a.learner_id);
  } else {
    s.bind_null(3);
  }
  s.bind(4, a.exercise).bind(5, a.lesson).bind(6, a.status).bind(7, a.message);
  s.bind(8, iso_now()).bind(9, a.source);
  s.bind(10, a.median_ms).bind(11, a.achieved).bind(12, a.target);
  if (a.target_met) {
    s.bind(13, static_cast<std::int64_t>(*a.target_met ? 1 : 0));
  } else {
    s.bind_null(13);
  }
  s.bind(14, a.build).bind(15, a.device).bind(16, a.limits.dump());
  if (a.counters.is_null()) {
    s.bind_null(17);
  } else {
    s.bind(17, a.counters.dump());
  }
  s.bind(18, a.result.dump(-1, ' ', false, json::error_handler_t::replace));
  s.bind(19, a.wait_s).bind(20, a.run_s);
  s.step();
  const std::int64_t id = db_->last_insert_id();
  tx.commit();
  return id;
}

std::optional<json> ClassStore::attempt_of_job(const std::string& job_id) const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare("SELECT id, result, owner FROM attempts WHERE job_id = ?");
  s.bind(1, job_id);
  if (!s.step()) return std::nullopt;
  json r = json::parse(s.text(1), nullptr, false);
  if (!r.is_object()) r = json::object();
  r["attempt_id"] = s.integer(0);
  return json{{"result", r}, {"owner", s.text(2)}};
}

json ClassStore::attempts(const std::string& exercise, std::int64_t learner_id) const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare(
      fmt::format("SELECT {} FROM attempts WHERE (?1 = '' OR exercise = ?1) AND (?2 = 0 OR "
                  "learner_id = ?2) ORDER BY id",
                  kAttemptColumns)
          .c_str());
  s.bind(1, exercise).bind(2, learner_id);
  json out = json::array();
  while (s.step()) out.push_back(attempt_row(s));
  return out;
}

std::optional<json> ClassStore::attempt(std::int64_t id, std::int64_t learner_id) const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare(
      fmt::format("SELECT {}, source, result, limits, counters FROM attempts WHERE id = ?1 AND "
                  "(?2 = 0 OR learner_id = ?2)",
                  kAttemptColumns)
          .c_str());
  s.bind(1, id).bind(2, learner_id);
  if (!s.step()) return std::nullopt;
  json a = attempt_row(s);
  a["source"] = s.text(16);
  a["result"] = json::parse(s.text(17), nullptr, false);
  a["limits"] = json::parse(s.text(18), nullptr, false);
  a["counters"] = s.is_null(19) ? json(nullptr) : json::parse(s.text(19), nullptr, false);
  return a;
}

json ClassStore::export_rows() const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare(
      fmt::format("SELECT {}, source FROM attempts ORDER BY id", kAttemptColumns).c_str());
  json out = json::array();
  while (s.step()) {
    json row = attempt_row(s);
    row["source"] = s.text(16);
    out.push_back(std::move(row));
  }
  return out;
}

std::int64_t ClassStore::attempt_count() const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare("SELECT COUNT(*) FROM attempts");
  s.step();
  return s.integer(0);
}

void ClassStore::save_claims(const json& result) {
  const std::lock_guard lock(mutex_);
  sql::Transaction tx(*db_);
  auto s = db_->prepare("INSERT INTO claims(created_at, result) VALUES (?, ?)");
  s.bind(1, iso_now()).bind(2, result.dump(-1, ' ', false, json::error_handler_t::replace));
  s.step();
  tx.commit();
}

std::optional<json> ClassStore::latest_claims() const {
  const std::lock_guard lock(mutex_);
  auto s = db_->prepare("SELECT created_at, result FROM claims ORDER BY id DESC LIMIT 1");
  if (!s.step()) return std::nullopt;
  json r = json::parse(s.text(1), nullptr, false);
  if (!r.is_object()) r = json::object();
  r["created_at"] = s.text(0);
  return r;
}

}  // namespace memlab::server
