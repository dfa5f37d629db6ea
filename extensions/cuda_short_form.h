#pragma once

// The short form on a CUDA device: a function of gbx::CudaState&, whose exec() run enqueues the
// kernel on state.stream() and does not synchronise; CUDA events time it.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "extensions/cuda_fixture.h"
#include "extensions/short_form.h"

namespace gbx {

class CudaState : public State {
 public:
  CudaState(CudaFixture& fixture, const AxisValues& axes, const benchmark::State& google_benchmark)
      : State(fixture, axes, google_benchmark), cuda_(fixture) {}

  cudaStream_t stream() const { return cuda_.stream(); }
  // Device memory, counted in the record and freed after the benchmark; rotated like host arrays.
  template <class T>
  Array<T>& device_array(std::int64_t count) {
    detail::array_bytes("device_array", count, sizeof(T));
    const Span<T> span = cuda_.device_array<T>(static_cast<std::size_t>(count));
    return adopt(std::make_unique<Array<T>>(span.data, span.size, true));
  }
  // A device array holding a copy of host, which stays the reference's input.
  template <class T>
  Array<T>& device_copy(Span<T> host) {
    Array<T>& device = device_array<T>(static_cast<std::int64_t>(host.size));
    cuda_.upload(host, device.span());
    return device;
  }
  template <class T>
  Array<T>& device_copy(const Array<T>& host) {
    return device_copy(host.span());
  }
  template <class T>
  void upload(Span<T> host, Span<T> device) {
    cuda_.upload(host, device);
  }
  template <class T>
  void download(Span<T> device, Span<T> host) {
    cuda_.download(device, host);
  }
  void declare_workspace_bytes(std::size_t bytes) { cuda_.declare_workspace_bytes(bytes); }

  // As State::check, for an output in device memory: poisoned on the device (restored instead when
  // declared with inout()), downloaded to compare.
  void check_device(Span<float> output, const std::function<std::vector<double>()>& compute, double tolerance = -1.0,
                    std::size_t accumulated_terms = 1) {
    const Span<float> result = host_buffer<float>(output.size);
    declare_check(
        [this, output, compute] {
          if (!checks_inout(output.data)) cuda_.poison_device(output);
          reference(compute);  // after the in-place outputs are restored, as State::check does
        },
        [this, output, result, compute] {
          cuda_.download(output, result);
          return compare_to_reference(result.data, reference(compute).data(), result.size);
        },
        tolerance, accumulated_terms);
  }

 private:
  CudaFixture& cuda_;
};

namespace detail {
template <>
struct BackendOf<CudaState> {
  using type = CudaFixture;
};

inline ShortBenchmark* short_bench(void (*function)(CudaState&), const std::string& name) {
  return add_short_benchmark(std::make_unique<ShortBenchmark>(
      name, "", std::vector<std::pair<std::string, MakeFixture>>{{"", make_for(function)}}));
}
}  // namespace detail

template <>
struct TypeName<__half> {
  static const char* get() { return "half"; }
};
template <>
struct TypeName<__nv_bfloat16> {
  static const char* get() { return "bf16"; }
};

}  // namespace gbx
