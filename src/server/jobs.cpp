#include "jobs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "api_error.hpp"
#include "class_store.hpp"
#include "memlab/common/error.hpp"
#include "runs.hpp"
#include "security.hpp"

namespace memlab::server {
namespace {
constexpr std::size_t kKeepProgress = 200;
constexpr std::size_t kKeepDurations = 20;

double seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

bool finished_state(const std::string& s) {
  return s != "queued" && s != "running";
}
}  // namespace

JobQueue::JobQueue(std::size_t max_waiting) : JobQueue(QueueLimits{.max_waiting = max_waiting}) {}

JobQueue::JobQueue(QueueLimits limits) : limits_(limits), worker_([this] { worker_loop(); }) {}

JobQueue::~JobQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [id, job] : jobs_) job.cancel_flag->store(true);
  }
  wake_.notify_all();
  worker_.join();
}

std::optional<std::string> JobQueue::submit(Work work) {
  return submit(
      CancellableWork([w = std::move(work)](const Progress& p, const std::atomic<bool>& cancel) {
        return w([&](const std::string& line) {
          if (cancel.load()) throw Cancelled{};
          p(line);
        });
      }));
}

std::optional<std::string> JobQueue::submit(CancellableWork work) {
  auto r = enqueue(JobSpec{}, std::move(work));
  if (const auto* a = std::get_if<Admitted>(&r)) return a->id;
  return std::nullopt;
}

std::string new_job_id() {
  return random_token().substr(0, 16);
}

std::variant<Admitted, Refused> JobQueue::enqueue(const JobSpec& spec, CancellableWork work) {
  const std::string id = spec.id.empty() ? new_job_id() : spec.id;
  std::lock_guard lock(mutex_);
  const auto now = Clock::now();
  // What this job would supersede: the owner's queued jobs of the same kind and key.
  std::vector<std::string> replaced;
  auto& mine = waiting_[spec.owner];
  if (!spec.supersede_key.empty()) {
    for (const std::string& other : mine) {
      const Job& j = jobs_.at(other);
      if (j.spec.kind == spec.kind && j.spec.supersede_key == spec.supersede_key)
        replaced.push_back(other);
    }
  }
  const std::size_t after = waiting_count_ - replaced.size();
  if (after >= limits_.max_waiting) {
    if (mine.empty()) waiting_.erase(spec.owner);
    return Refused{429, std::max(1.0, expected_s("check")),
                   fmt::format("the job queue is full ({} waiting); wait for a job to finish",
                               waiting_count_)};
  }
  if (!spec.staff && limits_.max_waiting_per_owner > 0 &&
      mine.size() - replaced.size() >= limits_.max_waiting_per_owner) {
    if (mine.empty()) waiting_.erase(spec.owner);
    return Refused{
        429, std::max(1.0, expected_s(spec.kind)),
        fmt::format("you have {} jobs waiting (the limit); wait for one to finish", mine.size())};
  }
  if (!spec.staff && limits_.rate_per_minute > 0) {
    const double per_s = limits_.rate_per_minute / 60.0;
    auto [it, fresh] = buckets_.try_emplace(spec.owner, Bucket{limits_.rate_burst, now});
    Bucket& b = it->second;
    if (!fresh) b.tokens = std::min(limits_.rate_burst, b.tokens + per_s * seconds(now - b.at));
    b.at = now;
    if (b.tokens < 1.0) {
      if (mine.empty()) waiting_.erase(spec.owner);
      return Refused{429, std::ceil((1.0 - b.tokens) / per_s),
                     fmt::format("too many checks: at most {:g} a minute; try again in a moment",
                                 limits_.rate_per_minute)};
    }
    b.tokens -= 1.0;
  }
  for (const std::string& old : replaced) {
    std::erase(mine, old);
    --waiting_count_;
    Job& j = jobs_.at(old);
    j.work = nullptr;
    finish(old, "superseded");
  }
  Job job;
  job.id = id;
  job.spec = spec;
  job.work = std::move(work);
  job.queued_at = now;
  jobs_.emplace(id, std::move(job));
  if (mine.empty() && std::find(ring_.begin(), ring_.end(), spec.owner) == ring_.end())
    ring_.push_back(spec.owner);
  mine.push_back(id);
  ++waiting_count_;
  wake_.notify_one();
  return Admitted{id, replaced};
}

