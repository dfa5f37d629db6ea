#include "text/benchmark_name.h"

#include <cstring>

namespace gbx {

const char* const kGbxNameSuffix = "/iterations:1/manual_time";

std::string shown_benchmark_name(const std::string& google_benchmark_name) {
  std::string name = google_benchmark_name;
  const std::size_t length = std::strlen(kGbxNameSuffix);
  const auto at = name.rfind(kGbxNameSuffix);
  if (at == std::string::npos) return name;
  const std::size_t end = at + length;
  // Google Benchmark names an aggregate row by the whole name, then "_" and the statistic ("_mean",
  // "_stddev", a user statistic's name), which has no '/'.
  const bool aggregate = end < name.size() && name[end] == '_' && name.find('/', end) == std::string::npos;
  if (end == name.size() || aggregate) name.erase(at, length);
  return name;
}

}  // namespace gbx
