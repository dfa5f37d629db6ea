#pragma once

// gbx's public interface, the one header a bench file includes. Derive a fixture from
// gbx::CpuFixture (or gbx::CudaFixture, when gbx was built with CUDA), register it with
// GBX_BENCHMARK and link gbx::main. The headers it includes are the ones `cmake --install` installs.
#include "extensions/fixture.h"
#include "extensions/reference_cache.h"
#if defined(GBX_HAVE_CUDA) && GBX_HAVE_CUDA
#include "extensions/cuda_check.h"
#include "extensions/cuda_fixture.h"
#endif
