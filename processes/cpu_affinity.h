#pragma once

#include <optional>
#include <string>

// Where the workers of `gbx ab` run. The two blocks of a block pair are compared with each other, so
// they should run on the same core: on a shared 2-core VM one vCPU can be slower than the other for
// seconds at a time (another tenant on its host core), and a block pair split across the two would
// carry that difference into the comparison. Pinning the parent pins every worker it spawns
// (posix_spawn keeps the affinity mask); only one worker runs a block at a time, so they never
// compete for the core.
namespace gbx {

struct CpuChoice {
  std::optional<int> cpu;  // absent: left to the scheduler
  std::string error;       // non-empty: the spec could not be honoured, and why
};

// spec "auto": the highest-numbered CPU this process may run on (CPU 0 takes more of the machine's
// interrupts); "none": unpinned; a number: that CPU, which must be in this process's mask. The calling
// process (and so what it spawns) is pinned on success.
CpuChoice pin_to_cpu(const std::string& spec);

}  // namespace gbx
