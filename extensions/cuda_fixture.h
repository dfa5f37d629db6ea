#pragma once

#include <cuda_runtime_api.h>

#include <memory>

#include "extensions/device_array.h"
#include "extensions/fixture.h"

namespace gbx {

class L2FlushBuffer;

// What a CUDA benchmark's samples bracket.
enum class CudaRegion {
  device,      // CUDA events on the benchmark's stream: the kernels alone
  end_to_end,  // the synchronised host clock: launch overhead and synchronisation included
};

// Kernels launched on a stream the base owns: run() enqueues one run of the kernel on stream() and
// does not synchronise. On a machine without a usable device, every benchmark is skipped with the
// runtime's reason; CUDA errors fail only the benchmark they hit.
class CudaFixture : public FixtureBase {
 public:
  CudaFixture();
  ~CudaFixture() override;

 protected:
  virtual CudaRegion measured_region() const { return CudaRegion::device; }

  // The stream run() enqueues on.
  cudaStream_t stream() const { return stream_; }
  // Device memory counted in the record and freed after the benchmark. A negative count (converted),
  // one past the address space, or more than the device holds fails the benchmark with a message.
  template <class T>
  Span<T> device_array(std::size_t count) {
    auto storage = std::make_shared<DeviceArray<T>>(count);
    device_bytes_ += storage->bytes();
    keep(storage);
    return Span<T>{storage->data(), count};
  }
  // Library workspaces (cuBLAS, CUB temporary storage) that were not allocated through device_array().
  void declare_workspace_bytes(std::size_t bytes) { device_bytes_ += bytes; }
  // An in-place output in device memory (FixtureBase::declare_inout): saved on the device before the
  // first run, copied back before the checked run instead of being poisoned.
  template <class T>
  void declare_device_inout(Span<T> values) {
    declare_inout_bytes(values.data, values.bytes(), true);
  }
  // Fills device floats with NaN (all bits set), enqueued on the benchmark's stream.
  void poison_device(Span<float> values);
  // Copies between host and device spans of equal size on the benchmark's stream, then waits for
  // it. The stream is non-blocking, so a plain cudaMemcpy (on the legacy stream) would not be
  // ordered with its kernels, and from pageable memory it may return before the data has reached
  // the device: a kernel (the fp16 and bf16 conversions) could then read the data half-copied.
  template <class T>
  void upload(Span<T> host, Span<T> device) {
    copy(device.data, host.data, host.bytes(), device.size, host.size, cudaMemcpyHostToDevice);
  }
  template <class T>
  void download(Span<T> device, Span<T> host) {
    copy(host.data, device.data, device.bytes(), host.size, device.size, cudaMemcpyDeviceToHost);
  }
  std::size_t device_bytes() const { return device_bytes_; }

  void copy(void* to, const void* from, std::size_t bytes, std::size_t to_count, std::size_t from_count,
            cudaMemcpyKind kind);

  const char* region() const override;
  void acquire() override;
  void release() noexcept override;
  std::unique_ptr<detail::Timer> make_timer() override;
  void flush_caches() override;
  void synchronize() override;
  void observe_memory() override;
  detail::MemoryUsage memory_usage() const override;
  std::optional<std::array<unsigned char, 16>> device_uuid() const override;
  void* duplicate(const void* from, std::size_t bytes, bool on_device) override;
  void copy_bytes(void* to, const void* from, std::size_t bytes, bool on_device) override;
  std::size_t rotation_cache_bytes() const override;

 private:
  friend class CudaState;
  cudaStream_t stream_ = nullptr;
  std::unique_ptr<L2FlushBuffer> l2_;
  std::size_t device_bytes_ = 0;
  std::size_t free_at_start_ = 0;  // device memory free before setup()
  std::size_t least_free_ = 0;     // the lowest reading since
  std::string memory_unreadable_;
};

}  // namespace gbx
