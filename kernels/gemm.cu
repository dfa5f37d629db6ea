// The GEMM family on the device: its kernels, then their launchers (kernels/gemm_cuda.h); the cuBLAS
// variants are in gemm_cublas.cc.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "extensions/cuda_check.h"
#include "kernels/gemm_cublas.h"
#include "kernels/gemm_cuda.h"

namespace gbx::kernels {

// Row-major layouts as in kernels/gemm.h: element (row, column) of a matrix with `columns` columns.
__device__ inline std::size_t gemm_index(int row, int column, int columns) {
  return std::size_t(row) * std::size_t(columns) + std::size_t(column);
}

// --- naive: one thread per element of C, reading A and B straight from global memory ----------

constexpr int kNaiveBlockSide = 16;

// Threads along x take consecutive columns, so that their loads of B and stores of C coalesce.
__global__ void gemm_naive_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                  int m, int n, int k) {
  const int row = int(blockIdx.y * blockDim.y + threadIdx.y);
  const int column = int(blockIdx.x * blockDim.x + threadIdx.x);
  if (row >= m || column >= n) return;
  float sum = 0.0f;
  for (int p = 0; p < k; ++p) sum += A[gemm_index(row, p, k)] * B[gemm_index(p, column, n)];
  C[gemm_index(row, column, n)] = sum;
}

// --- tiled: square tiles of A and B staged in shared memory ------------------------------------

// A block of kTiledSide² threads computes a kTiledSide² tile of C; each element it loads from
// global memory is then read kTiledSide times from shared memory.
constexpr int kTiledSide = 32;

__global__ void gemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                  int m, int n, int k) {
  __shared__ float a_tile[kTiledSide][kTiledSide];
  __shared__ float b_tile[kTiledSide][kTiledSide];
  const int x = int(threadIdx.x);
  const int y = int(threadIdx.y);
  const int row = int(blockIdx.y) * kTiledSide + y;
  const int column = int(blockIdx.x) * kTiledSide + x;
  float sum = 0.0f;
  for (int p0 = 0; p0 < k; p0 += kTiledSide) {
    // Zeros outside the matrices let the loop below run the full tile on every edge.
    a_tile[y][x] = (row < m && p0 + x < k) ? A[gemm_index(row, p0 + x, k)] : 0.0f;
    b_tile[y][x] = (p0 + y < k && column < n) ? B[gemm_index(p0 + y, column, n)] : 0.0f;
    __syncthreads();
    // A warp shares y: a_tile[y][p] is one broadcast, b_tile[p][x] 32 consecutive banks.
#pragma unroll 8
    for (int p = 0; p < kTiledSide; ++p) sum += a_tile[y][p] * b_tile[p][x];
    __syncthreads();
  }
  if (row < m && column < n) C[gemm_index(row, column, n)] = sum;
}

// --- register-blocked: each thread computes an 8×8 block of C in registers ---------------------

// A block computes a 128×128 tile of C, stepping through k 8 at a time. Each step stages a 128×8
// slice of A and an 8×128 slice of B in shared memory (one float4 of each per thread), and each
// thread then does 64 multiply-adds per 16 shared-memory reads: the outer product of a column of 8
// from A's slice with a row of 8 from B's.
constexpr int kBlockedTileM = 128;
constexpr int kBlockedTileN = 128;
constexpr int kBlockedTileK = 8;
constexpr int kBlockedThreadM = 8;
constexpr int kBlockedThreadN = 8;
constexpr int kBlockedThreadsPerRow = kBlockedTileN / kBlockedThreadN;
constexpr int kBlockedThreads = (kBlockedTileM / kBlockedThreadM) * kBlockedThreadsPerRow;
static_assert(kBlockedTileM * kBlockedTileK == 4 * kBlockedThreads, "each thread loads one float4 of A per step");
static_assert(kBlockedTileK * kBlockedTileN == 4 * kBlockedThreads, "each thread loads one float4 of B per step");
static_assert(kBlockedThreadN % 4 == 0, "each thread stores whole float4s of C");

// Four consecutive elements of a row, from `column` (a multiple of 4) on; zeros for those outside
// the matrix. vectorised: columns is a multiple of 4 and the matrix 16-byte aligned, so the four
// are all inside or all outside and one 16-byte load fetches them.
__device__ inline float4 load_row_quad(const float* __restrict__ matrix, int rows, int columns, int row, int column,
                                       bool vectorised) {
  float4 quad = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  if (row >= rows || column >= columns) return quad;
  const float* first = matrix + gemm_index(row, column, columns);
  if (vectorised) return *reinterpret_cast<const float4*>(first);
  quad.x = first[0];
  if (column + 1 < columns) quad.y = first[1];
  if (column + 2 < columns) quad.z = first[2];
  if (column + 3 < columns) quad.w = first[3];
  return quad;
}

