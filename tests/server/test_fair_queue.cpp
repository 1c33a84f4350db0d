// The one GPU queue (issue 22 #2): round-robin across owners, supersession, the per-owner limit
// and the rate limit, pause/resume, the teacher's reservation, positions and ETA.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <variant>

#include "jobs.hpp"

namespace memlab::server {
namespace {

using namespace std::chrono_literals;

std::string wait_for_end(const JobQueue& q, const std::string& id) {
  for (int i = 0; i < 2000; ++i) {
    const std::string state = (*q.status(id))["state"];
    if (state != "queued" && state != "running") return state;
    std::this_thread::sleep_for(2ms);
  }
  return "timeout";
}

JobSpec learner(const std::string& who, const std::string& key = "") {
  JobSpec s;
  s.kind = "check";
  s.owner = who;
  s.staff = false;
  s.supersede_key = key;
  return s;
}

std::string admitted(std::variant<Admitted, Refused> r) {
  if (const auto* a = std::get_if<Admitted>(&r)) return a->id;
  ADD_FAILURE() << "refused: " << std::get<Refused>(r).message;
  return "";
}

TEST(FairQueue, RoundRobinAcrossOwnersNotFirstCome) {
  JobQueue q(QueueLimits{.max_waiting = 100});
  q.pause();
  std::mutex m;
  std::vector<std::string> started;
  auto work = [&](const std::string& tag) {
    return [&, tag](const JobQueue::Progress&, const std::atomic<bool>&) {
      std::lock_guard lock(m);
      started.push_back(tag);
      return nlohmann::json(tag);
    };
  };
  // A sends three at once, then B and C one each, then B another.
  const std::vector<std::pair<std::string, std::string>> sent = {
      {"A", "a1"}, {"A", "a2"}, {"A", "a3"}, {"B", "b1"}, {"C", "c1"}, {"B", "b2"}};
  std::map<std::string, std::string> ids;
  for (const auto& [owner, tag] : sent) ids[tag] = admitted(q.enqueue(learner(owner), work(tag)));
  // Positions follow the order the queue will serve.
  const std::vector<std::string> expected = {"a1", "b1", "c1", "a2", "b2", "a3"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto st = *q.status(ids[expected[i]]);
    EXPECT_EQ(st["position"], i) << expected[i];
    EXPECT_EQ(st["state"], "queued");
    EXPECT_GT(st["eta_s"].get<double>(), i == 0 ? -1.0 : 0.0) << expected[i];
  }
  const auto view = q.queue_json("B", false);
  EXPECT_TRUE(view["paused"].get<bool>());
  ASSERT_EQ(view["jobs"].size(), 6u);
  EXPECT_EQ(view["jobs"][0]["owner"], "another learner");
  EXPECT_TRUE(view["jobs"][0]["id"].is_null());  // another learner's job id stays hidden
  EXPECT_EQ(view["jobs"][1]["owner"], "B");
  EXPECT_TRUE(view["jobs"][1]["mine"].get<bool>());
  q.resume();
  for (const auto& [tag, id] : ids) EXPECT_EQ(wait_for_end(q, id), "done") << tag;
  EXPECT_EQ(started, expected);
}

TEST(FairQueue, NewerCheckOfTheSameExerciseSupersedesTheQueuedOne) {
  JobQueue q(QueueLimits{.max_waiting = 100});
  q.pause();
  auto noop = [](const JobQueue::Progress&, const std::atomic<bool>&) {
    return nlohmann::json::object();
  };
  const std::string first = admitted(q.enqueue(learner("A", "transpose"), noop));
  const std::string other = admitted(q.enqueue(learner("A", "reverse"), noop));
  const std::string foreign = admitted(q.enqueue(learner("B", "transpose"), noop));
  auto r = q.enqueue(learner("A", "transpose"), noop);
  ASSERT_TRUE(std::holds_alternative<Admitted>(r));
  const auto& a = std::get<Admitted>(r);
  EXPECT_EQ(a.superseded, std::vector<std::string>{first});
  EXPECT_EQ((*q.status(first))["state"], "superseded");
  EXPECT_EQ((*q.status(other))["state"], "queued");    // another exercise stays
  EXPECT_EQ((*q.status(foreign))["state"], "queued");  // another learner's stays
  q.resume();
  EXPECT_EQ(wait_for_end(q, a.id), "done");
  EXPECT_EQ((*q.status(first))["state"], "superseded");
}

TEST(FairQueue, PerLearnerLimitAndRateLimitAnswer429WithRetryAfter) {
  JobQueue q(QueueLimits{.max_waiting = 100, .max_waiting_per_owner = 2});
  q.pause();
  auto noop = [](const JobQueue::Progress&, const std::atomic<bool>&) { return nlohmann::json(); };
  admitted(q.enqueue(learner("A", "x"), noop));
  admitted(q.enqueue(learner("A", "y"), noop));
  auto r = q.enqueue(learner("A", "z"), noop);
  ASSERT_TRUE(std::holds_alternative<Refused>(r));
  EXPECT_EQ(std::get<Refused>(r).status, 429);
  EXPECT_GE(std::get<Refused>(r).retry_after_s, 1.0);
  // Superseding needs no extra room; another learner and the teacher are not limited by A.
  EXPECT_TRUE(std::holds_alternative<Admitted>(q.enqueue(learner("A", "x"), noop)));
  EXPECT_TRUE(std::holds_alternative<Admitted>(q.enqueue(learner("B", "x"), noop)));
  JobSpec teacher;
  teacher.owner = "teacher";
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(std::holds_alternative<Admitted>(q.enqueue(teacher, noop)));

  JobQueue rated(QueueLimits{.max_waiting = 100, .rate_per_minute = 6, .rate_burst = 2});
  rated.pause();
  EXPECT_TRUE(std::holds_alternative<Admitted>(rated.enqueue(learner("A", "1"), noop)));
  EXPECT_TRUE(std::holds_alternative<Admitted>(rated.enqueue(learner("A", "2"), noop)));
  r = rated.enqueue(learner("A", "3"), noop);
  ASSERT_TRUE(std::holds_alternative<Refused>(r));
  // 6 a minute: the next token in about 10 s.
  EXPECT_GE(std::get<Refused>(r).retry_after_s, 9.0);
  EXPECT_LE(std::get<Refused>(r).retry_after_s, 10.0);
  EXPECT_TRUE(std::holds_alternative<Admitted>(rated.enqueue(learner("B", "1"), noop)));
}

TEST(FairQueue, ReservedGpuRunsOnlyTheTeachersJobs) {
  JobQueue q(QueueLimits{.max_waiting = 100});
  q.reserve("teacher", 60);
  std::atomic<bool> learner_ran{false};
  const std::string l =
      admitted(q.enqueue(learner("A"), [&](const JobQueue::Progress&, const std::atomic<bool>&) {
        learner_ran = true;
        return nlohmann::json();
      }));
  JobSpec demo;
  demo.owner = "teacher";
  demo.kind = "run";
  const std::string t = admitted(q.enqueue(
      demo, [](const JobQueue::Progress&, const std::atomic<bool>&) { return nlohmann::json(); }));
  EXPECT_EQ(wait_for_end(q, t), "done");
  std::this_thread::sleep_for(50ms);
  EXPECT_FALSE(learner_ran.load());
  EXPECT_EQ((*q.status(l))["state"], "queued");
  EXPECT_EQ(q.queue_json("A", false)["reserved"]["by"], "teacher");
  q.release();
  EXPECT_EQ(wait_for_end(q, l), "done");
  EXPECT_TRUE(learner_ran.load());
  EXPECT_TRUE(q.queue_json("A", false)["reserved"].is_null());
}

TEST(FairQueue, CancelReachesARunningJobAndEtaLearnsDurations) {
  JobQueue q(QueueLimits{.max_waiting = 100});
  const std::string slow = admitted(
      q.enqueue(learner("A"), [](const JobQueue::Progress&, const std::atomic<bool>& cancel) {
        while (!cancel.load()) std::this_thread::sleep_for(1ms);
        return nlohmann::json{{"stopped", true}};
      }));
  while ((*q.status(slow))["state"] != "running") std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(q.cancel(slow));
  EXPECT_EQ(wait_for_end(q, slow), "cancelled");
  EXPECT_EQ((*q.status(slow))["result"]["stopped"], true);
  EXPECT_EQ(q.expected_s("run"), 60.0);  // nothing measured: the first guess
  for (int i = 0; i < 3; ++i) {
    const std::string id =
        admitted(q.enqueue(learner("B"), [](const JobQueue::Progress&, const std::atomic<bool>&) {
          std::this_thread::sleep_for(40ms);
          return nlohmann::json();
        }));
    EXPECT_EQ(wait_for_end(q, id), "done");
  }
  // Four checks ran: the cancelled one (~0 s) and three of 40 ms.
  EXPECT_GT(q.expected_s("check"), 0.02);
  EXPECT_LT(q.expected_s("check"), 1.0);
}

}  // namespace
}  // namespace memlab::server
