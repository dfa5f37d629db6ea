// A test-only bench binary: healthy benchmarks beside ones that crash, abort or hang on purpose, for
// the fault isolation of --gbx_processes (process_test.sh). Never run it without --gbx_processes.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <thread>

#include "extensions/fixture.h"
#include "model/interrupt.h"

namespace {

// Set by a benchmark that fails and leaves its process unfit, as a sticky CUDA error does.
bool poisoned = false;

class Healthy : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override {
    declare_problem("faults/healthy");
    if (poisoned) throw std::runtime_error("this process was poisoned by an earlier failure");
  }
  void run() override {
    int x = 0;
    benchmark::DoNotOptimize(x);
  }
};

class Segfaults : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("faults/segfault"); }
  void run() override { std::raise(SIGSEGV); }
};

class Aborts : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("faults/abort"); }
  void run() override { std::abort(); }
};

// Hangs until killed, or until SIGINT/SIGTERM asks the run to stop.
class Hangs : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("faults/hang"); }
  void run() override {
    while (!gbx::interrupt_requested()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
};

// Exits on its own with a code, as a library calling exit() would.
class Exits : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("faults/exit"); }
  void run() override { std::_Exit(3); }
};

// Fails (an exception: a failed benchmark, not a dead process) and poisons the process.
class Poisons : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("faults/poison"); }
  void run() override {
    poisoned = true;
    throw std::runtime_error("illegal memory access (simulated sticky error)");
  }
};

}  // namespace

// Cannot run on this machine, as a CUDA benchmark without a device: skipped with its reason, not failed.
class Unavailable : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { throw gbx::Unavailable("no such device here", "no_test_device"); }
  void run() override {}
};

GBX_BENCHMARK(Poisons, "faults", "poison");
GBX_BENCHMARK(Unavailable, "faults", "unavailable");
GBX_BENCHMARK(Healthy, "faults", "first");
GBX_BENCHMARK(Segfaults, "faults", "segfault");
GBX_BENCHMARK(Healthy, "faults", "second");
GBX_BENCHMARK(Aborts, "faults", "abort");
GBX_BENCHMARK(Hangs, "faults", "hang");
GBX_BENCHMARK(Exits, "faults", "exit");
GBX_BENCHMARK(Healthy, "faults", "third");
