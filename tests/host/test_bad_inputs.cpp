// A table of bad inputs over every command, run as a user would (the memlab binary): each must end
// with the documented exit code and ONE line naming the parameter as the user typed it, before
// any device work (so this runs without a GPU). Classes: numbers at and beyond every limit,
// overflow, NaN/inf, empty, duplicated, wrong type, unknown names, unwritable paths, malformed and
// hostile JSON. Hooks for report/serve/exercise: add rows to kLater once those commands exist.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli_runner.hpp"

namespace {

using memlab::testing_cli::memlab;
using memlab::testing_cli::Result;

struct Case {
  std::string args;   // after "memlab "; FILE_x is replaced by a prepared file
  int code;           // documented exit code
  std::string names;  // the parameter as typed (must appear in the one line)
};

// Numbers at and beyond the limits of each numeric option of `memlab run` (each exit 2).
void add_numbers(std::vector<Case>& t, const std::string& option,
                 const std::vector<std::string>& values) {
  for (const auto& v : values) t.push_back({"run bandwidth " + option + " '" + v + "'", 2, option});
}

std::vector<Case> run_cases() {
  std::vector<Case> t;
  // (CLI11 reads 0x10 as 16 for these options: accepted, not junk.)
  const std::vector<std::string> junk = {"",      "abc", "nan", "NaN", "inf", "-inf",
                                         "1e400", " ",   "1,2", "--",  "1O"};
  auto with_junk = [&](std::vector<std::string> v) {
    v.insert(v.end(), junk.begin(), junk.end());
    return v;
  };
  add_numbers(t, "--min-samples",
              with_junk({"9", "0", "-1", "100001", "2147483648", "99999999999999999999", "10.5"}));
  add_numbers(t, "--noise", with_junk({"0", "1", "-0.1", "1.5", "-0", "1e-400x"}));
  add_numbers(t, "--budget", with_junk({"0", "-1", "-0.5", "600.001", "1e9", "-1e-300"}));
  add_numbers(t, "--repeat", with_junk({"0", "-1", "101", "1.5", "4294967297"}));
  add_numbers(t, "--seed",
              {"", "abc", "1Ki", "2^10", "-1", "+1", "1.0", "0x10", "1e3", "18446744073709551616",
               "99999999999999999999999", " 1", "1 "});
  add_numbers(t, "-d", {"-1", "abc", "", "1.5", "-2147483649"});
  add_numbers(t, "--device", {"-1", "nan"});
  // Axes: malformed, unknown, out of range, overflow, duplicated.
  for (const char* a : {"", "n", "=1", "n=", "n=,", "n=1,", "n=,1", "=", "n=1,,2"}) {
    t.push_back({std::string("run bandwidth -a '") + a + "'", 2, "-a"});
  }
  for (const char* v : {"0", "-1", "-5", "abc", "1.5", "99999999999999999999", "2^63", "2^-1", "2^",
                        "1Ki2", "1Ti", "9223372036854775807Ki", "1e3", "0x10", "nan"}) {
    t.push_back({std::string("run bandwidth -a 'n=") + v + "'", 2, "axis n"});
  }
  t.push_back({"run bandwidth -a n==1", 2, "axis n: '=1'"});
  t.push_back({"run bandwidth -a n=1024,1024", 2, "-a/--axis: n=1024 is given twice"});
  t.push_back({"run bandwidth -a n=1Ki,1024", 2, "n=1024 is the same value as n=1Ki"});
  t.push_back({"run bandwidth -a n=1024 -a n=2048", 2, "'n' given twice"});
  t.push_back({"run bandwidth -a op=mul", 2, "axis op: 'mul'"});
  t.push_back({"run bandwidth -a op=", 2, "-a"});
  t.push_back({"run bandwidth -a nosuchaxis=1", 2, "'nosuchaxis'"});
  t.push_back({"run bandwidth -a N=1024", 2, "'N'"});
  // Experiments and variants: unknown, empty, duplicated.
  t.push_back({"run nosuch", 2, "'nosuch'"});
  t.push_back({"run ''", 2, "experiment: ''"});
  t.push_back({"run Bandwidth", 2, "'Bandwidth'"});
  t.push_back({"run bandwidth bandwidth", 2, "'bandwidth' is given twice"});
  t.push_back({"run bandwidth -v ''", 2, "-v"});
  t.push_back({"run bandwidth -v ','", 2, "-v"});
  t.push_back({"run bandwidth -v elem_f1,,elem_f1", 2, "-v"});
  t.push_back({"run bandwidth -v elem_f1,elem_f1", 2, "'elem_f1' is given twice"});
  t.push_back({"run bandwidth -v nosuch", 2, "'nosuch'"});
  t.push_back({"run bandwidth -v matmul:elem_f1", 2, "'matmul:elem_f1'"});
  // Output paths: empty, a folder, a missing folder, an unwritable folder.
  for (const char* o : {"--json", "--csv", "--md"}) {
    const std::string opt = o;
    t.push_back({"run bandwidth " + opt + " ''", 2, opt});
    t.push_back({"run bandwidth " + opt + " /", 2, opt + ": cannot open '/' for writing"});
    t.push_back({"run bandwidth " + opt + " /nonexistent/dir/out", 2, opt + ": cannot open"});
    t.push_back({"run bandwidth " + opt + " /dev/null/out", 2, opt + ": cannot open"});
  }
  // Unknown options and wrong shapes.
  t.push_back({"run --nosuch", 2, "--nosuch"});
  t.push_back({"run bandwidth --min-samples", 2, "--min-samples"});
  t.push_back({"run bandwidth --noise 0.1 --noise 0.2", 2, "--noise"});
  return t;
}

std::vector<Case> other_cases() {
  std::vector<Case> t;
  t.push_back({"nosuchcommand", 2, "'nosuchcommand'"});
  t.push_back({"Run", 2, "'Run'"});
  t.push_back({"''", 2, "''"});
  t.push_back({"--nosuch", 2, "--nosuch"});
  t.push_back({"list extra", 2, "extra"});
  t.push_back({"list --json=x", 2, "--json"});
  t.push_back({"list --nosuch", 2, "--nosuch"});
  t.push_back({"info extra", 2, "extra"});
  t.push_back({"info -d -1", 2, "-d"});
  t.push_back({"info -d abc", 2, "-d"});
  t.push_back({"info --device ''", 2, "--device"});
  t.push_back({"info --nosuch", 2, "--nosuch"});
  // --devices: syntax errors need no GPU (a GPU that does not exist: tests/host/test_fleet.cpp).
  for (const char* v : {"''", "0,0", "x", "1,", "0,,1"}) {
    t.push_back({std::string("run bandwidth --devices ") + v, 2, "--devices"});
  }
  t.push_back({"run bandwidth --devices 0 -d 0", 2, "--devices"});
  t.push_back({"run p2p -a src=64", 2, "src"});
  // Model options (the messages of the model checks are arch-model's; see DISABLED_ below).
  t.push_back({"model coalescing --elem-size abc", 2, "--elem-size"});
  t.push_back({"model coalescing --stride abc", 2, "--stride"});
  t.push_back({"model coalescing --nosuch", 2, "--nosuch"});
  t.push_back({"model banks --stride abc", 2, "--stride"});
  t.push_back({"model roofline --bytes abc", 2, "--bytes"});
  // compare: arguments and thresholds.
  t.push_back({"compare", 2, "base"});
  t.push_back({"compare FILE_good", 2, "new"});
  t.push_back({"compare FILE_good FILE_good extra", 2, "extra"});
  t.push_back({"compare /nonexistent.json FILE_good", 2, "'/nonexistent.json'"});
  t.push_back({"compare FILE_good /nonexistent.json", 2, "'/nonexistent.json'"});
  t.push_back({"compare / FILE_good", 2, "'/'"});
  for (const char* th :
       {"", "0", "0%", "-5", "-5%", "abc", "nan", "inf", "1001", "5%%", "%", "1e3", "0x5", " 5"}) {
    t.push_back(
        {std::string("compare FILE_good FILE_good --threshold '") + th + "'", 2, "--threshold"});
  }
  // compare: malformed and hostile JSON, bad times; the message names the file.
  for (const char* f :
       {"empty",       "notjson",    "array",    "deep",      "noschema",     "schema99",
        "schemastr",   "recordsobj", "recnum",   "noexp",     "expnum",       "paramsarr",
        "paramnull",   "timedstr",   "nostats",  "statsnull", "mednull",      "medstr",
        "medneg",      "medzero",    "medtrue",  "medobj",    "samplesstr",   "samplesneg",
        "samplesnull", "meanstr",    "stdevneg", "nocommon",  "emptyrecords", "verifyonly",
        "truncated",   "nul",        "bom"}) {
    const std::string file = std::string("FILE_") + f;
    t.push_back({"compare FILE_good " + file, 2, file});
    if (std::string(f) != "nocommon") t.push_back({"compare " + file + " FILE_good", 2, file});
  }
  return t;
}

// Files for the compare rows: FILE_good is a valid one-record report; the others break it.
std::map<std::string, std::string> compare_files() {
  const std::string rec_head = R"({"experiment":"bandwidth","variant":"copy","params":{"n":"1"},)";
  const std::string good_stats =
      R"("stats":{"median_ms":1.0,"mean_ms":1.0,"stdev_ms":0.01,"samples":3,"samples_ms":[0.99,1.0,1.01]})";
  auto report = [&](const std::string& record) {
    return R"({"schema_version":1,"records":[)" + record + "]}";
  };
  auto with_stats = [&](const std::string& stats) {
    return report(rec_head + R"("verified":true,"timed":true,)" + stats + "}");
  };
  std::map<std::string, std::string> f;
  f["good"] = with_stats(good_stats);
  f["empty"] = "";
  f["notjson"] = "this is not json";
  f["array"] = "[1,2,3]";
  f["deep"] = std::string(100000, '[') + std::string(100000, ']');
  f["noschema"] = R"({"records":[]})";
  f["schema99"] = R"({"schema_version":99,"records":[]})";
  f["schemastr"] = R"({"schema_version":"1","records":[]})";
  f["recordsobj"] = R"({"schema_version":1,"records":{}})";
  f["recnum"] = report("5");
  f["noexp"] = report(R"({"variant":"copy","params":{},"timed":false})");
  f["expnum"] = report(R"({"experiment":1,"variant":"copy","params":{},"timed":false})");
  f["paramsarr"] =
      report(R"({"experiment":"bandwidth","variant":"copy","params":[],"timed":false})");
  f["paramnull"] =
      report(R"({"experiment":"bandwidth","variant":"copy","params":{"n":null},"timed":false})");
  f["timedstr"] = report(rec_head + R"("verified":true,"timed":"yes"})");
  f["nostats"] = report(rec_head + R"("verified":true,"timed":true})");
  f["statsnull"] = with_stats(R"("stats":null)");
  f["mednull"] = with_stats(R"("stats":{"median_ms":null})");
  f["medstr"] = with_stats(R"("stats":{"median_ms":"1.0"})");
  f["medneg"] = with_stats(R"("stats":{"median_ms":-2342})");
  f["medzero"] = with_stats(R"("stats":{"median_ms":0})");
  f["medtrue"] = with_stats(R"("stats":{"median_ms":true})");
  f["medobj"] = with_stats(R"("stats":{"median_ms":{"a":[[[1]]]}})");
  f["samplesstr"] = with_stats(R"("stats":{"median_ms":1,"samples_ms":"1,2"})");
  f["samplesneg"] = with_stats(R"("stats":{"median_ms":1,"samples_ms":[1,-1]})");
  f["samplesnull"] = with_stats(R"("stats":{"median_ms":1,"samples_ms":[null]})");
  f["meanstr"] = with_stats(R"("stats":{"median_ms":1,"mean_ms":"x"})");
  f["stdevneg"] = with_stats(R"("stats":{"median_ms":1,"stdev_ms":-1})");
  f["nocommon"] =
      report(R"({"experiment":"other","variant":"copy","params":{},"verified":true,"timed":true,)" +
             good_stats + "}");
  f["emptyrecords"] = R"({"schema_version":1,"records":[]})";
  f["verifyonly"] = report(rec_head + R"("verified":true,"timed":false})");
  f["truncated"] = f["good"].substr(0, f["good"].size() / 2);
  f["nul"] = std::string("{\"schema_version\":1,\0\"records\":[]}", 33);
  f["bom"] = "\xEF\xBB\xBF\xEF\xBB\xBF" + f["good"];
  return f;
}

class BadInputs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        std::filesystem::temp_directory_path() / ("memlab_bad_inputs_" + std::to_string(getpid()));
    std::filesystem::create_directories(dir_);
    for (const auto& [name, text] : compare_files()) {
      std::ofstream(dir_ / name, std::ios::binary) << text;
    }
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Replaces every FILE_x with the prepared file's path and checks the case.
  void check(const Case& c) {
    std::string args = c.args, names = c.names;
    for (std::string* s : {&args, &names}) {
      for (std::size_t at; (at = s->find("FILE_")) != std::string::npos;) {
        std::size_t end = at + 5;
        while (end < s->size() && std::isalnum(static_cast<unsigned char>((*s)[end]))) ++end;
        s->replace(at, end - at, (dir_ / s->substr(at + 5, end - at - 5)).string());
      }
    }
    const Result r = memlab(args);
    EXPECT_EQ(r.code, c.code) << "memlab " << args << "\n" << r.out;
    EXPECT_NE(r.out.find(names), std::string::npos)
        << "memlab " << args << ": message does not name '" << names << "':\n"
        << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1)
        << "memlab " << args << ": not one line:\n"
        << r.out;
  }

  std::filesystem::path dir_;
};

