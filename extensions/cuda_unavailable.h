#pragma once

#include <string>

namespace gbx {

// What the CUDA runtime and the machine said when asked for a device. Plain values, so that the
// reason can be worked out (and tested) without a CUDA build.
struct CudaProbe {
  std::string status_name;         // cudaGetDeviceCount's status, e.g. "cudaSuccess", "cudaErrorNoDevice"
  std::string status_description;  // the runtime's own description of it
  int device_count = 0;
  int driver_version = 0;          // cudaDriverGetVersion: 0 when no driver library is loaded
  int runtime_version = 0;         // cudaRuntimeGetVersion, e.g. 13000
  bool nvidia_pci_device = false;  // an NVIDIA display or 3D controller is on the PCI bus
};

// Why CUDA benchmarks cannot run here, as a user would put it, and a stable code for tools.
struct UnavailableReason {
  std::string code;  // no_cuda_device, cuda_driver_missing, cuda_driver_too_old, cuda_stub_library, ...
  std::string text;  // empty code and text: a device can be used
};

// The plain truth behind a probe. The runtime answers cudaErrorInsufficientDriver both when the
// driver is too old and when there is none at all, which on a machine without a GPU misleads; the
// driver version and the PCI bus tell those cases apart.
UnavailableReason classify_cuda_probe(const CudaProbe& probe);

// "13.0" from 13000.
std::string cuda_version_text(int version);

// Whether /sys/bus/pci/devices (or the given directory) lists an NVIDIA display or 3D controller.
bool nvidia_pci_device_present(const std::string& pci_devices = "/sys/bus/pci/devices");

}  // namespace gbx
