// What FixtureBase checks and keeps about a benchmark's arrays: their sizes, and the in-place outputs
// (declare_inout) that the accuracy check restores instead of poisoning.
#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "extensions/fixture.h"
#include "extensions/fixture_run.h"

namespace gbx {

std::size_t detail::array_bytes(const char* helper, std::size_t count, std::size_t element_bytes) {
  if (count > static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())) {
    return array_bytes(helper, static_cast<std::int64_t>(count), element_bytes);  // a negative count, converted
  }
  if (element_bytes > 0 && count > std::numeric_limits<std::size_t>::max() / element_bytes) {
    throw std::length_error(std::string(helper) + "(" + std::to_string(count) + "): " + std::to_string(count) +
                            " elements of " + std::to_string(element_bytes) + " bytes exceed the address space");
  }
  return count * element_bytes;
}

std::size_t detail::array_bytes(const char* helper, std::int64_t count, std::size_t element_bytes) {
  if (count < 0) {
    throw std::length_error(std::string(helper) + "(" + std::to_string(count) +
                            "): a negative count of elements (an axis value or a size computed from one?)");
  }
  return array_bytes(helper, static_cast<std::size_t>(count), element_bytes);
}

void FixtureBase::declare_inout_bytes(void* data, std::size_t bytes, bool on_device) {
  detail::FixtureCall& call = state_->call;
  if (call.measured) throw std::logic_error("an in-place output (inout) must be declared before the measurement");
  if (data == nullptr && bytes > 0) throw std::invalid_argument("declare_inout: no array");
  const auto& inout = call.inout;
  const bool declared = std::any_of(inout.begin(), inout.end(), [&](const detail::InOut& a) { return a.data == data; });
  if (!declared) call.inout.push_back({data, bytes, on_device, nullptr});
}

void FixtureBase::copy_bytes(void* to, const void* from, std::size_t bytes, bool on_device) {
  if (on_device) throw std::logic_error("a CPU fixture holds no device arrays");
  std::memcpy(to, from, bytes);
}

void detail::FixtureRun::save_inout(FixtureBase& fixture) {
  for (InOut& a : state_of(fixture).call.inout) {
    if (a.saved == nullptr && a.bytes > 0) a.saved = fixture.duplicate(a.data, a.bytes, a.on_device);
  }
}

void detail::FixtureRun::restore_inout(FixtureBase& fixture) {
  for (const InOut& a : state_of(fixture).call.inout) {
    if (a.saved != nullptr) fixture.copy_bytes(a.data, a.saved, a.bytes, a.on_device);
  }
}

bool detail::FixtureRun::checks_inout(FixtureBase& fixture, const void* output) {
  FixtureCall& call = state_of(fixture).call;
  call.check_output_inout =
      std::any_of(call.inout.begin(), call.inout.end(), [&](const InOut& a) { return a.data == output; });
  return call.check_output_inout;
}

void detail::FixtureRun::explain_nan(const FixtureCall& call, Accuracy& accuracy) {
  // The short form knows whether its checked output was poisoned; a class form's own poison_outputs()
  // is taken to poison every output unless it declared one in place.
  const bool poisoned = call.poison_hook ? !call.check_output_inout : call.inout.empty();
  if (accuracy.passed || accuracy.nan_count == 0 || !poisoned) return;
  accuracy.note =
      "the kernel may have read its output before writing it (in place, y = a*x + y) and found the NaN gbx "
      "poisons outputs with before this run; declare such an output with state.inout(y) (class form: "
      "declare_inout)";
}

}  // namespace gbx
