#include "extensions/cuda_fixture.h"

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
  const std::string reason = cuda_unavailable_reason();
  if (!reason.empty()) throw Unavailable(reason);
  device_bytes_ = 0;
  GBX_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
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
  GBX_CUDA_CHECK(cudaMemcpy(to, from, bytes, kind));
}

std::unique_ptr<Timer> CudaFixture::make_timer() {
  if (measured_region() == CudaRegion::end_to_end) return std::make_unique<HostWallTimer>();
  return std::make_unique<CudaEventTimer>(stream_);
}

void CudaFixture::flush_caches() {
  if (!l2_) l2_ = std::make_unique<L2FlushBuffer>();
  l2_->flush(stream_);
}

}  // namespace gbx
