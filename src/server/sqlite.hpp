// A thin RAII layer over Debian's libsqlite3 for the class lab's store (class_store.cpp): one
// connection, WAL, synchronous=FULL (a commit is on disk before it returns), prepared statements
// with bound parameters only (no SQL is ever built from a request's text).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

namespace memlab::server::sql {

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql);
  ~Stmt();
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;

  // Parameters are 1-based, as in SQLite.
  Stmt& bind(int i, const std::string& v);
  Stmt& bind(int i, std::int64_t v);
  Stmt& bind(int i, double v);
  Stmt& bind_null(int i);
  Stmt& bind(int i, const std::optional<double>& v);
  // True while a row is there; throws std::runtime_error on an error.
  bool step();
  std::string text(int col) const;
  std::int64_t integer(int col) const;
  double real(int col) const;
  bool is_null(int col) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

class Db {
 public:
  // Opens (create: creates) the file; WAL, synchronous=FULL, foreign keys, a busy timeout.
  Db(const std::string& path, bool create);
  ~Db();
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  void exec(const char* sql);
  Stmt prepare(const char* sql) { return Stmt(db_, sql); }
  std::int64_t last_insert_id() const { return sqlite3_last_insert_rowid(db_); }
  int changes() const { return sqlite3_changes(db_); }
  sqlite3* raw() { return db_; }

 private:
  sqlite3* db_ = nullptr;
};

// BEGIN IMMEDIATE ... COMMIT; rolled back when destroyed without commit().
class Transaction {
 public:
  explicit Transaction(Db& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit();

 private:
  Db& db_;
  bool open_ = true;
};

}  // namespace memlab::server::sql
