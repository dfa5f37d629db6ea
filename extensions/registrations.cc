#include "extensions/registrations.h"

#include <set>

namespace gbx::detail {

namespace {

// Filled by static initialisers and by the short form's registration, before any benchmark runs.
std::set<std::string>& registered_names() {
  static std::set<std::string> names;
  return names;
}

}  // namespace

void remember_registration(const std::string& name) { registered_names().insert(name); }

bool is_gbx_instance(const std::string& instance_name) {
  // Every prefix of the instance name that ends before a '/' (and the whole name) may be the registered name.
  for (std::size_t end = instance_name.find('/');; end = instance_name.find('/', end + 1)) {
    if (registered_names().count(instance_name.substr(0, end)) != 0) return true;
    if (end == std::string::npos) return false;
  }
}

}  // namespace gbx::detail
