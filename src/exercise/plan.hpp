// An exercise's plan: the lesson's test points (filtered by the exercise's fixed axes, plus its
// own points), the measuring point, and the launch of the learner's kernel at each. Host-only.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "memlab/bench/params.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {

struct Launch {
  std::array<std::int64_t, 3> grid{1, 1, 1}, block{1, 1, 1};
  std::int64_t shared_bytes = 0;
};

struct PlannedPoint {
  bench::Params params;
  Launch launch;
};

struct Plan {
  std::vector<PlannedPoint> points;  // verified, in this order
  PlannedPoint measure;              // verified again, then timed
};

// Throws UsageError when the exercise's points or launch rule are inconsistent with the lesson.
Plan make_plan(const Exercise& e);
Launch launch_at(const Exercise& e, const bench::Params& p);
// The plan's test points named in `labels` (a JSON array of labels as PlannedPoint::params.label()
// spells them; the measuring point's label counts too), in the plan's order; an empty or null
// array keeps every point. Throws UsageError when a label names no point (the diagnosis runs ask
// for one point: src/exercise/diagnose.cpp).
Plan only_points(Plan plan, const nlohmann::json& labels);
nlohmann::json launch_json(const Launch& l);

}  // namespace memlab::exercise
