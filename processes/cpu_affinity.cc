#include "processes/cpu_affinity.h"

#include <sched.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace gbx {

CpuChoice pin_to_cpu(const std::string& spec) {
  CpuChoice choice;
  if (spec == "none") return choice;
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  if (::sched_getaffinity(0, sizeof allowed, &allowed) != 0) {
    choice.error = std::string("cannot read this process's CPU mask: ") + std::strerror(errno);
    return choice;
  }
  int cpu = -1;
  if (spec == "auto") {
    for (int c = CPU_SETSIZE - 1; c >= 0 && cpu < 0; --c) {
      if (CPU_ISSET(c, &allowed)) cpu = c;
    }
  } else {
    char* end = nullptr;
    errno = 0;
    const long wanted = std::strtol(spec.c_str(), &end, 10);
    if (spec.empty() || *end != '\0' || errno != 0 || wanted < 0 || wanted >= CPU_SETSIZE) {
      choice.error = "expected auto, none or a CPU number";
      return choice;
    }
    if (!CPU_ISSET(static_cast<int>(wanted), &allowed)) {
      choice.error = "CPU " + spec + " is not one this process may run on";
      return choice;
    }
    cpu = static_cast<int>(wanted);
  }
  if (cpu < 0) {
    choice.error = "this process may run on no CPU";
    return choice;
  }
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (::sched_setaffinity(0, sizeof one, &one) != 0) {
    choice.error = "cannot pin to CPU " + std::to_string(cpu) + ": " + std::strerror(errno);
    return choice;
  }
  choice.cpu = cpu;
  return choice;
}

}  // namespace gbx
