#include "record/benchmark_row_keys.h"

#include <set>

namespace gbx {

bool is_google_benchmark_row_key(const std::string& key) {
  static const std::set<std::string> kKeys{"name",
                                           "family_index",
                                           "per_family_instance_index",
                                           "run_name",
                                           "run_type",
                                           "repetitions",
                                           "repetition_index",
                                           "threads",
                                           "iterations",
                                           "real_time",
                                           "cpu_time",
                                           "time_unit",
                                           "aggregate_name",
                                           "aggregate_unit",
                                           "label",
                                           "error_occurred",
                                           "error_message",
                                           "skipped",
                                           "skip_message",
                                           "cpu_coefficient",
                                           "real_coefficient",
                                           "big_o",
                                           "rms",
                                           "allocs_per_iter",
                                           "max_bytes_used",
                                           "total_allocated_bytes",
                                           "net_heap_growth",
                                           "gbx"};
  return kKeys.count(key) != 0;
}

}  // namespace gbx
