#pragma once

#include <string>

namespace gbx::detail {

// The names gbx registered benchmarks under (register_fixture), so that a run can tell its
// instances from the plain Google Benchmark ones beside them, which take their samples as
// repetitions (reporters/plain_protocol.h).
void remember_registration(const std::string& name);

// Whether a Google Benchmark instance name ("reduce/naive/n:4096/iterations:1/manual_time") is
// one of gbx's: its registered name followed by '/' or nothing.
bool is_gbx_instance(const std::string& instance_name);

}  // namespace gbx::detail
