// SGEMM 4096^3: the register-blocked kernel against cuBLAS, and cuBLAS against the fp32 peak.
#include <cstddef>
#include <string>

#include "bench/device_probe.h"
#include "bench/device_probe_timing.h"
#include "environment/peaks.h"
#include "extensions/device_array.h"
#include "kernels/gemm_cublas.h"
#include "kernels/gemm_cuda.h"

namespace gbx_probe {

void probe_gemm(ProbeResult& result) {
  ProbeStream stream;
  const cudaStream_t s = stream.get();
  constexpr int kN = 4096;
  const auto count = static_cast<std::size_t>(kN) * kN;
  gbx::DeviceArray<float> a(count);
  gbx::DeviceArray<float> b(count);
  gbx::DeviceArray<float> c(count);
  GBX_CUDA_CHECK(cudaMemsetAsync(a.data(), 0, a.bytes(), s));
  GBX_CUDA_CHECK(cudaMemsetAsync(b.data(), 0, b.bytes(), s));
  gbx::DeviceArray<unsigned char> workspace(gbx::kernels::CublasHandle::kRecommendedWorkspaceBytes);
  const gbx::kernels::CublasHandle handle(s, workspace.data(), workspace.bytes());
  const auto ours = [&] { gbx::kernels::launch_gemm_register_blocked(a.data(), b.data(), c.data(), kN, kN, kN, s); };
  const auto cublas = [&] { gbx::kernels::launch_cublas_sgemm(handle, a.data(), b.data(), c.data(), kN, kN, kN); };
  ours();
  cublas();
  const double flop = 2.0 * kN * kN * static_cast<double>(kN);
  const double ours_rate = flop / median_event_seconds(s, ours, 7, true);
  const double cublas_rate = flop / median_event_seconds(s, cublas, 7, true);
  result.figures.push_back(
      checked("SGEMM 4096^3: register-blocked / cuBLAS", ours_rate / cublas_rate, "x",
              "<= 1.1 (ours beating cuBLAS by more would mean a timing error)", ours_rate / cublas_rate <= 1.1,
              std::to_string(ours_rate / 1e12) + " against " + std::to_string(cublas_rate / 1e12) + " TFLOP/s"));
  const gbx::Peak peak = gbx::gpu_peak();
  const auto fp32 = peak.flops_per_second.find("fp32");
  if (fp32 != peak.flops_per_second.end()) {
    result.figures.push_back(checked("SGEMM 4096^3: cuBLAS, fraction of the fp32 peak", cublas_rate / fp32->second, "x",
                                     "<= 1", cublas_rate / fp32->second <= 1.0));
  }
}

}  // namespace gbx_probe
