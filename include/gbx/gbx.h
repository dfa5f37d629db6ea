#pragma once

// gbx's public interface, the one header a bench file includes. Write a function of gbx::State&
// (gbx::CudaState& on a device) and register it with GBX_BENCH; or, for what needs a class, derive a
// fixture from gbx::CpuFixture (gbx::CudaFixture) and register it with GBX_BENCHMARK. Link gbx::main. The headers it
// includes are the ones `cmake --install` installs. Namespace gbx holds the interface (docs/architecture.md lists
// it); what these headers need besides is in gbx::detail and may change.
#include "extensions/fixture.h"
#include "extensions/reference_cache.h"
#include "extensions/short_form.h"
#if defined(GBX_HAVE_CUDA) && GBX_HAVE_CUDA
#include "extensions/cuda_check.h"
#include "extensions/cuda_fixture.h"
#include "extensions/cuda_short_form.h"
#endif

namespace gbx {

// gbx's main: the --gbx_* and Google Benchmark flags, the selected benchmarks run under gbx's protocol,
// the console table and the record. gbx::main's main() is just this call. A program that keeps its own
// main() links gbx::gbx instead (everything but main()) and ends it with `return gbx::run_main(argc,
// argv);`, after its own setup. Exit codes: 0 every benchmark ran, or was skipped for want of a device;
// 1 a benchmark failed; 2 bad flags or an output path that cannot be written (before anything runs).
int run_main(int argc, char** argv);

}  // namespace gbx
