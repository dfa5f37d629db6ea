// The build: the program's (source.cc), gbx's own, and the versions of the libraries built in or loaded.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <openssl/crypto.h>

#include <boost/version.hpp>
#include <exception>
#include <sstream>
#include <string>

#include "environment/build_info.h"
#include "environment/environment_detail.h"

#ifdef GBX_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace gbx::environment_detail {
namespace {

// Google Benchmark keeps its own build type private; its JSON reporter prints it in the context.
Maybe benchmark_library_build_type() {
  try {
    using Context = benchmark::BenchmarkReporter::Context;
    // The JSON reporter prints executable_name, null until benchmark::Initialize().
    const char* const saved = Context::executable_name;
    if (!saved) Context::executable_name = "gbx";
    std::ostringstream out, err;
    benchmark::JSONReporter reporter;
    reporter.SetOutputStream(&out);
    reporter.SetErrorStream(&err);
    reporter.ReportContext(Context());
    Context::executable_name = saved;
    // Read by hand rather than with <regex>: GCC 12 warns falsely (-Wmaybe-uninitialized) inside
    // <regex> under -fsanitize=address, and the context is not a whole JSON document to parse.
    const std::string text = out.str();
    const std::string key = "\"library_build_type\"";
    std::size_t at = text.find(key);
    if (at != std::string::npos) {
      at = text.find_first_not_of(" \t\r\n", at + key.size());
      if (at != std::string::npos && text[at] == ':') at = text.find_first_not_of(" \t\r\n", at + 1);
      const std::size_t end = at != std::string::npos && text[at] == '"' ? text.find('"', at + 1) : std::string::npos;
      if (end != std::string::npos) return {text.substr(at + 1, end - at - 1), ""};
    }
    return {std::nullopt, "this Google Benchmark's JSON context has no library_build_type"};
  } catch (const std::exception& error) {
    return {std::nullopt, std::string("Google Benchmark's JSON context failed: ") + error.what()};
  }
}

// Unused when built without CUDA.
[[maybe_unused]] std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

OpenBlas openblas() {
  using Text = const char* (*)();
  const auto config = reinterpret_cast<Text>(::dlsym(RTLD_DEFAULT, "openblas_get_config"));
  const auto core = reinterpret_cast<Text>(::dlsym(RTLD_DEFAULT, "openblas_get_corename"));
  const std::string absent = "OpenBLAS is not loaded in this process (it comes with gbx_kernels)";
  OpenBlas out{{std::nullopt, absent}, {std::nullopt, absent}, {std::nullopt, absent}};
  if (config && config()) {
    // "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Haswell MAX_THREADS=64": the version is the 2nd word.
    const std::string text = config();
    out.config = {text, ""};
    std::istringstream words(text);
    std::string first, second;
    words >> first >> second;
    if (first == "OpenBLAS" && !second.empty()) {
      out.version = {second, ""};
    } else {
      out.version = {std::nullopt, "openblas_get_config() names no version: " + text};
    }
  }
  if (core && core()) out.core = {std::string(core()), ""};
  return out;
}

Maybe cublas_version() {
  using GetProperty = int (*)(int, int*);  // cublasGetProperty(libraryPropertyType, int*)
  std::string why;
  for (const char* name : {"libcublas.so.13", "libcublas.so"}) {
    void* library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
    if (!library) {
      const char* error = ::dlerror();
      why += std::string(why.empty() ? "" : "; ") + (error ? error : name);
      continue;
    }
    const auto get = reinterpret_cast<GetProperty>(::dlsym(library, "cublasGetProperty"));
    int major = 0, minor = 0, patch = 0;  // MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2
    if (get && get(0, &major) == 0 && get(1, &minor) == 0 && get(2, &patch) == 0) {
      return {std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(patch), ""};
    }
    return {std::nullopt, std::string(name) + ": cublasGetProperty failed or is missing"};
  }
  return {std::nullopt, "cannot load cuBLAS: " + why};
}

CudaVersions cuda_versions() {
#ifdef GBX_HAVE_CUDA
  CudaVersions out;
  int runtime = 0, driver = 0;
  if (cudaRuntimeGetVersion(&runtime) == cudaSuccess) {
    out.runtime = {cuda_version_text(runtime), ""};
  } else {
    out.runtime = {std::nullopt, "cudaRuntimeGetVersion failed"};
  }
  if (cudaDriverGetVersion(&driver) == cudaSuccess && driver > 0) {
    out.driver = {cuda_version_text(driver), ""};
  } else {
    out.driver = {std::nullopt, "no CUDA driver is installed"};
  }
  return out;
#else
  return {{std::nullopt, "gbx was built without CUDA"}, {std::nullopt, "gbx was built without CUDA"}};
#endif
}

namespace {

// gbx's own build, apart from the program's (build.gbx): the library the program linked.
Json gbx_build_json() {
  Json gbx;
  gbx["version"] = GBX_BUILD_VERSION;
  put(gbx, "build_type", from_macro(GBX_BUILD_TYPE, "CMAKE_BUILD_TYPE was empty"));
  gbx["flags"] = GBX_BUILD_CXX_FLAGS;
#ifdef NDEBUG
  gbx["assertions"] = false;
#else
  gbx["assertions"] = true;
#endif
  put(gbx, "compiler", from_macro(GBX_BUILD_CXX_COMPILER, "CMake did not identify the compiler"));
  put(gbx, "compiler_path", from_macro(GBX_BUILD_CXX_COMPILER_PATH, "CMake did not name the compiler"));
  gbx["cmake"] = GBX_BUILD_CMAKE_VERSION;
  return gbx;
}

}  // namespace

Json build_json(const Maybe& openblas_version, const OpenBlas& blas, const Maybe& cublas) {
  Json build;
  put_program_build(build);
  build["gbx"] = gbx_build_json();
#ifdef GBX_HAVE_CUDA
  build["cuda"] = true;
#else
  build["cuda"] = false;
#endif
  put(build, "cuda_toolkit", from_macro(GBX_BUILD_CUDA_VERSION, "gbx was built without CUDA"));
  put(build, "google_benchmark", from_macro(GBX_BUILD_BENCHMARK_VERSION, "find_package(benchmark) gave no version"));
  put(build, "google_benchmark_library_build_type", benchmark_library_build_type());
  build["boost"] = std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
                   std::to_string(BOOST_VERSION % 100);
  build["nlohmann_json"] = std::to_string(NLOHMANN_JSON_VERSION_MAJOR) + "." +
                           std::to_string(NLOHMANN_JSON_VERSION_MINOR) + "." +
                           std::to_string(NLOHMANN_JSON_VERSION_PATCH);
  build["openssl"] = OpenSSL_version(OPENSSL_VERSION);
  put(build, "openblas", openblas_version);
  put(build, "openblas_core", blas.core);
  put(build, "openblas_config", blas.config);
  put(build, "cublas", cublas);
  return build;
}

}  // namespace gbx::environment_detail
