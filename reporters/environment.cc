#include "reporters/environment.h"

#include <benchmark/benchmark.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#ifdef GBX_HAVE_CUDA
#include "extensions/cuda_device.h"
#endif

namespace gbx {

namespace {

void set_or_explain(nlohmann::json& object, const char* key, bool ok, const std::string& value,
                    const std::string& reason) {
  if (ok) {
    object[key] = value;
  } else {
    object[key] = nullptr;
    object[std::string(key) + "_unavailable"] = reason;
  }
}

nlohmann::json host_json() {
  nlohmann::json host;
  char name[256] = {};
  const bool named = ::gethostname(name, sizeof name - 1) == 0;
  set_or_explain(host, "hostname", named, name, named ? "" : std::strerror(errno));
  utsname uts{};
  const bool have_uname = ::uname(&uts) == 0;
  set_or_explain(host, "os", have_uname, have_uname ? uts.sysname : "", "uname failed");
  set_or_explain(host, "kernel", have_uname, have_uname ? uts.release : "", "uname failed");
  set_or_explain(host, "machine", have_uname, have_uname ? uts.machine : "", "uname failed");
  host["logical_cpus"] = std::thread::hardware_concurrency();
  return host;
}

nlohmann::json build_json() {
  nlohmann::json build;
#if defined(__clang__)
  build["compiler"] = std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  build["compiler"] = std::string("gcc ") + __VERSION__;
#else
  build["compiler"] = nullptr;
  build["compiler_unavailable"] = "unknown compiler";
#endif
#ifdef NDEBUG
  build["assertions"] = false;
#else
  build["assertions"] = true;
#endif
#ifdef GBX_HAVE_CUDA
  build["cuda"] = true;
#else
  build["cuda"] = false;
#endif
  return build;
}

nlohmann::json cuda_json() {
  nlohmann::json cuda;
#ifdef GBX_HAVE_CUDA
  const std::string reason = cuda_unavailable_reason();
  cuda["device_available"] = reason.empty();
  if (!reason.empty()) cuda["device_unavailable"] = reason;
#else
  cuda["device_available"] = false;
  cuda["device_unavailable"] = "gbx was built without CUDA";
#endif
  return cuda;
}

}  // namespace

nlohmann::json capture_environment() { return {{"host", host_json()}, {"build", build_json()}, {"cuda", cuda_json()}}; }

}  // namespace gbx
