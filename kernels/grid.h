#pragma once

#include <cstddef>

namespace gbx::kernels {

// Blocks for a grid-stride kernel: enough to cover work_items at threads_per_block, capped at
// blocks_per_sm waves of the current device's SMs, since past that more blocks only add overhead
// (and, for reductions, atomics). At least one. The SM count is read once per device and cached.
unsigned grid_stride_blocks(std::size_t work_items, unsigned threads_per_block, unsigned blocks_per_sm);

}  // namespace gbx::kernels
