// memlab_sample_run OUT.json: a run written through the real record and JSON path
// (bench::Record -> report::render_run_json, what `memlab run --json` writes: schema 2 with the
// lessons block), built on the host without a GPU, for the web lab's e2e
// tests (web/e2e/run.mjs): the pages are tested on what today's writer emits, not on a stored
// file. The numbers are made up but shaped like a device's; the device block says no device.
// It covers every record status (timed, skipped with a reason, expected_failure, failed), a
// prediction, figures and measured intervals (a Gantt chart).
#include <fmt/format.h>

#include <algorithm>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "memlab/bench/record.hpp"
#include "memlab/bench/stats.hpp"
#include "memlab/report/lessons.hpp"

namespace {

using memlab::bench::Record;

Record timed(const std::string& experiment, const std::string& variant,
             std::vector<std::pair<std::string, std::string>> params, double ms, double bytes) {
  Record r;
  r.experiment = experiment;
  r.variant = variant;
  r.description = variant + " (host-built sample)";
  r.params = std::move(params);
  r.verified = true;
  r.timed = true;
  r.cold = true;
  r.stats = memlab::bench::summarize(
      {ms * 0.99, ms, ms * 1.01, ms, ms * 1.02, ms * 0.995, ms, ms * 1.005, ms, ms * 1.01});
  r.bytes = bytes;
  r.gbps = bytes / (r.stats.median * 1e-3) / 1e9;
  r.working_set_bytes = bytes;
  return r;
}

void predict(Record& r, const std::string& model, double predicted_ms) {
  r.prediction = memlab::bench::PredictionRecord{
      model, predicted_ms, r.stats.median, r.stats.median / predicted_ms, "", {}};
}

memlab::bench::RunReport sample() {
  memlab::bench::RunReport run;
  auto& c = run.context;
  c.device.name = "none (records built on the host by memlab_sample_run)";
  c.tool_version = "sample";
  c.git_commit = "sample";
  c.date = "2026-12-01T00:00:00Z";
  c.seed = 7;
  c.command_line = "memlab_sample_run";
  run.memcpy_d2d.measured = true;
  run.memcpy_d2d.bytes = 2.0 * (1 << 30);
  run.memcpy_d2d.stats = memlab::bench::summarize({0.5, 0.5, 0.5});
  run.memcpy_d2d.gbps = 4000;

  // coalescing: GB/s against the stride for two element sizes, with the model's prediction.
  for (const int elem : {4, 8}) {
    for (const int stride : {1, 2, 4, 8, 16, 32}) {
      const double useful = 268435456.0;
      const double eff = std::min(1.0, 32.0 / (stride * elem));  // of each 32-byte sector
      const double ms = useful / (3600e9 * (stride == 1 ? 1.0 : eff * 1.15)) * 1e3;
      Record r = timed("coalescing", "strided_read",
                       {{"bytes", "268435456"},
                        {"elem", std::to_string(elem)},
                        {"offset", "0"},
                        {"stride", std::to_string(stride)}},
                       ms, useful);
      predict(r, fmt::format("coalescing: stride {}, {} B", stride, elem), ms * 0.9);
      r.baseline = "strided_read";
      run.records.push_back(r);
    }
  }
  // bank_conflicts: slowdown against the stride; the fixed patterns skipped where they do not
  // apply (status skipped, with their reason).
  const double base_ms = 0.1;
  for (const int stride : {1, 2, 4, 8, 16, 32}) {
    Record r = timed(
        "bank_conflicts", "strided",
        {{"iters", "8192"}, {"op", "read"}, {"stride", std::to_string(stride)}, {"word", "4"}},
        base_ms * stride, 1e6);
    r.speedup = 1.0 / stride;
    r.baseline = "stride1";
    r.figures = {{"model_degree", stride}};
    predict(r, fmt::format("banks: {}-way", stride), base_ms * stride);
    run.records.push_back(r);
    if (stride != 1) {
      Record s;
      s.experiment = "bank_conflicts";
      s.variant = "broadcast";
      s.params = r.params;
      s.skipped = true;
      s.skip_reason = "a fixed read pattern: runs once, at access=read stride=1";
      run.records.push_back(s);
    }
  }
  // syncthreads: the tiled product without its barrier, caught by the check on purpose.
  for (const int block : {64, 256, 1024}) {
    Record barrier =
        timed("syncthreads", "barrier_only",
              {{"block", std::to_string(block)}, {"iters", "4096"}, {"n", "1024"}}, 0.2, 1e6);
    barrier.figures = {{"cycles_per_step", 20.0 + block / 32.0}};
    run.records.push_back(barrier);
  }
  Record broken;
  broken.experiment = "syncthreads";
  broken.variant = "tiled_no_sync";
  broken.params = {{"block", "256"}, {"iters", "4096"}, {"n", "1024"}};
  broken.expected_failure = "verification caught the missing barrier";
  broken.expected_failure_observed = true;
  broken.error = 1000;
  broken.check_detail = "1000 of 1048576 differ; [0] got 317 want 308";
  run.records.push_back(broken);
  // streams: measured intervals of an 8-segment pipeline on 4 streams.
  Record st = timed("streams", "depth_first",
                    {{"n", "67108864"}, {"segments", "8"}, {"streams", "4"}, {"work", "4096"}}, 4.0,
                    2 * 268435456.0);
  std::string intervals;
  for (int s = 0; s < 8; ++s) {
    const double t0 = s * 0.8;
    intervals += fmt::format(
        "{}{{\"op\":\"H2D\",\"segment\":{},\"stream\":{},\"start_ms\":{},\"end_ms\":{}}},"
        "{{\"op\":\"kernel\",\"segment\":{},\"stream\":{},\"start_ms\":{},\"end_ms\":{}}},"
        "{{\"op\":\"D2H\",\"segment\":{},\"stream\":{},\"start_ms\":{},\"end_ms\":{}}}",
        s ? "," : "", s, s % 4, t0, t0 + 0.8, s, s % 4, t0 + 0.8, t0 + 1.4, s, s % 4, t0 + 1.4,
        t0 + 1.9);
  }
  st.extra_json = "{\"intervals\":[" + intervals + "]}";
  st.speedup = 1.8;
  st.baseline = "serial";
  predict(st, "timeline: 8 segments, 4 streams", 3.7);
  run.records.push_back(st);
  // One real failure: a check that did not pass (the only red line on the pages).
  Record failed =
      timed("bandwidth", "elem_f4", {{"n", "268435456"}, {"op", "copy"}}, 0.15, 2 * 268435456.0);
  failed.verified = false;
  failed.timed = false;
  failed.error = 3;
  failed.check_detail = "3 of 268435456 differ; [17] got 0 want 1 (host-built sample)";
  run.records.push_back(failed);
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: memlab_sample_run OUT.json\n";
    return 2;
  }
  try {
    const std::string json = memlab::report::render_run_json(sample());
    std::ofstream f(argv[1], std::ios::binary | std::ios::trunc);
    f << json;
    if (!f) {
      std::cerr << "memlab_sample_run: cannot write " << argv[1] << "\n";
      return 2;
    }
  } catch (const std::exception& e) {
    std::cerr << "memlab_sample_run: " << e.what() << "\n";
    return 4;
  }
  return 0;
}