std::vector<std::string> JobQueue::order() const {
  std::vector<std::string> out;
  for (std::size_t round = 0; out.size() < waiting_count_; ++round) {
    for (const std::string& owner : ring_) {
      const auto it = waiting_.find(owner);
      if (it != waiting_.end() && it->second.size() > round) out.push_back(it->second[round]);
    }
    if (round > waiting_count_) break;  // never loops forever on an inconsistent ring
  }
  return out;
}

double JobQueue::expected_s(const std::string& kind) const {
  const auto it = durations_.find(kind);
  if (it == durations_.end() || it->second.empty()) {
    return kind == "check" ? 5.0 : 60.0;  // first guesses: a check, a run or the claims
  }
  return std::accumulate(it->second.begin(), it->second.end(), 0.0) /
         static_cast<double>(it->second.size());
}

nlohmann::json JobQueue::eta_for(const std::vector<std::string>& order,
                                 std::size_t position) const {
  double eta = 0;
  if (!running_.empty()) {
    const Job& r = jobs_.at(running_);
    eta += std::max(0.0, expected_s(r.spec.kind) - seconds(Clock::now() - r.started_at));
  }
  for (std::size_t i = 0; i < position && i < order.size(); ++i)
    eta += expected_s(jobs_.at(order[i]).spec.kind);
  return std::round(eta * 10) / 10;
}

std::optional<nlohmann::json> JobQueue::status(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  const Job& j = it->second;
  nlohmann::json out = {
      {"id", j.id},          {"kind", j.spec.kind},    {"owner", j.spec.owner},
      {"state", j.state},    {"progress", j.progress}, {"progress_dropped", j.progress_dropped},
      {"position", nullptr}, {"eta_s", nullptr},       {"result", nullptr}};
  if (j.state == "queued") {
    const auto ord = order();
    const auto pos = static_cast<std::size_t>(std::find(ord.begin(), ord.end(), id) - ord.begin());
    out["position"] = pos;
    out["eta_s"] = eta_for(ord, pos);
  }
  if (j.state != "queued" && j.state != "superseded" && j.started_at != Clock::time_point{})
    out["wait_s"] = seconds(j.started_at - j.queued_at);
  if (finished_state(j.state) && j.started_at != Clock::time_point{})
    out["run_s"] = seconds(j.ended_at - j.started_at);
  const bool has_result = j.state == "done" || (j.state == "cancelled" && j.result.is_object());
  if (has_result && j.spec.kind == "run") {
    out["run"] = j.result;
    out["records"] = j.result.is_object() ? j.result.value("records", nlohmann::json::array())
                                          : nlohmann::json::array();
  } else if (has_result) {
    out["result"] = j.result;
  }
  if (!j.error.empty()) {
    out["error"] = j.error;
    if (!j.error_parameter.empty()) out["parameter"] = j.error_parameter;
  }
  return out;
}

std::optional<std::string> JobQueue::owner_of(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  return it->second.spec.owner;
}

bool JobQueue::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return false;
  Job& j = it->second;
  j.cancel_flag->store(true);
  if (j.state == "queued") {
    auto& mine = waiting_[j.spec.owner];
    std::erase(mine, id);
    --waiting_count_;
    if (mine.empty()) {
      waiting_.erase(j.spec.owner);
      std::erase(ring_, j.spec.owner);
    }
    j.work = nullptr;
    finish(id, "cancelled");
  }
  return true;
}

void JobQueue::pause() {
  std::lock_guard lock(mutex_);
  paused_ = true;
}

void JobQueue::resume() {
  {
    std::lock_guard lock(mutex_);
    paused_ = false;
  }
  wake_.notify_all();
}

void JobQueue::reserve(const std::string& by, double secs) {
  {
    std::lock_guard lock(mutex_);
    reserved_by_ = by;
    reserved_until_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                         std::chrono::duration<double>(secs));
    reserved_until_iso_ = iso_now(static_cast<std::int64_t>(secs));
  }
  wake_.notify_all();
}

void JobQueue::release() {
  {
    std::lock_guard lock(mutex_);
    reserved_by_.clear();
    reserved_until_ = {};
  }
  wake_.notify_all();
}

bool JobQueue::reserved_now() const {
  return !reserved_by_.empty() && Clock::now() < reserved_until_;
}

