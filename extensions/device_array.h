#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <utility>
#include <vector>

#include "extensions/cuda_check.h"
#include "extensions/fixture.h"

namespace gbx {

// Device memory for count elements of T, freed on destruction. Move-only. A count whose bytes overflow
// (a negative one, converted) throws std::length_error; one the device cannot hold, GBX_CUDA_CHECK's error.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t count) : count_(count) {
    const std::size_t size = detail::array_bytes("device_array", count, sizeof(T));
    if (count_ > 0) GBX_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), size));
  }
  DeviceArray(DeviceArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  ~DeviceArray() { reset(); }

  T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  // On stream, then waits for it: with a non-blocking stream (as the fixtures use) a plain cudaMemcpy
  // on the legacy stream would not be ordered with the stream's kernels.
  void copy_from(const std::vector<T>& host, cudaStream_t stream) {
    GBX_CUDA_CHECK(
        cudaMemcpyAsync(data_, host.data(), std::min(host.size(), count_) * sizeof(T), cudaMemcpyHostToDevice, stream));
    GBX_CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  std::vector<T> to_host(cudaStream_t stream) const {
    std::vector<T> host(count_);
    GBX_CUDA_CHECK(cudaMemcpyAsync(host.data(), data_, bytes(), cudaMemcpyDeviceToHost, stream));
    GBX_CUDA_CHECK(cudaStreamSynchronize(stream));
    return host;
  }

 private:
  void reset() noexcept {
    if (data_ != nullptr) GBX_CUDA_CHECK_NOTHROW(cudaFree(data_));
    data_ = nullptr;
    count_ = 0;
  }

  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gbx
