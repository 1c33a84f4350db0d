// The course's quantitative claims (../shared/seeds/), each paired with the records of a memlab
// run that test it and a verdict rule. Host-only: evaluates a run's JSON (`memlab run --json`).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace memlab::claims {

enum class Verdict { Holds, HoldsDifferent, DoesNotHold, NoRecord };
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
};

struct Claim {
  std::string id;
  std::string source;  // seed file and line, e.g. "000_8337f15f37bac5ed.txt:45"
  std::string quote;   // the claim as the seed states it (original language)
  std::string test;    // lesson / variant / point whose record tests it
  std::string rule;    // the verdict rule
  std::vector<Need> needs;
  std::function<Evaluation(const Records&)> evaluate;
};

const std::vector<Claim>& all();

struct Result {
  const Claim* claim;
  Evaluation evaluation;
};
std::vector<Result> evaluate(const nlohmann::json& run);

// Latency levels detected from (working set bytes, cycles per load) points: a boundary lies
// between two consecutive points whose latency rises by more than `jump` (e.g. 1.3x).
struct Level {
  double from_bytes = 0, to_bytes = 0;  // the working sets of the plateau
  double cycles = 0;                    // median latency on the plateau
};
std::vector<Level> detect_levels(std::vector<std::pair<double, double>> points, double jump = 1.3);

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
// {claims: [{id, page, source, quote, test, rule, verdict, number, measured, evidence}], levels,
// counts: {holds, holds_different, does_not_hold, no_record}}. Throws nlohmann::json::exception
// for records of the wrong shape.
nlohmann::json evaluate_json(const nlohmann::json& run);

// Without a run: {claims: [{id, page, source, quote, test, rule, needs: [{experiment, variants,
// axes}]}], plan: the text of render_plan()}.
nlohmann::json list_json();

}  // namespace memlab::claims