TEST_F(BadInputs, AtLeastTwoHundredCasesOverEveryCommand) {
  EXPECT_GE(run_cases().size() + other_cases().size(), 200u);
}

TEST_F(BadInputs, Run) {
  for (const Case& c : run_cases()) check(c);
}

TEST_F(BadInputs, ListInfoModelCompare) {
  for (const Case& c : other_cases()) check(c);
}

// The model bugs of issue 14 that branch arch-model fixes (src/model, src/cli/model_command.cpp).
// Enable once it is merged; until then they fail (an abort, a hang, a wrong answer).
TEST_F(BadInputs, ModelBugsFixedByArchModel) {
  for (const Case& c : std::vector<Case>{
           {"model timeline --h2d 1e308 --kernel 1e308 --d2h 1e308", 2, "--h2d"},
           {"model timeline --segments 100000000", 2, "--segments"},
           {"model coalescing --pattern strided --stride 9223372036854775807", 2, "--stride"},
           {"model coalescing --pattern strided --stride 4611686018427387904", 2, "--stride"},
           {"model banks --stride 99999999999999999999", 2, "--stride"},
           {"model tiling --max-threads-per-block 0", 2, "--max-threads-per-block"},
           {"model coalescing --seed -1", 2, "--seed"},
           {"model nosuchmodel", 2, "'nosuchmodel'"},
           // These name the model's field (elem_size, threads_per_block), not the flag typed:
           {"model coalescing --pattern nosuch", 2, "--pattern"},
           {"model coalescing --elem-size 3", 2, "--elem-size"},
           {"model coalescing --stride 0", 2, "--stride"},  // accepted today (exit 0)
           {"model banks --elem-size 2", 2, "--elem-size"},
           {"model banks --pattern nosuch", 2, "--pattern"},
           {"model tiling --mask 2", 2, "--mask"},
           {"model tiling --dims 3", 2, "--dims"},
           {"model timeline --order nosuch", 2, "--order"},
           {"model timeline --streams 0", 2, "--streams"},
           {"model occupancy --threads 0", 2, "--threads"},
           {"model occupancy --threads 2048", 2, "--threads"},
       }) {
    check(c);
  }
}

}  // namespace
