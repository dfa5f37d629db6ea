// What FixtureBase checks and keeps about a benchmark's arrays: their sizes, and the in-place outputs
// (declare_inout) that the accuracy check restores instead of poisoning.
#include <algorithm>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

#include "extensions/fixture.h"

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
  if (measured_) throw std::logic_error("an in-place output (inout) must be declared before the measurement");
  if (data == nullptr && bytes > 0) throw std::invalid_argument("declare_inout: no array");
  const bool declared = std::any_of(inout_.begin(), inout_.end(), [&](const InOut& a) { return a.data == data; });
  if (!declared) inout_.push_back({data, bytes, on_device, nullptr});
}

void FixtureBase::copy_bytes(void* to, const void* from, std::size_t bytes, bool on_device) {
  if (on_device) throw std::logic_error("a CPU fixture holds no device arrays");
  std::memcpy(to, from, bytes);
}

void FixtureBase::save_inout() {
  for (InOut& a : inout_) {
    if (a.saved == nullptr && a.bytes > 0) a.saved = duplicate(a.data, a.bytes, a.on_device);
  }
}

void FixtureBase::restore_inout() {
  for (const InOut& a : inout_) {
    if (a.saved != nullptr) copy_bytes(a.data, a.saved, a.bytes, a.on_device);
  }
}

bool FixtureBase::checks_inout(const void* output) {
  check_output_inout_ = std::any_of(inout_.begin(), inout_.end(), [&](const InOut& a) { return a.data == output; });
  return check_output_inout_;
}

void FixtureBase::explain_nan(Accuracy& accuracy) const {
  // The short form knows whether its checked output was poisoned; a class form's own poison_outputs()
  // is taken to poison every output unless it declared one in place.
  const bool poisoned = poison_hook_ ? !check_output_inout_ : inout_.empty();
  if (accuracy.passed || accuracy.nan_count == 0 || !poisoned) return;
  accuracy.note =
      "the kernel may have read its output before writing it (in place, y = a*x + y) and found the NaN gbx "
      "poisons outputs with before this run; declare such an output with state.inout(y) (class form: "
      "declare_inout)";
}

}  // namespace gbx
