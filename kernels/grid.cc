#include "kernels/grid.h"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>

#include "extensions/cuda_check.h"

namespace gbx::kernels {

namespace {

// SM counts by device ordinal, each read once: the attribute query goes to the driver, and
// grid_stride_blocks runs inside timed launches. 0: not read yet. Relaxed order is enough: every
// thread that reads the attribute stores the same value.
constexpr int kCachedDevices = 64;
std::atomic<int> cached_sms[kCachedDevices];

int multiprocessors(int device) {
  const bool cacheable = device >= 0 && device < kCachedDevices;
  int sms = cacheable ? cached_sms[device].load(std::memory_order_relaxed) : 0;
  if (sms == 0) {
    GBX_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    if (cacheable) cached_sms[device].store(sms, std::memory_order_relaxed);
  }
  return sms;
}

}  // namespace

unsigned grid_stride_blocks(std::size_t work_items, unsigned threads_per_block, unsigned blocks_per_sm) {
  int device = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));  // the runtime's per-thread state: no driver call
  const std::size_t needed = (work_items + threads_per_block - 1) / threads_per_block;
  const std::size_t cap = std::size_t(multiprocessors(device)) * blocks_per_sm;
  return static_cast<unsigned>(std::max<std::size_t>(1, std::min(needed, cap)));
}

}  // namespace gbx::kernels
