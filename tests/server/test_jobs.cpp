// The GPU job queue: one job at a time, in order; progress; cancel of a queued and a running job.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "jobs.hpp"
#include "runs.hpp"

namespace memlab::server {
namespace {

using namespace std::chrono_literals;

std::string wait_for_end(const JobQueue& q, const std::string& id) {
  for (int i = 0; i < 1000; ++i) {
    const std::string state = (*q.status(id))["state"];
    if (state != "queued" && state != "running") return state;
    std::this_thread::sleep_for(5ms);
  }
  return "timeout";
}

TEST(JobQueue, RunsOneJobAtATimeInOrder) {
  JobQueue q;
  std::atomic<int> running{0}, most{0};
  std::vector<int> order;
  std::mutex m;
  std::vector<std::string> ids;
  for (int i = 0; i < 4; ++i) {
    ids.push_back(*q.submit([&, i](const JobQueue::Progress& p) {
      most = std::max(most.load(), ++running);
      p("step");
      std::this_thread::sleep_for(10ms);
      {
        std::lock_guard lock(m);
        order.push_back(i);
      }
      --running;
      return nlohmann::json{{"records", {i}}};
    }));
  }
  for (const auto& id : ids) EXPECT_EQ(wait_for_end(q, id), "done");
  EXPECT_EQ(most.load(), 1);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2, 3}));
  const auto s = *q.status(ids[2]);
  EXPECT_EQ(s["records"], nlohmann::json::array({2}));
  EXPECT_EQ(s["progress"], nlohmann::json::array({"step"}));
}

TEST(JobQueue, CancelStopsARunningJobAndDropsAQueuedOne) {
  JobQueue q;
  std::atomic<bool> started{false};
  const std::string running = *q.submit([&](const JobQueue::Progress& p) {
    started = true;
    for (int i = 0; i < 2000; ++i) {
      p("variant " + std::to_string(i));
      std::this_thread::sleep_for(1ms);
    }
    return nlohmann::json::object();
  });
  std::atomic<bool> ran{false};
  const std::string queued = *q.submit([&](const JobQueue::Progress&) {
    ran = true;
    return nlohmann::json::object();
  });
  while (!started) std::this_thread::sleep_for(1ms);
  EXPECT_EQ((*q.status(queued))["state"], "queued");
  EXPECT_EQ((*q.status(queued))["position"], 0);
  EXPECT_TRUE(q.cancel(queued));
  EXPECT_TRUE(q.cancel(running));
  EXPECT_EQ(wait_for_end(q, running), "cancelled");
  EXPECT_EQ((*q.status(queued))["state"], "cancelled");
  EXPECT_FALSE(ran.load());
  EXPECT_FALSE(q.cancel("nope"));
}

TEST(JobQueue, FullQueueRefusesAndErrorsAreReported) {
  JobQueue q(1);
  std::atomic<bool> release{false};
  const auto blocker = q.submit([&](const JobQueue::Progress&) {
    while (!release) std::this_thread::sleep_for(1ms);
    throw std::runtime_error("boom");
    return nlohmann::json();
  });
  while ((*q.status(*blocker))["state"] != "running") std::this_thread::sleep_for(1ms);
  EXPECT_TRUE(q.submit([](const JobQueue::Progress&) { return nlohmann::json(); }));
  EXPECT_FALSE(q.submit([](const JobQueue::Progress&) { return nlohmann::json(); }));
  release = true;
  EXPECT_EQ(wait_for_end(q, *blocker), "failed");
  EXPECT_EQ((*q.status(*blocker))["error"], "boom");
}

}  // namespace
}  // namespace memlab::server
