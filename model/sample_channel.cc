#include "model/sample_channel.h"

#include <cstdlib>
#include <utility>

namespace gbx {

namespace {
constexpr const char* kLabelPrefix = "gbx-record:";
}

SampleChannel& SampleChannel::global() {
  static SampleChannel channel;
  return channel;
}

std::int64_t SampleChannel::publish(detail::RunRecord record) {
  std::lock_guard<std::mutex> lock(mutex_);
  record.id = static_cast<std::int64_t>(records_.size());
  records_.push_back(std::move(record));
  return records_.back().id;
}

std::optional<detail::RunRecord> SampleChannel::find(std::int64_t id) const {
  std::lock_guard<std::mutex> lock(mutex_);
  if (id < 0 || id >= static_cast<std::int64_t>(records_.size())) return std::nullopt;
  return records_[static_cast<std::size_t>(id)];
}

std::vector<detail::RunRecord> SampleChannel::records() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return records_;
}

void SampleChannel::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  records_.clear();
}

std::string record_label(std::int64_t id) { return kLabelPrefix + std::to_string(id); }

std::optional<std::int64_t> record_id_from_label(const std::string& label) {
  const std::string prefix = kLabelPrefix;
  if (label.compare(0, prefix.size(), prefix) != 0 || label.size() == prefix.size()) return std::nullopt;
  const std::string digits = label.substr(prefix.size());
  if (digits.find_first_not_of("0123456789") != std::string::npos) return std::nullopt;
  return std::strtoll(digits.c_str(), nullptr, 10);
}

}  // namespace gbx
