// docs/exercises.md's table "Seeds 002 and 004, lesson by lesson" against the course texts and the
// exercise catalogue: every lesson that seed 002 or 004 lists ("Alle Lektionen in diesem Kurs")
// has a row, each row quotes the heading that stands on the line it cites, and each exercise it
// names is in the catalogue (issue 21 #8). The table "The exercises" names every exercise.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "memlab/exercise/engine.hpp"

namespace memlab::exercise {
namespace {

std::vector<std::string> lines_of(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::vector<std::string> out;
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" `*");
  const auto e = s.find_last_not_of(" `*");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::stringstream ss(row.substr(row.find('|') + 1));
  for (std::string c; std::getline(ss, c, '|');) out.push_back(trim(c));
  return out;
}

// The rows of the markdown table that follows `marker` (a line of its own) in `doc`.
std::vector<std::vector<std::string>> table_after(const std::vector<std::string>& doc,
                                                  const std::string& marker) {
  std::vector<std::vector<std::string>> rows;
  std::size_t i = 0;
  while (i < doc.size() && doc[i] != marker) ++i;
  while (i < doc.size() && doc[i].rfind('|', 0) != 0) ++i;  // the header row
  for (i += 2; i < doc.size() && doc[i].rfind('|', 0) == 0; ++i) rows.push_back(cells(doc[i]));
  return rows;
}

// The lessons a seed lists after "Alle Lektionen in diesem Kurs", one "- " line each.
std::vector<std::string> seed_lessons(const std::vector<std::string>& seed) {
  std::vector<std::string> out;
  bool in_list = false;
  for (const std::string& l : seed) {
    if (l == "Alle Lektionen in diesem Kurs")
      in_list = true;
    else if (in_list && l.rfind("- ", 0) == 0)
      out.push_back(l.substr(2));
  }
  return out;
}

const std::string kDocs = std::string(MEMLAB_SOURCE_DIR) + "/docs/";
const std::map<std::string, std::string> kSeeds = {{"002", "002_e800db24ba7d1405.txt"},
                                                   {"004", "004_0b408c8cb173ece1.txt"}};

TEST(ExerciseDocs, EverySeedStepHasAnExercise) {
  const auto rows = table_after(lines_of(kDocs + "exercises.md"), "<!-- seed-steps -->");
  ASSERT_FALSE(rows.empty()) << "docs/exercises.md: no table after <!-- seed-steps -->";
  std::map<std::string, std::set<std::string>> covered;  // seed -> lessons with a row
  for (const auto& r : rows) {
    ASSERT_EQ(r.size(), 5u) << ::testing::PrintToString(r);
    const std::string &seed = r[0], &lesson = r[1], &cited = r[2], &exercise = r[3];
    ASSERT_TRUE(kSeeds.count(seed)) << "seed " << seed;
    // "FILE:LINE": the seed's file, and the heading on that line (a "- " list entry).
    const auto colon = cited.rfind(':');
    ASSERT_NE(colon, std::string::npos) << cited;
    EXPECT_EQ(cited.substr(0, colon), kSeeds.at(seed)) << cited;
    const auto text = lines_of(kDocs + "course/" + cited.substr(0, colon));
    const std::size_t line = std::stoul(cited.substr(colon + 1));
    ASSERT_TRUE(line >= 1 && line <= text.size()) << cited;
    EXPECT_TRUE(text[line - 1] == "- " + lesson || text[line - 1] == lesson)
        << cited << " says \"" << text[line - 1] << "\", the table quotes \"" << lesson << "\"";
    EXPECT_NO_THROW(get(exercise)) << "row " << lesson << ": exercise " << exercise;
    EXPECT_FALSE(r[4].empty()) << lesson << ": no stage";
    covered[seed].insert(lesson);
  }
  for (const auto& [seed, file] : kSeeds) {
    const auto lessons = seed_lessons(lines_of(kDocs + "course/" + file));
    EXPECT_EQ(lessons.size(), 4u) << file;  // "Der CUDA Academy-Kurs umfasst insgesamt 4 Lektionen"
    for (const std::string& l : lessons) {
      EXPECT_TRUE(covered[seed].count(l))
          << "seed " << seed << ": lesson \"" << l << "\" has no row in docs/exercises.md";
    }
  }
}

TEST(ExerciseDocs, TheExercisesTableNamesEveryExercise) {
  const auto rows = table_after(lines_of(kDocs + "exercises.md"), "## The exercises");
  std::set<std::string> named;
  for (const auto& r : rows) named.insert(r.at(0));
  for (const Exercise& e : catalogue()) EXPECT_TRUE(named.count(e.name)) << e.name;
  for (const std::string& n : named) EXPECT_NO_THROW(get(n)) << n;
}

}  // namespace
}  // namespace memlab::exercise
