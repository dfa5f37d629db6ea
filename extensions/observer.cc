#include "extensions/observer.h"

#include <utility>

namespace gbx {

namespace {

std::shared_ptr<BenchmarkObserver>& observer_storage() {
  static std::shared_ptr<BenchmarkObserver> observer;
  return observer;
}

}  // namespace

void set_benchmark_observer(std::shared_ptr<BenchmarkObserver> observer) { observer_storage() = std::move(observer); }

BenchmarkObserver* benchmark_observer() { return observer_storage().get(); }

}  // namespace gbx
