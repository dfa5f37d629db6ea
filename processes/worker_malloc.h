#pragma once

#include <optional>
#include <string>

namespace gbx {

// gbx ab's workers allocate with glibc's malloc in transparent huge pages: each is a fresh process, and
// its first block of a row pays that row's setup, most of which, for the 64 MiB bandwidth rows, was the
// kernel faulting in the 4 KiB pages of the float64 reference (128 MiB) one at a time, at a paravirtual
// fault's cost. With glibc.malloc.hugetlb=1 (glibc 2.35 and later; an older glibc ignores it) malloc's
// large chunks are madvise(MADV_HUGEPAGE)d, as the host arrays already are (extensions/host_memory.h):
// the first block of triad/n:16777216 took 2.1-2.2 s, and 0.95-1.0 s with it (docs/compare-ab-log.md). Both
// sides get the same environment, and the record says so (gbx.ab.worker_malloc).
inline constexpr const char* kGlibcTunablesVariable = "GLIBC_TUNABLES";
inline constexpr const char* kMallocHugePagesTunable = "glibc.malloc.hugetlb=1";

// Sets GLIBC_TUNABLES for the children spawned while it lives: the tunable appended to what the user
// set, or left as it is where the user names glibc.malloc.hugetlb already. Restores the variable as it
// was when it ends.
class WorkerMallocInHugePages {
 public:
  WorkerMallocInHugePages();
  ~WorkerMallocInHugePages();
  WorkerMallocInHugePages(const WorkerMallocInHugePages&) = delete;
  WorkerMallocInHugePages& operator=(const WorkerMallocInHugePages&) = delete;
  WorkerMallocInHugePages(WorkerMallocInHugePages&&) = delete;
  WorkerMallocInHugePages& operator=(WorkerMallocInHugePages&&) = delete;

  // What the workers get, for the record: "GLIBC_TUNABLES=...".
  std::string description() const;

 private:
  std::optional<std::string> previous_;
  std::string tunables_;
};

}  // namespace gbx
