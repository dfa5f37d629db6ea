#include "extensions/reference_cache.h"

#include <map>
#include <memory>
#include <mutex>

namespace gbx {

const std::vector<double>& cached_reference(const std::string& key,
                                            const std::function<std::vector<double>()>& compute) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<const std::vector<double>>> cache;
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<const std::vector<double>>(compute());
  return *slot;
}

}  // namespace gbx
