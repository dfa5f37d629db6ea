#include "model/measurement.h"

namespace gbx::detail {

const char* to_string(TimerKind kind) {
  switch (kind) {
    case TimerKind::cuda_event:
      return "cuda_event";
    case TimerKind::host_wall:
      return "host_wall";
    case TimerKind::cpu:
      return "cpu";
    case TimerKind::simulated:
      return "simulated";
    case TimerKind::manual:
      return "manual";
  }
  return "unknown";
}

}  // namespace gbx::detail
