// The course's quantitative claims (../shared/seeds/), each paired with the records of a memlab
// run that test it and a verdict rule. Host-only: evaluates a run's JSON (`memlab run --json`).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace memlab::claims {

// NotTestable: the claim's precondition does not hold on this device (e.g. "with only one copy
// engine" on a GPU with 3); the measured number is still reported, but it judges nothing.
enum class Verdict { Holds, HoldsDifferent, DoesNotHold, NoRecord, NotTestable };
inline constexpr int kVerdicts = 5;
const char* to_string(Verdict v);

// What a claim needs measured: an experiment, the variants, and axis values (the plan).
struct Need {
  std::string experiment;
  std::vector<std::string> variants;
  std::map<std::string, std::vector<std::string>> axes;
};

// The records of a run, searchable by experiment, variant and a subset of the axis values.
class Records {
 public:
  explicit Records(const nlohmann::json& run);
  const nlohmann::json* find(const std::string& experiment, const std::string& variant,
                             const std::map<std::string, std::string>& point = {}) const;
  // The record of `variant` at the same point as `like` (every parameter equal, `overrides`
  // replaced): a ratio of two records compares like with like even when the run has several
  // values of an axis the claim does not name (e.g. bank_conflicts iters).
  const nlohmann::json* find_like(const nlohmann::json& like, const std::string& variant,
                                  const std::map<std::string, std::string>& overrides = {}) const;
  std::vector<const nlohmann::json*> all(const std::string& experiment,
                                         const std::string& variant) const;
  std::vector<const nlohmann::json*> all() const;  // every timed record
  const nlohmann::json& context() const { return context_; }

 private:
  nlohmann::json context_;
  std::vector<nlohmann::json> records_;
};

struct Evaluation {
  Verdict verdict = Verdict::NoRecord;
  double number = 0;     // the measured figure the verdict is about
  std::string measured;  // the number, in words ("31.9x", "23 cycles")
  std::string evidence;  // which records, with their values
  std::string reason;    // NotTestable: what this device has instead ("3 copy engines")
};

struct Claim {
  std::string id;
  std::string source;  // seed file and line, e.g. "000_8337f15f37bac5ed.txt:45"
  std::string quote;   // the claim as the seed states it (original language)
  std::string test;    // lesson / variant / point whose record tests it
  std::string rule;    // the verdict rule
  std::vector<Need> needs;
  std::function<Evaluation(const Records&)> evaluate;
  // The claim's precondition in words ("one copy engine"); empty when it has none.
  std::string condition;
  // Empty when the precondition holds on the run's device, else why not ("3 copy engines");
  // then the verdict is NotTestable. Unset: no precondition.
  std::function<std::string(const Records&)> unmet;
};

const std::vector<Claim>& all();

struct Result {
  const Claim* claim;
  Evaluation evaluation;
};
// Each claim's evaluation; a claim whose precondition is unmet on the run's device is NotTestable
// (its measured number and evidence kept, `reason` set).
std::vector<Result> evaluate(const nlohmann::json& run);
// The verdict counts as `counts` in the JSON names them.
nlohmann::json count_json(const std::vector<Result>& results);

// Latency levels detected from (working set bytes, cycles per load) points. A level is a plateau:
// two or more consecutive working sets whose latencies all lie within `flat` (3%) of their median.
// The longest plateau is taken first (of two as long, the flatter), then the longest in what lies
// left and right of it, and so on; points in no plateau are transitions (a partly cached working
// set: 256 KiB, 64 MiB on the H200). So a slow rise (HBM with a growing share of TLB misses) never
// chains two plateaus.
struct Level {
  double from_bytes = 0, to_bytes = 0;  // the working sets of the plateau
  double cycles = 0;                    // median latency on the plateau
  double spread = 0;                    // largest |cycles / median - 1| on the plateau
  int points = 0;                       // working sets on the plateau
  std::string name;                     // name_levels: "L1", "L2", "L2 far", "HBM", "TLB"
  std::string key;                      // name_levels: "L1", "L2", "L2_far", "HBM", "TLB"
};
std::vector<Level> detect_levels(std::vector<std::pair<double, double>> points, double flat = 0.03);
// Names the levels from the device's sizes: L1 up to `l1_bytes` (shared memory + L1 per SM); the
// first level below `l2_bytes` is L2, a later one below it the L2's far partition ("L2 far");
// the first level beyond the L2 is HBM, a later one at >= 1.1x its latency a TLB step ("TLB"),
// any other "HBM". Without sizes (0): "level 1", "level 2", ...
void name_levels(std::vector<Level>& levels, double l1_bytes, double l2_bytes);
// detect_levels + name_levels with the sizes of a run's context.device.
std::vector<Level> levels_of(const nlohmann::json& run);

// The hierarchy lesson's findings (docs/lessons-json.md, "Finding"): one per detected level,
// {key: "level.L1" | "level.L2" | "level.L2_far" | "level.HBM" | "level.TLB", label, value
// (cycles), unit: "cycles", x_from, x_to (bytes)}, then the other chains at their smallest
// working set: latency.chase_shared, latency.chase_register, latency.atomic_chain,
// latency.chase_host. A second level of one name gets a suffix ("level.HBM.2").
nlohmann::json hierarchy_findings(const nlohmann::json& run);

nlohmann::json to_json(const std::vector<Result>& results, const std::vector<Level>& levels);
std::string render_table(const std::vector<Result>& results, const std::vector<Level>& levels,
                         const nlohmann::json& context);
std::string render_plan();

// The web lab's page a claim belongs beside (seed 001's explainers): "hierarchy", "coalescing",
// "banks", "sync", "alloc", "streams"; "" for a claim with no explainer (it shows on #/claims).
std::string page_of(const Claim& claim);

// Chase points (working set, cycles per load) of a run's hierarchy chase_ca records.
std::vector<std::pair<double, double>> chase_points(const nlohmann::json& run);

// What `memlab claims --json`, GET /api/claims?run=ID and `memlab report` show for a run:
// {claims: [{id, page, source, quote, test, rule, condition, verdict, number, measured, evidence,
// reason}], levels, counts: {holds, holds_different, does_not_hold, no_record, not_testable}}.
// Throws nlohmann::json::exception for records of the wrong shape.
nlohmann::json evaluate_json(const nlohmann::json& run);

// Without a run: {claims: [{id, page, source, quote, test, rule, condition, needs: [{experiment,
// variants, axes}]}], plan: the text of render_plan()}.
nlohmann::json list_json();

}  // namespace memlab::claims
