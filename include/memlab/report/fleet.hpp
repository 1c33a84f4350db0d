// Many workers, one report: `memlab run --devices` (one child process per GPU) and
// `mpirun -np N memlab run` (one rank per GPU) both end here. Each worker writes the ordinary run
// JSON (src/report/json.cpp); `merge_runs` tags every record with the worker's device, host and
// rank, keeps them all in one document and adds the fleet summary: per record (experiment,
// variant, point) the medians of every worker, their spread and the slowest worker named.
// Host-only (no CUDA); tested with synthetic records (tests/host/test_fleet.cpp).
#pragma once

#include <string>
#include <vector>

namespace memlab::report {

// `--devices` as typed: "all" or "0,2,3". Throws UsageError naming --devices for '' / a
// non-integer / a duplicate / an ordinal outside 0..count-1 (count = GPUs of this machine).
// Syntax is checked before the range, so '' and '0,0' are usage errors even without a GPU;
// count < 0 checks the syntax only.
std::vector<int> parse_devices(const std::string& text, int count);

struct WorkerRun {
  std::string json;  // the worker's `memlab run --json` document
  int rank = 0;      // worker index (--devices: position in the list; MPI: the rank)
  std::string host;  // host name (MPI); empty: this host
  int exit_code = 0;
  std::string error;  // a worker that wrote no JSON: why (its last output line)
};

// One JSON: "schema_version", "context" (the first worker's: readers of one-GPU runs keep
// working), "ceilings" (the first worker's), "records" (every worker's, each with "device":
// {"index","name","uuid"}, "host", "rank"), and "fleet": {"mode", "workers": [{"rank","host",
// "device","context","ceilings","exit_code","error"}], "summary": [{"experiment","variant",
// "params","medians_ms":[{"rank","host","device","median_ms","gbps"}],"spread",
// "slowest":{"rank","host","device","name","uuid","median_ms"},"fastest":{...}}]}.
// spread = (slowest - fastest) / median of the workers' medians (timed records of >= 2 workers).
// Throws std::runtime_error when a worker's JSON is malformed.
std::string merge_runs(const std::vector<WorkerRun>& runs, const std::string& mode,
                       const std::string& command_line);

// The summary as a table (under the workers' own tables): one row per record timed on at least
// two workers, the spread and the slowest worker named; rows above `flag_spread` marked "<-".
std::string render_fleet_table(const std::string& merged_json, double flag_spread = 0.05);

}  // namespace memlab::report