nlohmann::json JobQueue::queue_json(const std::string& viewer, bool staff) const {
  std::lock_guard lock(mutex_);
  nlohmann::json jobs = nlohmann::json::array();
  const auto shown = [&](const Job& j) {
    return staff || j.spec.owner == viewer ? j.spec.owner
           : j.spec.staff                  ? std::string("teacher")
                                           : std::string("another learner");
  };
  if (!running_.empty()) {
    const Job& r = jobs_.at(running_);
    jobs.push_back({{"id", staff || r.spec.owner == viewer ? nlohmann::json(r.id) : nullptr},
                    {"kind", r.spec.kind},
                    {"owner", shown(r)},
                    {"state", "running"},
                    {"position", nullptr},
                    {"eta_s", 0},
                    {"mine", r.spec.owner == viewer}});
  }
  const auto ord = order();
  for (std::size_t i = 0; i < ord.size(); ++i) {
    const Job& j = jobs_.at(ord[i]);
    jobs.push_back({{"id", staff || j.spec.owner == viewer ? nlohmann::json(j.id) : nullptr},
                    {"kind", j.spec.kind},
                    {"owner", shown(j)},
                    {"state", "queued"},
                    {"position", i},
                    {"eta_s", eta_for(ord, i)},
                    {"mine", j.spec.owner == viewer}});
  }
  nlohmann::json reserved = nullptr;
  if (reserved_now()) reserved = {{"by", reserved_by_}, {"until", reserved_until_iso_}};
  return {{"paused", paused_}, {"reserved", reserved}, {"jobs", jobs}};
}

void JobQueue::finish(const std::string& id, const std::string& state) {
  Job& j = jobs_.at(id);
  j.state = state;
  j.ended_at = Clock::now();
  finished_.push_back(id);
  while (finished_.size() > limits_.keep_finished) {
    jobs_.erase(finished_.front());
    finished_.pop_front();
  }
}

void JobQueue::worker_loop() {
  for (;;) {
    std::string id;
    CancellableWork work;
    std::shared_ptr<std::atomic<bool>> cancel_flag;
    {
      std::unique_lock lock(mutex_);
      // The first owner in the ring whose next job may start (while reserved: staff only).
      const auto pick = [&]() -> std::deque<std::string>::iterator {
        if (paused_) return ring_.end();
        const bool reserved = reserved_now();
        return std::find_if(ring_.begin(), ring_.end(), [&](const std::string& owner) {
          return !reserved || jobs_.at(waiting_.at(owner).front()).spec.staff;
        });
      };
      while (!stopping_ && pick() == ring_.end()) {
        // Woken by a submission, resume or release; a reservation also ends on its own.
        wake_.wait_for(lock, std::chrono::milliseconds(500));
      }
      if (stopping_) return;
      const auto it = pick();
      const std::string owner = *it;
      ring_.erase(it);
      auto& mine = waiting_.at(owner);
      id = mine.front();
      mine.pop_front();
      --waiting_count_;
      if (mine.empty()) {
        waiting_.erase(owner);
      } else {
        ring_.push_back(owner);  // round-robin: this owner's next job after everyone else's
      }
      Job& j = jobs_.at(id);
      j.state = "running";
      j.started_at = Clock::now();
      running_ = id;
      work = std::move(j.work);
      cancel_flag = j.cancel_flag;
    }
    const Progress progress = [this, id](const std::string& line) {
      std::lock_guard lock(mutex_);
      Job& j = jobs_.at(id);
      if (j.progress.size() < kKeepProgress) {
        j.progress.push_back(line);
      } else {
        ++j.progress_dropped;
        j.progress.back() = line;
      }
    };
    std::string state = "done", error, parameter;
    nlohmann::json result;
    try {
      result = work(progress, *cancel_flag);
      if (cancel_flag->load()) state = "cancelled";
    } catch (const Cancelled&) {
      state = "cancelled";
    } catch (const ApiError& e) {
      state = "failed";
      error = e.what();
      parameter = e.parameter();
    } catch (const UsageError& e) {
      state = "failed";
      error = e.what();
      parameter = parameter_of(e.what());
    } catch (const std::exception& e) {
      state = "failed";
      error = e.what();
    }
    std::lock_guard lock(mutex_);
    Job& j = jobs_.at(id);
    j.result = std::move(result);
    j.error = error;
    j.error_parameter = parameter;
    running_.clear();
    auto& recent = durations_[j.spec.kind];
    recent.push_back(seconds(Clock::now() - j.started_at));
    if (recent.size() > kKeepDurations) recent.pop_front();
    finish(id, state);
  }
}

}  // namespace memlab::server
