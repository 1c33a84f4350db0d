#include "memlab/bench/counters.hpp"

#include <fmt/format.h>

#include <cmath>
#include <stdexcept>

namespace memlab::bench {
namespace {

bool usable(double v) {
  return std::isfinite(v) && v >= 0;
}

std::optional<double> ratio(double a, double b) {
  if (!usable(a) || !(b > 0) || !std::isfinite(b)) return std::nullopt;
  return a / b;
}

std::string bytes_text(double b) {
  if (b >= 1e9) return fmt::format("{:.3g} GB", b / 1e9);
  if (b >= 1e6) return fmt::format("{:.3g} MB", b / 1e6);
  if (b >= 1e3) return fmt::format("{:.3g} kB", b / 1e3);
  return fmt::format("{:.3g} B", b);
}

}  // namespace

const CounterInfo& counter_info(Counter c) {
  for (const CounterInfo& i : kCounters) {
    if (i.id == c) return i;
  }
  throw std::logic_error("counter_info: a counter outside kCounters");
}

std::vector<Counter> select_counters(const ModelCounters& model) {
  std::vector<Counter> out = {Counter::DramBytesRead, Counter::DramBytesWrite};
  if (model.sectors_per_request > 0) {
    out.insert(out.end(), {Counter::GlobalLoadSectors, Counter::GlobalLoadRequests,
                           Counter::GlobalStoreSectors, Counter::GlobalStoreRequests});
  }
  if (model.wavefronts_per_request > 0) {
    out.insert(out.end(), {Counter::SharedWavefronts, Counter::SharedBankConflicts,
                           Counter::SharedLoads, Counter::SharedStores});
  }
  return out;
}

std::vector<std::string> metric_names(const std::vector<Counter>& counters) {
  std::vector<std::string> out;
  out.reserve(counters.size());
  for (Counter c : counters) out.emplace_back(counter_info(c).metric);
  return out;
}

CounterRecord merge_counters(const std::vector<Counter>& counters,
                             const std::vector<double>& values, int passes,
                             const ModelCounters& predicted, double useful_bytes) {
  if (counters.size() != values.size()) {
    throw std::logic_error(
        fmt::format("merge_counters: {} counters, {} values", counters.size(), values.size()));
  }
  CounterRecord r;
  r.passes = passes;
  r.predicted = predicted;
  r.useful_bytes = useful_bytes;
  std::optional<double> v[std::size(kCounters)];
  for (std::size_t i = 0; i < counters.size(); ++i) {
    r.metrics.emplace_back(counter_info(counters[i]).metric, values[i]);
    if (usable(values[i])) v[static_cast<std::size_t>(counters[i])] = values[i];
  }
  auto get = [&](Counter c) { return v[static_cast<std::size_t>(c)]; };
  if (get(Counter::DramBytesRead) && get(Counter::DramBytesWrite)) {
    r.dram_bytes = *get(Counter::DramBytesRead) + *get(Counter::DramBytesWrite);
  }
  if (get(Counter::GlobalLoadSectors) && get(Counter::GlobalLoadRequests)) {
    r.sectors_per_load_request =
        ratio(*get(Counter::GlobalLoadSectors), *get(Counter::GlobalLoadRequests));
  }
  if (get(Counter::GlobalStoreSectors) && get(Counter::GlobalStoreRequests)) {
    r.sectors_per_store_request =
        ratio(*get(Counter::GlobalStoreSectors), *get(Counter::GlobalStoreRequests));
  }
  if (get(Counter::SharedWavefronts) && get(Counter::SharedLoads) && get(Counter::SharedStores)) {
    r.wavefronts_per_shared_access = ratio(
        *get(Counter::SharedWavefronts), *get(Counter::SharedLoads) + *get(Counter::SharedStores));
  }
  if (get(Counter::SharedBankConflicts)) r.bank_conflicts = get(Counter::SharedBankConflicts);
  if (r.dram_bytes) {
    r.dram_ratio =
        ratio(*r.dram_bytes, predicted.dram_bytes > 0 ? predicted.dram_bytes : useful_bytes);
  }
  if (r.sectors_per_load_request && predicted.sectors_per_request > 0) {
    r.sectors_ratio = ratio(*r.sectors_per_load_request, predicted.sectors_per_request);
  }
  if (r.wavefronts_per_shared_access && predicted.wavefronts_per_request > 0) {
    r.wavefronts_ratio = ratio(*r.wavefronts_per_shared_access, predicted.wavefronts_per_request);
  }
  return r;
}

void set_counter_view(CounterRecord& c, double working_set_bytes, double l2_bytes) {
  if (l2_bytes > 0 && working_set_bytes <= l2_bytes) {
    c.view = "l2";
    c.view_reason = fmt::format(
        "working set {} fits in the {} L2: DRAM bytes not compared; sectors per request compare "
        "the L1-L2 traffic",
        bytes_text(working_set_bytes), bytes_text(l2_bytes));
    c.dram_ratio.reset();
  } else {
    c.view = "dram";
    c.view_reason = fmt::format("working set {} exceeds the {} L2: DRAM bytes against the model",
                                bytes_text(working_set_bytes), bytes_text(l2_bytes));
  }
}

std::string format_counters(const CounterRecord& c) {
  std::vector<std::string> parts;
  if (c.dram_bytes) {
    const bool model = c.predicted.dram_bytes > 0;
    const double ref = model ? c.predicted.dram_bytes : c.useful_bytes;
    std::string s = "DRAM " + bytes_text(*c.dram_bytes);
    if (c.dram_ratio) {
      s += fmt::format(" ({} {}, {:.2f}x)", model ? "model" : "useful", bytes_text(ref),
                       *c.dram_ratio);
    } else if (c.view == "l2") {
      s += " (working set in the L2: not compared)";
    }
    parts.push_back(std::move(s));
  }
  if (c.sectors_per_load_request) {
    std::string s = fmt::format("{:.2f} sectors/load request", *c.sectors_per_load_request);
    if (c.predicted.sectors_per_request > 0) {
      s += fmt::format(" (model {:g})", c.predicted.sectors_per_request);
    }
    parts.push_back(std::move(s));
  }
  if (c.sectors_per_store_request) {
    parts.push_back(fmt::format("{:.2f} sectors/store request", *c.sectors_per_store_request));
  }
  if (c.wavefronts_per_shared_access) {
    std::string s = fmt::format("{:.2f} wavefronts/shared access", *c.wavefronts_per_shared_access);
    if (c.predicted.wavefronts_per_request > 0) {
      s += fmt::format(" (model {:g})", c.predicted.wavefronts_per_request);
    }
    parts.push_back(std::move(s));
  }
  if (c.bank_conflicts) parts.push_back(fmt::format("{:.4g} bank conflicts", *c.bank_conflicts));
  if (parts.empty()) return "no counter values";
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i == 0 ? "" : "; ") + parts[i];
  return out;
}

}  // namespace memlab::bench
