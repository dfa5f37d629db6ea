#pragma once

#include <string>
#include <vector>

#include "model/protocol.h"
#include "runner/in_process.h"
#include "writer/json_record.h"

namespace gbx {

// The parent of a --gbx_processes run (after benchmark::Initialize): lists the selection, runs it in
// K children of this executable, merges what they report into one record (writer/process_merge.h),
// shows it and writes it. Exit codes as run_main's.
int run_isolated(const std::vector<std::string>& command, const detail::CommandLine& line, const RunOutputs& outputs,
                 const RecordHeader& header_at_start);

}  // namespace gbx
