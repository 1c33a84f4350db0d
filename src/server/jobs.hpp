// The GPU job queue (issue 22): checks, runs and class claims share it. One job runs at a time on
// one worker thread; the next is chosen round-robin among the owners that have jobs waiting (not
// first-come), so one learner's burst cannot starve the others. A learner's newer check of the
// same exercise supersedes their older queued one; a per-owner limit on queued jobs and a rate
// limit answer 429 with Retry-After. The teacher pauses and resumes the queue, cancels any job
// and reserves the GPU (only staff jobs start while reserved). Positions follow the round-robin
// order; the ETA sums the recent durations of each kind of job ahead.
#pragma once

#include <atomic>
#include <chrono>
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
#include <variant>
#include <vector>

namespace memlab::server {

struct QueueLimits {
  std::size_t max_waiting = 8;            // all owners together
  std::size_t max_waiting_per_owner = 0;  // 0: no per-owner limit (single-user: the owner)
  double rate_per_minute = 0;             // per owner; 0: no rate limit
  double rate_burst = 5;                  // submissions an owner may send at once
  std::size_t keep_finished = 256;        // finished jobs kept in memory for /api/jobs/<id>
};

struct JobSpec {
  std::string kind = "run";     // "check", "run", "claims"
  std::string owner = "owner";  // Principal::key()
  bool staff = true;            // teacher / owner: exempt from limits, runs while reserved
  std::string supersede_key;  // e.g. the exercise: a newer job with the same owner+key replaces it
  std::string id;             // empty: 16 random hex digits (new_job_id())
};

std::string new_job_id();

struct Admitted {
  std::string id;
  std::vector<std::string> superseded;
};
struct Refused {
  int status = 429;
  double retry_after_s = 1;
  std::string message;
};

class JobQueue {
 public:
  // Reports a progress line; throws Cancelled (runs.hpp) once the job is cancelled.
  using Progress = std::function<void(const std::string&)>;
  using Work = std::function<nlohmann::json(const Progress&)>;
  // Work that watches the job's cancel flag itself (bench::execute, a check's worker): it returns
  // what it has when the flag is set, and the job ends "cancelled" with that result.
  using CancellableWork =
      std::function<nlohmann::json(const Progress&, const std::atomic<bool>& cancel)>;

  explicit JobQueue(std::size_t max_waiting = 8);
  explicit JobQueue(QueueLimits limits);
  ~JobQueue();  // cancels what is left and joins the worker
  JobQueue(const JobQueue&) = delete;
  JobQueue& operator=(const JobQueue&) = delete;

  // The owner's run: the job's id, or nullopt when max_waiting jobs already wait.
  std::optional<std::string> submit(Work work);
  std::optional<std::string> submit(CancellableWork work);
  // Admission with the spec's owner, limits and supersession.
  std::variant<Admitted, Refused> enqueue(const JobSpec& spec, CancellableWork work);

  // {id, kind, owner, state: queued|running|done|failed|cancelled|superseded, position, eta_s,
  //  progress:[..], result, records/run (a run), error, parameter, wait_s, run_s}
  std::optional<nlohmann::json> status(const std::string& id) const;
  std::optional<std::string> owner_of(const std::string& id) const;

  // False if the id is unknown. A queued job is dropped, a running one gets its cancel flag (a
  // run stops between two variants, a check's worker is killed).
  bool cancel(const std::string& id);

  void pause();
  void resume();
  // Only staff jobs start until `seconds` from now (or release()).
  void reserve(const std::string& by, double seconds);
  void release();

  // GET /api/queue for `viewer` (an owner key): {paused, reserved, jobs: [{id, kind, owner,
  // state, position, eta_s, mine}]}; other owners shown as "another learner" unless `staff`.
  nlohmann::json queue_json(const std::string& viewer, bool staff) const;

  // Seconds of the recent jobs of this kind (mean of the last 20), or the default guess.
  double expected_s(const std::string& kind) const;

 private:
  using Clock = std::chrono::steady_clock;
  struct Job {
    std::string id;
    JobSpec spec;
    std::string state = "queued";
    std::vector<std::string> progress;
    std::size_t progress_dropped = 0;
    nlohmann::json result;
    std::string error;
    int error_status = 0;
    std::string error_parameter;
    std::shared_ptr<std::atomic<bool>> cancel_flag = std::make_shared<std::atomic<bool>>(false);
    CancellableWork work;
    Clock::time_point queued_at, started_at, ended_at;
  };
  struct Bucket {
    double tokens = 0;
    Clock::time_point at;
  };
  void worker_loop();
  bool reserved_now() const;  // under mutex_
  // The waiting jobs in the order they would start (round-robin over owners); under mutex_.
  std::vector<std::string> order() const;
  void finish(const std::string& id, const std::string& state);  // under mutex_
  nlohmann::json eta_for(const std::vector<std::string>& order, std::size_t position) const;

  QueueLimits limits_;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::map<std::string, Job> jobs_;
  std::map<std::string, std::deque<std::string>> waiting_;  // owner -> ids, oldest first
  std::deque<std::string> ring_;  // owners with waiting jobs; the front is served next
  std::size_t waiting_count_ = 0;
  std::string running_;
  std::deque<std::string> finished_;                     // oldest first, trimmed to keep_finished
  std::map<std::string, std::deque<double>> durations_;  // kind -> recent seconds
  std::map<std::string, Bucket> buckets_;
  bool paused_ = false;
  std::string reserved_by_;
  Clock::time_point reserved_until_{};
  std::string reserved_until_iso_;
  bool stopping_ = false;
  std::thread worker_;
};

}  // namespace memlab::server
