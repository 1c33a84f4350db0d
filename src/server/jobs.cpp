#include "jobs.hpp"

#include "api_error.hpp"
#include "memlab/common/error.hpp"
#include "runs.hpp"
#include "security.hpp"

namespace memlab::server {
namespace {
constexpr std::size_t kKeepFinished = 32;
constexpr std::size_t kKeepProgress = 200;
}  // namespace

JobQueue::JobQueue(std::size_t max_waiting)
    : max_waiting_(max_waiting), worker_([this] { worker_loop(); }) {}

JobQueue::~JobQueue() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    for (auto& [id, job] : jobs_) {
      job.cancel_requested = true;
      job.cancel_flag->store(true);
    }
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
  const std::string id = random_token().substr(0, 16);
  std::lock_guard lock(mutex_);
  if (waiting_.size() >= max_waiting_) return std::nullopt;
  Job job;
  job.id = id;
  job.work = std::move(work);
  jobs_.emplace(id, std::move(job));
  waiting_.push_back(id);
  wake_.notify_one();
  return id;
}

std::optional<nlohmann::json> JobQueue::status(const std::string& id) const {
  std::lock_guard lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return std::nullopt;
  const Job& j = it->second;
  nlohmann::json out = {{"id", j.id},
                        {"state", j.state},
                        {"progress", j.progress},
                        {"progress_dropped", j.progress_dropped}};
  if (j.state == "queued") {
    std::size_t position = 0;
    while (position < waiting_.size() && waiting_[position] != id) ++position;
    out["position"] = position;
  }
  if (j.state == "done" || (j.state == "cancelled" && j.result.is_object())) {
    out["run"] = j.result;
    out["records"] = j.result.value("records", nlohmann::json::array());
  }
  if (!j.error.empty()) {
    out["error"] = j.error;
    if (!j.error_parameter.empty()) out["parameter"] = j.error_parameter;
  }
  return out;
}

bool JobQueue::cancel(const std::string& id) {
  std::lock_guard lock(mutex_);
  const auto it = jobs_.find(id);
  if (it == jobs_.end()) return false;
  Job& j = it->second;
  j.cancel_requested = true;
  j.cancel_flag->store(true);
  if (j.state == "queued") {
    std::erase(waiting_, id);
    j.state = "cancelled";
    j.work = nullptr;
    finished_.push_back(id);
  }
  return true;
}

void JobQueue::worker_loop() {
  for (;;) {
    std::string id;
    CancellableWork work;
    std::shared_ptr<std::atomic<bool>> cancel_flag;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return stopping_ || !waiting_.empty(); });
      if (stopping_) return;
      id = waiting_.front();
      waiting_.pop_front();
      Job& j = jobs_.at(id);
      j.state = "running";
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
    j.state = state;
    j.result = std::move(result);
    j.error = error;
    j.error_parameter = parameter;
    finished_.push_back(id);
    while (finished_.size() > kKeepFinished) {
      jobs_.erase(finished_.front());
      finished_.pop_front();
    }
  }
}

}  // namespace memlab::server