// The counterpart of load_row_quad: elements outside the matrix are dropped.
__device__ inline void store_row_quad(float* __restrict__ matrix, int rows, int columns, int row, int column,
                                      float4 quad, bool vectorised) {
  if (row >= rows || column >= columns) return;
  float* first = matrix + gemm_index(row, column, columns);
  if (vectorised) {
    *reinterpret_cast<float4*>(first) = quad;
    return;
  }
  first[0] = quad.x;
  if (column + 1 < columns) first[1] = quad.y;
  if (column + 2 < columns) first[2] = quad.z;
  if (column + 3 < columns) first[3] = quad.w;
}

// blockDim.x must be kBlockedThreads. The *_vectorised flags are load_row_quad's for each matrix;
// they are the same for every thread, so the branches on them do not diverge.
__global__ void __launch_bounds__(kBlockedThreads)
    gemm_register_blocked_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C, int m,
                                 int n, int k, bool a_vectorised, bool b_vectorised, bool c_vectorised) {
  // A's slice is stored transposed, so that the column of 8 a thread needs is contiguous, like B's row.
  __shared__ alignas(16) float a_slice[kBlockedTileK][kBlockedTileM];
  __shared__ alignas(16) float b_slice[kBlockedTileK][kBlockedTileN];
  const int thread = int(threadIdx.x);
  const int tile_row = int(blockIdx.y) * kBlockedTileM;
  const int tile_column = int(blockIdx.x) * kBlockedTileN;
  // Where this thread's 8×8 block of C lies in the tile.
  const int own_row = thread / kBlockedThreadsPerRow * kBlockedThreadM;
  const int own_column = thread % kBlockedThreadsPerRow * kBlockedThreadN;
  // Which float4 of each slice this thread loads.
  const int a_load_row = thread / (kBlockedTileK / 4);
  const int a_load_column = thread % (kBlockedTileK / 4) * 4;
  const int b_load_row = thread / (kBlockedTileN / 4);
  const int b_load_column = thread % (kBlockedTileN / 4) * 4;

  float accumulators[kBlockedThreadM][kBlockedThreadN] = {};
  for (int p0 = 0; p0 < k; p0 += kBlockedTileK) {
    const float4 a = load_row_quad(A, m, k, tile_row + a_load_row, p0 + a_load_column, a_vectorised);
    a_slice[a_load_column + 0][a_load_row] = a.x;
    a_slice[a_load_column + 1][a_load_row] = a.y;
    a_slice[a_load_column + 2][a_load_row] = a.z;
    a_slice[a_load_column + 3][a_load_row] = a.w;
    const float4 b = load_row_quad(B, k, n, p0 + b_load_row, tile_column + b_load_column, b_vectorised);
    *reinterpret_cast<float4*>(&b_slice[b_load_row][b_load_column]) = b;
    __syncthreads();
#pragma unroll
    for (int p = 0; p < kBlockedTileK; ++p) {
      float a_column[kBlockedThreadM];
      float b_row[kBlockedThreadN];
#pragma unroll
      for (int i = 0; i < kBlockedThreadM; ++i) a_column[i] = a_slice[p][own_row + i];
#pragma unroll
      for (int j = 0; j < kBlockedThreadN; ++j) b_row[j] = b_slice[p][own_column + j];
#pragma unroll
      for (int i = 0; i < kBlockedThreadM; ++i) {
#pragma unroll
        for (int j = 0; j < kBlockedThreadN; ++j) accumulators[i][j] += a_column[i] * b_row[j];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < kBlockedThreadM; ++i) {
#pragma unroll
    for (int j = 0; j < kBlockedThreadN; j += 4) {
      const float4 quad =
          make_float4(accumulators[i][j], accumulators[i][j + 1], accumulators[i][j + 2], accumulators[i][j + 3]);
      store_row_quad(C, m, n, tile_row + own_row + i, tile_column + own_column + j, quad, c_vectorised);
    }
  }
}

// --- conversions for the reduced-precision cuBLAS variants: round to nearest, even on ties ------

__global__ void convert_to_half_kernel(__half* __restrict__ dst, const float* __restrict__ src, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    dst[i] = __float2half_rn(src[i]);
  }
}

__global__ void convert_to_bf16_kernel(__nv_bfloat16* __restrict__ dst, const float* __restrict__ src, std::size_t n) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    dst[i] = __float2bfloat16_rn(src[i]);
  }
}

// ---- Launchers ----------------------------------------------------------------------------------

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
