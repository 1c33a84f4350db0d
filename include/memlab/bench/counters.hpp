// `memlab run --counters`: the hardware counters that check a variant's model, collected through
// CUPTI's range profiler in a pass of their own (never timed; src/cuda/cupti.cpp). This header
// is host-only: which counters a model predicts, their metric names, and how the values they
// return become the record's "counters" (beside the prediction and the measurement).
//
// Host-only header: no CUDA, no CUPTI, no JSON library.
#pragma once

#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace memlab::bench {

// One hardware counter memlab reads; the metric is its Nsight Compute / CUPTI name (the same
// names as `ncu --metrics`, so a record can be checked against ncu by hand).
enum class Counter {
  DramBytesRead,        // bytes read from DRAM (HBM)
  DramBytesWrite,       // bytes written to DRAM
  GlobalLoadSectors,    // 32-byte sectors the L1 asked of L2 for global loads
  GlobalLoadRequests,   // warp-wide global load requests (one per LDG instruction and warp)
  GlobalStoreSectors,   // sectors of global stores
  GlobalStoreRequests,  // warp-wide global store requests
  SharedWavefronts,     // shared-memory wavefronts (passes through the 32 banks), loads + stores
  SharedBankConflicts,  // wavefronts beyond the first of each shared-memory access
  SharedLoads,          // warp-wide shared loads (LDS instructions)
  SharedStores,         // warp-wide shared stores (STS instructions)
  // Not selected by `memlab run --counters` (select_counters); the exercise check reads them for
  // the learner's kernel (src/exercise/counter_model.cpp): loads and stores apart, so that a
  // column read's conflict is not averaged with the conflict-free row write of the same tile.
  SharedLoadWavefronts,   // shared-memory wavefronts of loads
  SharedStoreWavefronts,  // shared-memory wavefronts of stores
  AchievedOccupancy,      // active warps per SM, % of the maximum, averaged over active cycles
};

struct CounterInfo {
  Counter id;
  const char* key;     // the record's JSON key under counters.metrics is `metric`; this is short
  const char* metric;  // CUPTI / ncu metric name
  const char* meaning;
};

inline constexpr CounterInfo kCounters[] = {
    {Counter::DramBytesRead, "dram_bytes_read", "dram__bytes_read.sum", "bytes read from DRAM"},
    {Counter::DramBytesWrite, "dram_bytes_write", "dram__bytes_write.sum", "bytes written to DRAM"},
    {Counter::GlobalLoadSectors, "global_load_sectors",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "32-byte sectors of global loads"},
    {Counter::GlobalLoadRequests, "global_load_requests",
     "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "warp requests of global loads"},
    {Counter::GlobalStoreSectors, "global_store_sectors",
     "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "32-byte sectors of global stores"},
    {Counter::GlobalStoreRequests, "global_store_requests",
     "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "warp requests of global stores"},
    {Counter::SharedWavefronts, "shared_wavefronts",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
     "shared-memory wavefronts (loads and stores)"},
    {Counter::SharedBankConflicts, "shared_bank_conflicts",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "shared-memory bank conflicts"},
    {Counter::SharedLoads, "shared_loads", "smsp__inst_executed_op_shared_ld.sum",
     "warp instructions LDS"},
    {Counter::SharedStores, "shared_stores", "smsp__inst_executed_op_shared_st.sum",
     "warp instructions STS"},
    {Counter::SharedLoadWavefronts, "shared_load_wavefronts",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "shared-memory wavefronts of loads"},
    {Counter::SharedStoreWavefronts, "shared_store_wavefronts",
     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "shared-memory wavefronts of stores"},
    {Counter::AchievedOccupancy, "achieved_occupancy_pct",
     "sm__warps_active.avg.pct_of_peak_sustained_active",
     "achieved occupancy: active warps, % of the SM's maximum"},
};

// kCounters lists every enumerator in declaration order (merge_counters indexes by the enum).
static_assert(static_cast<std::size_t>(Counter::AchievedOccupancy) + 1 == std::size(kCounters));

const CounterInfo& counter_info(Counter c);

// What a variant's model predicts that a counter can check (0: not predicted). Filled from the
// lesson's bench::Prediction: dram_bytes (roofline, coalescing, tiling ...), sectors per request
// (coalescing model), wavefronts per shared access (bank model).
struct ModelCounters {
  double dram_bytes = 0;              // read + written
  double sectors_per_request = 0;     // global loads
  double wavefronts_per_request = 0;  // shared loads and stores
};

// The counters collected for one variant: DRAM bytes always (checked against the model's DRAM
// bytes, else against the record's useful bytes); global load/store sectors and requests when the
// model predicts sectors per request; shared wavefronts, conflicts and instructions when it
// predicts wavefronts. In kCounters order, no duplicates.
std::vector<Counter> select_counters(const ModelCounters& model);
std::vector<std::string> metric_names(const std::vector<Counter>& counters);

// A record's counters, beside its prediction and measurement.
struct CounterRecord {
  std::vector<std::pair<std::string, double>> metrics;  // metric name -> value, collected order
  int passes = 0;                                       // replays the range profiler needed
  // Derived from the metrics (empty where a metric was not collected or a divisor is 0).
  std::optional<double> dram_bytes;  // read + written
  std::optional<double> sectors_per_load_request;
  std::optional<double> sectors_per_store_request;
  std::optional<double> wavefronts_per_shared_access;
  std::optional<double> bank_conflicts;
  // What the model said (0: not predicted) and the useful bytes of the record.
  ModelCounters predicted;
  double useful_bytes = 0;
  // measured / predicted: DRAM bytes against the model's DRAM bytes (else the useful bytes),
  // sectors and wavefronts per request against the model's.
  std::optional<double> dram_ratio;
  std::optional<double> sectors_ratio;
  std::optional<double> wavefronts_ratio;
  // Which view the record's bytes are judged in (issue 19 #7, set_counter_view): "dram" (the
  // working set exceeds the L2: DRAM bytes against the model), "l2" (it fits: the L2 may serve the
  // repeats, so DRAM bytes are shown but not compared; sectors per request compare the traffic
  // between L1 and L2 against the model), "" (not set).
  std::string view;
  std::string view_reason;
};

// Sets `c.view` from the record's working set and the device's L2: in the L2 view the DRAM ratio
// is dropped (a 32 MiB working set in a 60 MiB L2 read 0.51x the model's DRAM bytes on the H200).
void set_counter_view(CounterRecord& c, double working_set_bytes, double l2_bytes);

// Builds the record from the collected values (`values[i]` belongs to `counters[i]`; sizes must
// match, else std::logic_error). NaN or negative values are kept out of the derived figures.
CounterRecord merge_counters(const std::vector<Counter>& counters,
                             const std::vector<double>& values, int passes,
                             const ModelCounters& predicted, double useful_bytes);

// One line for the table: "DRAM 1.07 GB (model 1.07 GB, 1.00x); 4.00 sectors/request (model 4)".
std::string format_counters(const CounterRecord& c);

}  // namespace memlab::bench
