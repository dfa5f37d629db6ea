#include "extensions/cuda_unavailable.h"

#include <filesystem>
#include <fstream>

namespace gbx {

std::string cuda_version_text(int version) {
  return std::to_string(version / 1000) + "." + std::to_string((version % 1000) / 10);
}

UnavailableReason classify_cuda_probe(const CudaProbe& probe) {
  const std::string said = "the CUDA runtime said " + probe.status_name;
  if (probe.status_name == "cudaSuccess") {
    if (probe.device_count > 0) return {};
    return {"no_cuda_device", "no CUDA device (the CUDA runtime found none)"};
  }
  if (probe.status_name == "cudaErrorNoDevice") return {"no_cuda_device", "no CUDA device (" + said + ")"};
  if (probe.status_name == "cudaErrorInsufficientDriver") {
    if (probe.driver_version == 0 && !probe.nvidia_pci_device) {
      return {"no_cuda_device", "no CUDA device (no NVIDIA GPU on the PCI bus, no NVIDIA driver; " + said + ")"};
    }
    if (probe.driver_version == 0) {
      return {"cuda_driver_missing", "the NVIDIA driver is not installed (no libcuda.so.1; " + said + ")"};
    }
    return {"cuda_driver_too_old", "the NVIDIA driver supports CUDA " + cuda_version_text(probe.driver_version) +
                                       ", older than the CUDA runtime " + cuda_version_text(probe.runtime_version) +
                                       " gbx was built with (" + said + ")"};
  }
  if (probe.status_name == "cudaErrorStubLibrary") {
    return {"cuda_stub_library",
            "only the CUDA toolkit's stub libcuda.so was found, not the NVIDIA driver (" + said + ")"};
  }
  if (probe.status_name == "cudaErrorSystemDriverMismatch") {
    return {"cuda_driver_mismatch",
            "the NVIDIA kernel module and the driver library are different versions (" + said + ")"};
  }
  if (probe.status_name == "cudaErrorDevicesUnavailable") {
    return {"cuda_devices_busy", "every CUDA device is busy or set unavailable by its compute mode (" + said + ")"};
  }
  if (probe.status_name == "cudaErrorCompatNotSupportedOnDevice") {
    return {"cuda_driver_too_old", "the CUDA forward-compatibility driver does not support this GPU (" + said + ")"};
  }
  return {"cuda_error", "the CUDA runtime cannot use a device: " + probe.status_name + ": " + probe.status_description};
}

bool nvidia_pci_device_present(const std::string& pci_devices) {
  std::error_code error;
  for (std::filesystem::directory_iterator it(pci_devices, error), end; !error && it != end; it.increment(error)) {
    std::ifstream vendor(it->path() / "vendor");
    std::ifstream device_class(it->path() / "class");
    std::string vendor_id;
    std::string class_code;
    vendor >> vendor_id;
    device_class >> class_code;
    // PCI class 0x03: display controllers (VGA 0x0300, 3D 0x0302: the data-centre GPUs).
    if (vendor_id == "0x10de" && class_code.rfind("0x03", 0) == 0) return true;
  }
  return false;
}

}  // namespace gbx
