// The GPU job queue: one job runs at a time, in submission order, on one worker thread, so the
// HTTP threads (and the page's explainers) stay responsive while a run measures.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace memlab::server {

class JobQueue {
 public:
  // Reports a progress line; throws Cancelled (runs.hpp) once the job is cancelled.
  using Progress = std::function<void(const std::string&)>;
  using Work = std::function<nlohmann::json(const Progress&)>;
  // Work that watches the job's cancel flag itself (bench::execute): it returns what it has when
  // the flag is set, and the job ends "cancelled" with that result.
  using CancellableWork =
      std::function<nlohmann::json(const Progress&, const std::atomic<bool>& cancel)>;

  explicit JobQueue(std::size_t max_waiting = 8);
  ~JobQueue();  // cancels what is left and joins the worker
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  // The job's id (16 random hex digits), or nullopt when max_waiting jobs already wait.
  std::optional<std::string> submit(Work work);
  std::optional<std::string> submit(CancellableWork work);

  // {id, state: queued|running|done|failed|cancelled, position, progress:[..], records, error}
  std::optional<nlohmann::json> status(const std::string& id) const;

  // False if the id is unknown. A queued job is dropped, a running one stops at its next progress
  // report (between two variants).
  bool cancel(const std::string& id);

 private:
  struct Job {
    std::string id;
    std::string state = "queued";
    std::vector<std::string> progress;
    std::size_t progress_dropped = 0;
    nlohmann::json result;
    std::string error;
    int error_status = 0;
    std::string error_parameter;
    bool cancel_requested = false;
    std::shared_ptr<std::atomic<bool>> cancel_flag = std::make_shared<std::atomic<bool>>(false);
    CancellableWork work;
  };
  void worker_loop();

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Job> jobs_;
  std::deque<std::string> waiting_;
  std::deque<std::string> finished_;  // oldest first, trimmed to kKeepFinished
  std::size_t max_waiting_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace memlab::server
