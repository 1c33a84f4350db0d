// A class lab on an ephemeral loopback port in the test process: a class store in a fresh
// folder, the teacher's token, two learners from the roster, one revoked and one expired.
#pragma once

#include <gtest/gtest.h>
#include <httplib.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>

#include "class_store.hpp"
#include "memlab/server/server.hpp"

namespace memlab::server::testing {

class ClassTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    char dir[] = "/tmp/memlab-class-test-XXXXXX";
    ASSERT_NE(mkdtemp(dir), nullptr);
    dir_ = dir;
    const auto c =
        ClassStore::create(dir_, "Kurseinheit 6", 3600, {"Ada", "Grace", "Revoked", "Expired"});
    created_ = new ClassCreated(c);
    {
      ClassStore store(dir_);
      ASSERT_TRUE(store.revoke_learner(c.learners[2].learner_id));
    }
    // The expired learner: their token's expiry moved into the past, as time would.
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ + "/class.db").c_str(), &db), SQLITE_OK);
    const std::string sql =
        "UPDATE tokens SET expires_at = '2000-01-01T00:00:00Z' WHERE "
        "learner_id = " +
        std::to_string(c.learners[3].learner_id);
    ASSERT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    ServerOptions o;
    o.port = 0;
    o.memlab_exe = MEMLAB_BINARY;
    o.io_timeout_s = 2;
    o.threads = 8;
    o.class_dir = dir_;
    o.checks_per_minute = 600;
    o.max_queued_checks = 3;
    server_ = new Server(o);
    port_ = server_->start_in_background();
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    delete created_;
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  static httplib::Client client() {
    httplib::Client c("127.0.0.1", port_);
    c.set_read_timeout(20, 0);
    return c;
  }
  static httplib::Headers as(const std::string& token) { return {{"X-Memlab-Token", token}}; }
  static const std::string& teacher() { return created_->teacher.token; }
  static const std::string& ada() { return created_->learners[0].token; }
  static const std::string& grace() { return created_->learners[1].token; }
  static const std::string& revoked() { return created_->learners[2].token; }
  static const std::string& expired() { return created_->learners[3].token; }

  static nlohmann::json body(const httplib::Result& r) {
    EXPECT_TRUE(r) << "no response";
    if (!r) return {};
    return nlohmann::json::parse(r->body, nullptr, false);
  }

  // Polls GET /api/jobs/<id> until the job has ended.
  static nlohmann::json wait_job(const std::string& id, const std::string& token) {
    nlohmann::json job;
    for (int i = 0; i < 600; ++i) {
      job = body(client().Get("/api/jobs/" + id, as(token)));
      const std::string state = job.value("state", "");
      if (state != "queued" && state != "running") break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return job;
  }

  static inline Server* server_ = nullptr;
  static inline int port_ = 0;
  static inline std::string dir_;
  static inline ClassCreated* created_ = nullptr;
};

}  // namespace memlab::server::testing
