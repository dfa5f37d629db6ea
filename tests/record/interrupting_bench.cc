// A bench binary whose second benchmark sends SIGINT to its own process, so that an interrupted
// run can be tested without racing a timer: the first benchmark has finished, the rest have not.
#include <csignal>

#include "extensions/fixture.h"

namespace {

class Quick : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("interrupt/quick"); }
  void run() override {
    int x = 0;
    benchmark::DoNotOptimize(x);
  }
};

class RaisesSigint : public gbx::CpuFixture {
 protected:
  void setup(const benchmark::State&) override { declare_problem("interrupt/raises"); }
  void run() override {
    if (!raised_) {
      raised_ = true;
      std::raise(SIGINT);
    }
  }

 private:
  bool raised_ = false;
};

}  // namespace

GBX_BENCHMARK(Quick, "interrupt", "first");
GBX_BENCHMARK(RaisesSigint, "interrupt", "second");
GBX_BENCHMARK(Quick, "interrupt", "third");
