// `memlab report RUN.json [MORE.json ...] -o report.html`: one self-contained HTML file made of
// the embedded web bundle (scripts and styles inlined), the runs and the WebAssembly models.
// It opens from file:// and makes no network request.
//
// What the page finds in the file (contract with web/):
//   <script type="application/json" id="memlab-data">
//     {"kind": "memlab-report", "runs": [{"name": "<file name without .json>", "run": {...},
//      "claims": {...}}], "catalogue": {"<lesson>": {"summary", "doc", "sources", ...}}}
//     (each run without stats.samples_ms: catalogue.hpp slim_run)
//   </script>   ("<" inside the JSON is written as \u003c; with a language, the tag carries
//                data-lang="zh": the language the page opens in unless the reader chose one)
//   <script type="application/octet-stream" id="memlab-wasm/<file>" data-encoding="base64">
//     one per file of the WebAssembly build (.wasm as base64; .mjs/.js as base64 too)
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace memlab::server {

struct ReportRun {
  std::string name;  // shown to the reader: the file name without .json
  nlohmann::json run;
};

// Throws std::runtime_error if the embedded bundle lacks web/index.html or references a script
// or stylesheet that is not embedded (or is not local).
// `lang`: "" (the reader's browser decides) or one of the web lab's languages (de, en, zh).
std::string build_report_html(const std::vector<ReportRun>& runs, const std::string& lang = "");

// RFC 4648 base64.
std::string base64(std::string_view bytes);

}  // namespace memlab::server
