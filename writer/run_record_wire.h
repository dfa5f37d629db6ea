#pragma once

#include <nlohmann/json.hpp>

#include "model/run_record.h"

namespace gbx {

// The wire format of a RunRecord between a child process and its parent: lossless, unlike the
// record's entry (which drops what a reader of results does not need). A field added to RunRecord
// must be added here too, or --gbx_processes loses it; the round trip is tested in
// tests/processes/process_merge_gtest.cc.
nlohmann::json run_record_json(const detail::RunRecord& record);
detail::RunRecord run_record_from_json(const nlohmann::json& json);

}  // namespace gbx
