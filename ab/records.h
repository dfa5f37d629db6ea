#pragma once

#include <nlohmann/json.hpp>

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "ab/paired.h"
#include "record/record_reader.h"

// What `gbx ab` leaves behind: both sides' records, and the paired comparison read from them (by the
// run itself, and by `gbx compare` over two of its records).
namespace gbx::tools {

// The rows of a paired comparison with what was compared besides them.
struct PairedComparison {
  std::vector<PairedResult> rows;
  std::vector<std::string> only_in_base;
  std::vector<std::string> only_in_candidate;
  double noise_band = 0.02;
  double equivalence = 0.02;
  nlohmann::json design;  // the gbx.ab facts beside the blocks (budget, looks, blocks per pair)
};

// Both designs' end: writes each side's record (record_of(0) base, record_of(1) candidate, built and
// finished by the design) to its path, and says so. Returns the exit code when the run ends here: 2
// when a record cannot be written, 128 + signal after an interrupt (both records keep what finished);
// otherwise nullopt, and the comparison goes on.
std::optional<int> write_side_records(const std::function<nlohmann::json(int)>& record_of, const std::string paths[2],
                                      int signal, std::ostream& err);

// Each row's accuracy failures, from the two records' benchmarks (each side's worst over its workers).
void add_accuracy(std::vector<PairedResult>& rows, const LoadedRecord& base, const LoadedRecord& candidate);

// Whether both records hold interleaved blocks of one `gbx ab` run (partners of each other).
bool paired_records(const LoadedRecord& base, const LoadedRecord& candidate);

// The paired comparison redone from the two records' blocks alone, at the levels the run recorded
// for each row's last look.
// test: the test across pairs to use instead of the recorded one (records without one used t).
PairedComparison paired_from_records(const LoadedRecord& base, const LoadedRecord& candidate,
                                     std::optional<PairTest> test = std::nullopt);

}  // namespace gbx::tools
