#include <cstdint>
#include <stdexcept>
#include <string>

#include "extensions/cuda_check.h"
#include "kernels/gemm.h"
#include "kernels/gemm_cublas.h"
#include "kernels/gemm_kernels.cuh"

namespace gbx::kernels {

namespace {

// One block per tile of C, columns along x. CUDA allows 65535 blocks along y, which caps m at
// 65535 tiles; beyond that, and for negative sizes, the launch is refused here with a message
// rather than failing as an invalid configuration.
dim3 grid_for(int m, int n, int k, int tile_m, int tile_n) {
  if (m < 0 || n < 0 || k < 0) {
    throw std::invalid_argument("gemm: negative size m=" + std::to_string(m) + " n=" + std::to_string(n) +
                                " k=" + std::to_string(k));
  }
  const long long row_tiles = (static_cast<long long>(m) + tile_m - 1) / tile_m;
  const long long column_tiles = (static_cast<long long>(n) + tile_n - 1) / tile_n;
  if (row_tiles > 65535) {
    throw std::invalid_argument("gemm: m=" + std::to_string(m) + " needs more than 65535 rows of " +
                                std::to_string(tile_m) + "-row tiles");
  }
  return dim3(static_cast<unsigned>(column_tiles), static_cast<unsigned>(row_tiles));
}

bool aligned_16(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0; }

// Grid-stride conversions: enough blocks to fill any current GPU several times over.
unsigned conversion_blocks(std::size_t n) {
  constexpr std::size_t kMaxBlocks = 4096;
  const std::size_t needed = (n + 255) / 256;
  return static_cast<unsigned>(needed == 0 ? 1 : (needed < kMaxBlocks ? needed : kMaxBlocks));
}

}  // namespace

// An empty C needs no launch, and an empty grid would be a launch error.
void launch_gemm_naive(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream) {
  const dim3 grid = grid_for(m, n, k, kNaiveBlockSide, kNaiveBlockSide);
  if (m == 0 || n == 0) return;
  gemm_naive_kernel<<<grid, dim3(kNaiveBlockSide, kNaiveBlockSide), 0, stream>>>(A, B, C, m, n, k);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_gemm_tiled(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream) {
  const dim3 grid = grid_for(m, n, k, kTiledSide, kTiledSide);
  if (m == 0 || n == 0) return;
  gemm_tiled_kernel<<<grid, dim3(kTiledSide, kTiledSide), 0, stream>>>(A, B, C, m, n, k);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_gemm_register_blocked(const float* A, const float* B, float* C, int m, int n, int k, cudaStream_t stream) {
  const dim3 grid = grid_for(m, n, k, kBlockedTileM, kBlockedTileN);
  if (m == 0 || n == 0) return;
  const bool a_vectorised = k % 4 == 0 && aligned_16(A);
  const bool b_vectorised = n % 4 == 0 && aligned_16(B);
  const bool c_vectorised = n % 4 == 0 && aligned_16(C);
  gemm_register_blocked_kernel<<<grid, kBlockedThreads, 0, stream>>>(A, B, C, m, n, k, a_vectorised, b_vectorised,
                                                                     c_vectorised);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_convert_to_half(__half* dst, const float* src, std::size_t n, cudaStream_t stream) {
  convert_to_half_kernel<<<conversion_blocks(n), 256, 0, stream>>>(dst, src, n);
  GBX_CUDA_CHECK(cudaGetLastError());
}

void launch_convert_to_bf16(__nv_bfloat16* dst, const float* src, std::size_t n, cudaStream_t stream) {
  convert_to_bf16_kernel<<<conversion_blocks(n), 256, 0, stream>>>(dst, src, n);
  GBX_CUDA_CHECK(cudaGetLastError());
}

}  // namespace gbx::kernels
