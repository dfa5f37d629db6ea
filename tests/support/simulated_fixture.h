#pragma once

#include <memory>

#include "extensions/fixture.h"
#include "tests/support/forwarding_timer.h"
#include "tests/support/simulated_timer.h"

namespace gbx_test {

// A CpuFixture measured on a simulated clock: its timer and the wall clock that bounds it are one
// SimulatedTimer owned by the derived class, and each run of the kernel is one simulated run. The
// real fixture machinery (acquire, setup, measure, publish, labels) runs unchanged around it.
class SimulatedCpuFixture : public gbx::CpuFixture {
 protected:
  virtual gbx_test::SimulatedTimer& simulated() = 0;

  void run() override { simulated().run(); }
  std::unique_ptr<gbx::detail::Timer> make_timer() override { return std::make_unique<ForwardingTimer>(simulated()); }
  double now_seconds() override { return simulated().now_seconds(); }
};

}  // namespace gbx_test
