// The text form of a check result (what `memlab exercise check` prints without --json).
#include <fmt/format.h>

#include "exercise/compiler_view.hpp"
#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

using nlohmann::json;

std::string lang_en(const json& j) {
  return j.is_object() && j.contains("en") && j["en"].is_string() ? j["en"].get<std::string>() : "";
}

std::string fig(const json& f) {
  std::string s = fmt::format("{:9.4f} ms", f.value("median_ms", 0.0));
  if (f.contains("gbps")) {
    s += fmt::format("  {:7.1f} GB/s  {:5.1f}% of memcpy", f["gbps"].get<double>(),
                     f.value("pct_memcpy", 0.0));
  }
  if (f.contains("tflops")) s += fmt::format("  {:6.2f} TFLOP/s", f["tflops"].get<double>());
  return s;
}

// One line per declared figure (yours, the model's intended and starter values), then why.
std::string counters_text(const json& c) {
  if (c.value("status", "") != "collected") {
    return fmt::format("counters: unavailable: {}\n", c.value("reason", ""));
  }
  std::string out = "counters (one pass each, L2 flushed, not timed):\n";
  const json& yours = c.value("yours", json::object());
  for (const json& m : c.value("model", json::array())) {
    const std::string key = m.value("figure", "");
    const std::string y = yours.contains(key) ? fmt::format("{:.4g}", yours[key].get<double>())
                                              : std::string("not measured");
    out += fmt::format("  {}: yours {}, model {:g} ({}), starter's {:g}\n", m.value("unit", key), y,
                       m["intended"].value("value", 0.0), lang_en(m["intended"]["label"]),
                       m["starter"].value("value", 0.0));
  }
  if (yours.contains("achieved_occupancy_pct")) {
    out +=
        fmt::format("  achieved occupancy {:.1f}%", yours["achieved_occupancy_pct"].get<double>());
    if (yours.contains("dram_over_useful")) {
      out +=
          fmt::format(", DRAM {:.2f}x the useful bytes", yours["dram_over_useful"].get<double>());
    }
    out += "\n";
  }
  if (c.contains("explain")) out += "  why: " + c["explain"].get<std::string>() + "\n";
  return out;
}

}  // namespace

std::string render_check(const json& r) {
  std::string out = fmt::format("exercise {} (lesson {}), {}\n", r.value("exercise", ""),
                                r.value("lesson", ""), r.value("file", ""));
  const std::string status = r.value("status", "");
  if (r.contains("compile") && !r["compile"].value("ok", false)) {
    out += r["compile"].value("log", "") + "\n";
  }
  if (r.contains("device")) out += fmt::format("device: {}\n", r["device"].get<std::string>());
  if (r.contains("kernel")) {
    const json& k = r["kernel"];
    out += fmt::format("kernel: {} registers, {} B static shared, {} B local, {}\n",
                       k.value("registers", 0), k.value("static_shared_bytes", 0),
                       k.value("local_bytes", 0), k.value("arch", ""));
  }
  if (r.contains("compiler")) {
    out += fmt::format("compiler: {} (PTX: {} instructions{})\n", resources_line(r["compiler"]),
                       r["compiler"].value("ptx_total", 0),
                       r["compiler"].value("ptx_truncated", false) ? ", listing cut" : "");
  }
  for (const json& p : r.value("points", json::array())) {
    out += fmt::format("  {:<4} {}{}\n", p.value("ok", false) ? "ok" : "FAIL", p.value("point", ""),
                       p.value("ok", false) ? "" : "  " + p.value("detail", std::string()));
  }
  if (r.contains("measure") && r["measure"].contains("yours")) {
    const json& m = r["measure"];
    out += fmt::format("measured at {} (median, L2 flushed; cudaMemcpy {:.1f} GB/s):\n",
                       m.value("point", ""), m.value("memcpy_gbps", 0.0));
    out += fmt::format("  {:<22} {}", "yours", fig(m["yours"]));
    if (m["yours"].contains("speedup_over_naive")) {
      out += fmt::format("  {:.2f}x {}", m["yours"]["speedup_over_naive"].get<double>(),
                         m.value("naive", ""));
    }
    out += "\n";
    for (const json& v : m.value("variants", json::array())) {
      out += fmt::format("  {:<22} {}\n", "lesson: " + v.value("variant", std::string()), fig(v));
    }
    if (m.contains("prediction")) {
      out += fmt::format("  model: {} -> {:.4f} ms (measured/predicted {:.2f})\n",
                         m["prediction"].value("model", ""),
                         m["prediction"].value("predicted_ms", 0.0),
                         m["prediction"].value("measured_over_predicted", 0.0));
    }
  }
  if (r.contains("measure") && r["measure"].contains("counters"))
    out += counters_text(r["measure"]["counters"]);
  for (const json& n : r.value("notes", json::array()))
    out += "note: " + n.get<std::string>() + "\n";
  if (r.contains("output"))
    out += "output of the worker:\n" + r["output"].get<std::string>() + "\n";
  out += fmt::format("{}: {}\n", status, r.value("message", ""));
  if (r.contains("diagnosis")) {
    const json& d = r["diagnosis"];
    const json& s = d.value("sentences", json::array());
    if (s.empty()) {
      out += fmt::format("diagnosis: {}\n", d.value("reason", ""));
    } else {
      out += fmt::format("diagnosis ({}):\n", d.value("reason", ""));
      for (const json& x : s) out += "  - " + x.get<std::string>() + "\n";
    }
  }
  return out;
}

}  // namespace memlab::exercise
