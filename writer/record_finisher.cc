#include "writer/record_finisher.h"

#include <ostream>
#include <stdexcept>

#include "model/interrupt.h"
#include "record/atomic_file.h"
#include "record/checksum.h"
#include "record/utf8.h"

namespace gbx {

std::vector<ParetoGroup> finish_record(nlohmann::json& record, bool interrupted, std::ostream& err,
                                       const std::string& tool) {
  // Part of the sealed record; a few milliseconds per problem (docs/pareto.md).
  std::vector<ParetoGroup> pareto = pareto_from_record(record);
  record["gbx"]["pareto"] = pareto_json(pareto);
  const std::vector<std::string> replaced = replace_invalid_utf8(record);
  if (!replaced.empty()) {
    record["gbx"]["invalid_utf8_replaced"] = replaced;
    err << tool << ": invalid UTF-8 replaced by U+FFFD in " << replaced.size()
        << " string(s) of the record; gbx.invalid_utf8_replaced lists where\n";
  }
  // A signal while the record was built: nothing was lost, but the run did not end as asked.
  const bool was = record["gbx"].value("interrupted", false);
  record["gbx"]["interrupted"] = was || interrupted || interrupt_requested();
  seal_record(record);
  return pareto;
}

void write_record(const nlohmann::json& record, const RecordDestinations& destinations, std::ostream& out) {
  const std::string text = record.dump(2) + "\n";
  if (destinations.to_stdout) out << text << std::flush;
  if (!destinations.out_path.empty()) {
    write_file_atomically(destinations.out_path, destinations.out_text.value_or(text));
  }
  if (!destinations.record_path.empty()) write_file_atomically(destinations.record_path, text);
}

}  // namespace gbx
