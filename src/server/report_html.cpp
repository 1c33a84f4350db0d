#include "report_html.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <regex>
#include <stdexcept>

#include "catalogue.hpp"
#include "embedded.hpp"
#include "memlab/claims/claims.hpp"
#include "memlab/report/lessons.hpp"

namespace memlab::server {
namespace {

// Replaces every occurrence of `from` (ASCII case-insensitive) by `to`.
std::string replace_all_nocase(std::string text, const std::string& from, const std::string& to) {
  auto lower = [](std::string s) {
    for (char& c : s) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return s;
  };
  const std::string low = lower(text);
  const std::string f = lower(from);
  std::string out;
  std::size_t at = 0;
  for (std::size_t hit = low.find(f); hit != std::string::npos; hit = low.find(f, hit + f.size())) {
    out.append(text, at, hit - at);
    out += to;
    at = hit + f.size();
  }
  out.append(text, at, std::string::npos);
  return out;
}

// The embedded file a bundle URL names: "/assets/x.js", "./assets/x.js" or "assets/x.js".
std::string_view bundle_file(const std::string& url) {
  if (url.find("://") != std::string::npos || url.starts_with("//") || url.starts_with("data:")) {
    throw std::runtime_error(
        fmt::format("report: the web bundle references '{}', not a local file", url));
  }
  std::string path = url;
  if (path.starts_with("./")) path = path.substr(2);
  if (path.starts_with("/")) path = path.substr(1);
  const auto file = embedded::find("web/" + path);
  if (!file)
    throw std::runtime_error(fmt::format("report: '{}' is not in the embedded bundle", url));
  return *file;
}

std::string attribute(const std::string& tag, const std::string& name) {
  const std::regex re("\\b" + name + "\\s*=\\s*\"([^\"]*)\"", std::regex::icase);
  std::smatch m;
  return std::regex_search(tag, m, re) ? m[1].str() : "";
}

// Rewrites every tag matched by `re` with `f(tag)`.
template <typename F>
std::string rewrite_tags(const std::string& html, const std::regex& re, F f) {
  std::string out;
  auto begin = std::sregex_iterator(html.begin(), html.end(), re);
  std::size_t at = 0;
  for (auto it = begin; it != std::sregex_iterator(); ++it) {
    out.append(html, at, static_cast<std::size_t>(it->position()) - at);
    out += f(it->str());
    at = static_cast<std::size_t>(it->position() + it->length());
  }
  out.append(html, at, std::string::npos);
  return out;
}

// Inlines the bundle's scripts and stylesheets into `html` (a piece of index.html).
std::string inline_assets(std::string html) {
  // <link rel="stylesheet" href> -> <style>; modulepreload dropped (inlined); icon -> data: URI.
  static const std::regex link_re("<link\\b[^>]*>", std::regex::icase);
  html = rewrite_tags(html, link_re, [](const std::string& tag) -> std::string {
    const std::string rel = attribute(tag, "rel");
    const std::string href = attribute(tag, "href");
    if (rel == "stylesheet") {
      return "<style>" +
             replace_all_nocase(std::string(bundle_file(href)), "</style", "<\\/style") +
             "</style>";
    }
    if (rel == "modulepreload" || rel == "preload") return "";
    if (rel == "icon" && !href.starts_with("data:")) {
      return fmt::format("<link rel=\"icon\" href=\"data:image/svg+xml;base64,{}\">",
                         base64(bundle_file(href)));
    }
    return tag;
  });
  // Scripts last: no regex runs over the inlined code.
  // <script ... src="..."></script> -> the script inline ("</script" escaped inside).
  static const std::regex script_re("<script\\b[^>]*\\bsrc\\s*=[^>]*>\\s*</script>",
                                    std::regex::icase);
  html = rewrite_tags(html, script_re, [](const std::string& tag) {
    const std::string type = attribute(tag, "type");
    const std::string code = replace_all_nocase(std::string(bundle_file(attribute(tag, "src"))),
                                                "</script", "<\\/script");
    return fmt::format("<script{}>{}</script>", type.empty() ? "" : " type=\"" + type + "\"",
                       replace_all_nocase(code, "<!--", "<\\!--"));
  });

  return html;
}

}  // namespace

std::string base64(std::string_view bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < bytes.size(); i += 3) {
    const unsigned v = static_cast<unsigned char>(bytes[i]) << 16 |
                       static_cast<unsigned char>(bytes[i + 1]) << 8 |
                       static_cast<unsigned char>(bytes[i + 2]);
    for (int s : {18, 12, 6, 0}) out += kAlphabet[(v >> s) & 63];
  }
  if (i < bytes.size()) {
    unsigned v = static_cast<unsigned char>(bytes[i]) << 16;
    if (i + 1 < bytes.size()) v |= static_cast<unsigned char>(bytes[i + 1]) << 8;
    out += kAlphabet[(v >> 18) & 63];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < bytes.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::string build_report_html(const std::vector<ReportRun>& runs, const std::string& lang) {
  if (lang.find_first_not_of("abcdefghijklmnopqrstuvwxyz") != std::string::npos) {
    throw std::runtime_error("report: a language is two letters, not '" + lang + "'");
  }
  const auto index = embedded::find("web/index.html");
  if (!index) throw std::runtime_error("report: the embedded web bundle has no index.html");
  const std::string page(*index);
  nlohmann::json data = {{"kind", "memlab-report"}, {"runs", nlohmann::json::array()}};
  std::vector<std::string> lessons;  // of every run, in the order of first appearance
  for (const ReportRun& r : runs) {
    nlohmann::json run = r.run;
    report::with_lessons(run);  // a stored run of schema 1: today's declarations, its findings
    nlohmann::json entry = {{"name", r.name}, {"run", slim_run(std::move(run))}};
    // The verdicts of `memlab claims` over this run (#/claims and beside each explainer); a run
    // whose records do not have the schema simply has none.
    try {
      entry["claims"] = claims::evaluate_json(r.run);
    } catch (const nlohmann::json::exception&) {
    }
    for (const nlohmann::json& rec : r.run.value("records", nlohmann::json::array())) {
      const std::string name = rec.is_object() ? rec.value("experiment", "") : "";
      if (!name.empty() && std::find(lessons.begin(), lessons.end(), name) == lessons.end())
        lessons.push_back(name);
    }
    data["runs"].push_back(std::move(entry));
  }
  // The lessons' docs and kernels (the server's GET /api/lessons/<name>, from the same files).
  data["catalogue"] = report_catalogue(lessons);
  std::string payload = data.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  // "<" occurs only inside JSON strings, where \u003c means the same: no "</script" can close
  // the block early.
  payload = replace_all_nocase(payload, "<", "\\u003c");
  std::string blocks = "<script type=\"application/json\" id=\"memlab-data\"" +
                       (lang.empty() ? std::string() : " data-lang=\"" + lang + "\"") + ">" +
                       payload + "</script>\n";
  for (std::string_view path : embedded::list("wasm/")) {
    blocks += fmt::format(
        "<script type=\"application/octet-stream\" id=\"memlab-{}\" data-encoding=\"base64\">{}"
        "</script>\n",
        path, base64(*embedded::find(path)));
  }
  // The data blocks go before the page's own </head>: found in index.html before anything is
  // inlined (the bundle's code may contain "</head>" in a string, e.g. DOMPurify's), the last one.
  // The placeholder page carries an empty memlab-data block: dropped, the real one inserted.
  static const std::regex empty_data(
      "<script type=\"application/json\" id=\"memlab-data\">\\s*</script>\\s*");
  std::string html = std::regex_replace(page, empty_data, "");
  std::string lower = html;
  for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::size_t head_end = lower.rfind("</head>");
  if (head_end == std::string::npos) throw std::runtime_error("report: index.html has no </head>");
  html = inline_assets(html.substr(0, head_end)) + blocks + inline_assets(html.substr(head_end));
  return html;
}

}  // namespace memlab::server
