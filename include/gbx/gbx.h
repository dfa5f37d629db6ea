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
