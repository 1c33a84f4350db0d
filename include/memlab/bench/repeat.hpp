// `memlab run --repeat K`: the run-to-run spread of each record over K runs of the same plan
// (host-only).
#pragma once

#include <vector>

#include "memlab/bench/record.hpp"

namespace memlab::bench {

// Attaches to every timed record of `first` (run 1, kept as the reported record) the medians of
// the records with the same experiment, variant and point in `others` (runs 2..K), and their
// spread: (max - min) / median of the medians. Records timed in only some runs get the medians
// that exist.
void attach_repeats(std::vector<Record>& first, const std::vector<std::vector<Record>>& others);

}  // namespace memlab::bench
