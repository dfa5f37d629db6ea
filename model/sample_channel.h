#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "model/run_record.h"

namespace gbx {

// Carries raw samples from the fixtures to the reporters. Each call of a benchmark publishes one
// record under its own id, so repetitions never mix; the fixture hands Google Benchmark the id
// through the run's label, which the reporters read back.
class SampleChannel {
 public:
  static SampleChannel& global();

  std::int64_t publish(detail::RunRecord record);
  std::optional<detail::RunRecord> find(std::int64_t id) const;
  std::vector<detail::RunRecord> records() const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<detail::RunRecord> records_;
};

// The label a fixture sets so that a reporter can find its record, and its inverse.
std::string record_label(std::int64_t id);
std::optional<std::int64_t> record_id_from_label(const std::string& label);

}  // namespace gbx
