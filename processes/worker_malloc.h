#pragma once

#include <optional>
#include <string>

namespace gbx {

// gbx ab's workers allocate with glibc's malloc in transparent huge pages. Each worker is a fresh
// process whose first block of a row pays that row's setup; for a large row most of the setup is the
// kernel faulting in 4 KiB pages one at a time (in a VM, each at a paravirtual fault's cost), and huge
// pages cut that by about half. With glibc.malloc.hugetlb=1 (glibc 2.35 and later; an older glibc
// ignores it) malloc's large chunks are madvise(MADV_HUGEPAGE)d, as the host arrays already are
// (extensions/host_memory.h). Both sides get the same environment, and the record says so
// (gbx.ab.worker_malloc).
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
