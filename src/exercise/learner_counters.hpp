// Worker side of issue 21 #6: the learner's kernel, and the lesson's variants it is compared
// with, counted through CUPTI at the measuring point in a pass of their own, after the timing
// (never timed), each pass from a flushed L2 like `memlab run --counters`.
#pragma once

#include <cuda_runtime_api.h>

#include <nlohmann/json.hpp>

#include "exercise/measure_kernel.hpp"
#include "exercise/plan.hpp"
#include "memlab/bench/experiment.hpp"
#include "memlab/cuda/device_info.hpp"

namespace memlab::exercise {

// {status: "collected" | "unavailable", reason (unavailable: one line, CUPTI's or the loader's
// words), passes, yours: {...figures}, model: counter_models(e), variants: [{variant, ...}],
// explain: "...", verdict: {...}}. `measured` is measure_learner's result so far (its variants'
// "timed" flags say which variants ran at this point; its target says whether it was met).
// No counter is ever invented: without CUPTI the figures are absent and the reason is given.
nlohmann::json learner_counters(const Exercise& e, const bench::Experiment& x,
                                const LearnerKernel& k, bench::Instance& inst,
                                const PlannedPoint& pp, const DeviceInfo& device,
                                cudaStream_t stream, double deadline_s,
                                const nlohmann::json& measured);

}  // namespace memlab::exercise
