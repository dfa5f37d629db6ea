#include "extensions/setup_keeper.h"

#include <cstring>
#include <stdexcept>

#include "extensions/fixture_run.h"
#include "extensions/random_inputs.h"

namespace gbx::detail {

namespace {

// The one link from Google Benchmark's calls of the fixtures to the keeper the worker owns: Google
// Benchmark calls a registered benchmark with its own state only, so the keeper is found here.
SetupKeeper*& installed_keeper() {
  static SetupKeeper* keeper = nullptr;
  return keeper;
}

}  // namespace

SetupKeeper::SetupKeeper() {
  if (installed_keeper() != nullptr) throw std::logic_error("a SetupKeeper is installed already");
  installed_keeper() = this;
  keep_random_inputs(true);
}

SetupKeeper::~SetupKeeper() {
  keep_random_inputs(false);
  last_short_form_ = {};
  release_held();
  installed_keeper() = nullptr;
}

SetupKeeper* SetupKeeper::installed() { return installed_keeper(); }

void SetupKeeper::release_held() {
  if (held_ == nullptr) return;
  FixtureBase& held = *held_;
  held_ = nullptr;
  FixtureRun::tear_down_held(held);
}

std::shared_ptr<void> SetupKeeper::take_kept_host_array(std::size_t bytes) {
  auto& arrays = last_short_form_.host_arrays;
  for (auto it = arrays.begin(); it != arrays.end(); ++it) {
    if (it->first != bytes) continue;
    std::shared_ptr<void> storage = std::move(it->second);
    arrays.erase(it);
    std::memset(storage.get(), 0, bytes);
    return storage;
  }
  return nullptr;
}

}  // namespace gbx::detail
