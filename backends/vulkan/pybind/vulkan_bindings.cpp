// ember._C's Vulkan functions (compiled into _C only when the backend is
// built): which device the backend would use, or why none, and the
// application's choice of falling back to the CPU backend.
#include <pybind11/pybind11.h>

#include "backends/vulkan/runtime/vulkan_backend.h"

namespace py = pybind11;

namespace ember {

void register_vulkan_bindings(py::module_& m) {
  m.def("vulkan_device", []() {
    const vulkan::VulkanDeviceReport r = vulkan::vulkan_device_report();
    py::dict out;
    out["available"] = r.available;
    out["device"] = std::string(r.device);
    out["type"] = std::string(r.type);
    out["api_version"] = r.api_version;
    out["max_storage_buffer_range"] = r.max_storage_buffer_range;
    out["device_local_bytes"] = r.device_local_bytes;
    out["timestamps"] = r.timestamps;
    out["reason"] = std::string(r.reason);
    return out;
  });
  m.def("vulkan_set_fallback", [](bool fall_back_to_cpu) {
    vulkan::VulkanOptions options;
    options.fall_back_to_cpu = fall_back_to_cpu;
    vulkan::register_vulkan_backend(options);
  });
}

}  // namespace ember
