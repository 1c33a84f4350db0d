#include <fmt/format.h>

#include "memlab/bench/params.hpp"
#include "memlab/report/report.hpp"

namespace memlab::report {
namespace {
std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}
}  // namespace

std::string render_csv(const bench::RunReport& report) {
  std::string out =
      "experiment,variant,params,verified,timed,median_ms,min_ms,max_ms,mean_ms,stdev_ms,samples,"
      "bytes,gbps,pct_peak,pct_memcpy,gflops,pct_fp32_peak,speedup,predicted_ms,"
      "measured_over_predicted,fits_in_l2,timing,batch_median_ms,batch_launches,sm_min_mhz,"
      "sm_max_mhz,throttled_probes,run_spread,status,reason\n";
  for (const bench::Record& r : report.records) {
    out += fmt::format("{},{},{},{},{},", quote(r.experiment), quote(r.variant),
                       quote(bench::format_point(r.params)), r.verified ? 1 : 0, r.timed ? 1 : 0);
    if (r.timed) {
      out += fmt::format(
          "{:.6g},{:.6g},{:.6g},{:.6g},{:.6g},{},{:.6g},{:.6g},{:.4g},{:.4g},{:.6g},"
          "{:.4g},{},",
          r.stats.median, r.stats.min, r.stats.max, r.stats.mean, r.stats.stdev, r.stats.samples,
          r.bytes, r.gbps, r.pct_peak, r.pct_memcpy, r.gflops, r.pct_fp32_peak,
          r.speedup ? fmt::format("{:.4g}", *r.speedup) : "");
    } else {
      out += fmt::format(",,,,,,{:.6g},,,,,,,", r.bytes);
    }
    if (r.prediction && r.prediction->predicted_ms > 0) {
      out += fmt::format("{:.6g},{:.4g},", r.prediction->predicted_ms, r.prediction->ratio);
    } else {
      out += ",,";
    }
    out += r.fits_in_l2 ? "1," : "0,";
    out += r.timed ? (r.cold ? "cold," : "warm,") : ",";
    out += r.batch ? fmt::format("{:.6g},{},", r.batch->median, r.batch_launches) : ",,";
    out += r.clocks.probes > 0 ? fmt::format("{},{},{},", r.clocks.sm_min_mhz, r.clocks.sm_max_mhz,
                                             r.clocks.throttled)
                               : ",,,";
    out += r.repeat ? fmt::format("{:.4g},", r.repeat->spread) : ",";
    // The last columns: "skipped" (the variant does not apply at the point; then the reason),
    // "failed", "verified" (--verify-only) or "timed".
    if (r.skipped) {
      out += "skipped," + quote(r.skip_reason) + "\n";
    } else {
      out += !r.verified ? "failed,\n" : r.timed ? "timed,\n" : "verified,\n";
    }
  }
  return out;
}

}  // namespace memlab::report
