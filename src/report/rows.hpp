// Internal: the cells shared by the terminal table and the markdown writer.
#pragma once

#include <string>
#include <vector>

#include "memlab/bench/record.hpp"

namespace memlab::report::detail {

struct Cells {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
  std::vector<int> status;  // per row: 0 ok, 1 failed check, 2 warning (fits in L2)
};

std::string format_time_ms(double ms);

// One experiment's records (consecutive in the report) as cells; skipped records have no row.
Cells experiment_cells(const std::vector<const bench::Record*>& records);

// "cudaMemcpy n=1024 op=scale: skipped: does not apply at this point", one per skipped record.
std::vector<std::string> skip_lines(const std::vector<const bench::Record*>& records);

// The terminal table's: one line per skip reason, "90 skipped (broadcast, col_32x32): REASON";
// a reason of one record keeps skip_lines' form.
std::vector<std::string> collapsed_skip_lines(const std::vector<const bench::Record*>& records);

// Records grouped by experiment, in report order.
std::vector<std::vector<const bench::Record*>> group_by_experiment(const bench::RunReport& r);

}  // namespace memlab::report::detail
