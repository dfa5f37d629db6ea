#include "extensions/cuda_fixture.h"

#include <algorithm>
#include <stdexcept>

#include "extensions/cuda_check.h"
#include "extensions/cuda_device.h"
#include "extensions/cuda_timers.h"
#include "extensions/l2_flush.h"

namespace gbx {

CudaFixture::CudaFixture() = default;

CudaFixture::~CudaFixture() = default;

const char* CudaFixture::region() const { return measured_region() == CudaRegion::device ? "device" : "end_to_end"; }

void CudaFixture::acquire() {
  const UnavailableReason reason = cuda_unavailable();
  if (!reason.code.empty()) throw Unavailable(reason.text, reason.code);
  device_bytes_ = 0;
  GBX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  std::size_t total = 0;
  const cudaError_t status = cudaMemGetInfo(&free_at_start_, &total);
  memory_unreadable_ = status == cudaSuccess ? "" : std::string("cudaMemGetInfo: ") + cudaGetErrorString(status);
  least_free_ = free_at_start_;
}

std::optional<std::array<unsigned char, 16>> CudaFixture::device_uuid() const {
  int device = 0;
  cudaDeviceProp properties{};
  if (cudaGetDevice(&device) != cudaSuccess || cudaGetDeviceProperties(&properties, device) != cudaSuccess) {
    return std::nullopt;
  }
  std::array<unsigned char, 16> bytes{};
  std::copy_n(reinterpret_cast<const unsigned char*>(properties.uuid.bytes), bytes.size(), bytes.begin());
  return bytes;
}

void CudaFixture::release() noexcept {
  if (stream_ != nullptr) {
    GBX_CUDA_CHECK_NOTHROW(cudaStreamSynchronize(stream_));
    GBX_CUDA_CHECK_NOTHROW(cudaStreamDestroy(stream_));
    stream_ = nullptr;
  }
  l2_.reset();
}

void CudaFixture::copy(void* to, const void* from, std::size_t bytes, std::size_t to_count, std::size_t from_count,
                       cudaMemcpyKind kind) {
  if (to_count != from_count) throw std::invalid_argument("copy between spans of different sizes");
  GBX_CUDA_CHECK(cudaMemcpyAsync(to, from, bytes, kind, stream_));
  GBX_CUDA_CHECK(cudaStreamSynchronize(stream_));
}

void CudaFixture::poison_device(Span<float> values) {
  GBX_CUDA_CHECK(cudaMemsetAsync(values.data, 0xff, values.bytes(), stream_));
}

void CudaFixture::synchronize() { GBX_CUDA_CHECK(cudaStreamSynchronize(stream_)); }

void CudaFixture::observe_memory() {
  if (!memory_unreadable_.empty()) return;
  std::size_t free = 0;
  std::size_t total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess) least_free_ = std::min(least_free_, free);
}

detail::MemoryUsage CudaFixture::memory_usage() const {
  detail::MemoryUsage usage = FixtureBase::memory_usage();
  usage.device_bytes = static_cast<std::int64_t>(device_bytes_);
  usage.device_bytes_unavailable.clear();
  if (memory_unreadable_.empty()) {
    // Other processes on the device move the free memory too: this is what the device lost while
    // the benchmark ran, an upper bound on what the benchmark itself took.
    usage.device_peak_bytes = static_cast<std::int64_t>(free_at_start_ - std::min(free_at_start_, least_free_));
    usage.device_peak_bytes_unavailable.clear();
  } else {
    usage.device_peak_bytes_unavailable = memory_unreadable_;
  }
  return usage;
}

std::unique_ptr<detail::Timer> CudaFixture::make_timer() {
  if (measured_region() == CudaRegion::end_to_end) return std::make_unique<HostWallTimer>();
  return std::make_unique<CudaEventTimer>(stream_);
}

void* CudaFixture::duplicate(const void* from, std::size_t bytes, bool on_device) {
  if (!on_device) return FixtureBase::duplicate(from, bytes, on_device);
  const Span<unsigned char> copy = device_array<unsigned char>(bytes);
  GBX_CUDA_CHECK(cudaMemcpyAsync(copy.data, from, bytes, cudaMemcpyDeviceToDevice, stream_));
  GBX_CUDA_CHECK(cudaStreamSynchronize(stream_));
  return copy.data;
}

void CudaFixture::copy_bytes(void* to, const void* from, std::size_t bytes, bool on_device) {
  if (!on_device) return FixtureBase::copy_bytes(to, from, bytes, on_device);
  copy(to, from, bytes, bytes, bytes, cudaMemcpyDeviceToDevice);
}

std::size_t CudaFixture::rotation_cache_bytes() const {
  int device = 0;
  int l2 = 0;
  GBX_CUDA_CHECK(cudaGetDevice(&device));
  GBX_CUDA_CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device));
  return static_cast<std::size_t>(l2);
}

void CudaFixture::flush_caches() {
  if (!l2_) l2_ = std::make_unique<L2FlushBuffer>();
  l2_->flush(stream_);
}

}  // namespace gbx
