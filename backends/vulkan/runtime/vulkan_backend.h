// Ember's Vulkan backend: runs the subgraphs python/ember/backends/vulkan
// claims on a GPU through Vulkan compute shaders. At init it plans and
// allocates all device memory, uploads (and packs) the weights once and
// records one command buffer; each execute copies the inputs in, replays
// that command buffer and copies the outputs out, allocating nothing.
//
// Its blobs are the CPU backend's format (backends/cpu/schema), restricted
// to the ops this backend runs, so the CPU backend can run any of them: an
// application that prefers a slower answer to none sets fall_back_to_cpu,
// and a delegate the GPU cannot take (no Vulkan loader, no device, a missing
// feature, not enough device memory) then loads on the CPU backend instead
// of failing with the reason.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/backend/backend.h"

namespace ember::vulkan {

struct VulkanOptions {
  // Run a delegate the GPU cannot take on the CPU backend (logged as a
  // warning) instead of failing the load. EMBER_VULKAN_FALLBACK=cpu (or =0)
  // in the environment overrides it.
  bool fall_back_to_cpu = false;
};

class VulkanBackend final : public BackendInterface {
 public:
  static constexpr const char* kName = "EmberVulkanBackend";

  // Always true: init says what is missing, or falls back.
  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override;
  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override;
  void destroy(DelegateHandle* handle) const override;
  size_t num_outputs(DelegateHandle* handle) const override;
  // Device memory (arena, weights, parameters, staging), or the CPU
  // backend's bytes for a delegate that fell back.
  size_t owned_bytes(DelegateHandle* handle) const override;

  void set_options(const VulkanOptions& options) { options_ = options; }
  const VulkanOptions& options() const { return options_; }

 private:
  VulkanOptions options_;
};

// Registers the Vulkan backend (once) and sets its options.
Error register_vulkan_backend(const VulkanOptions& options = VulkanOptions());

// Whether a delegate handle runs on the CPU backend (it fell back).
bool runs_on_cpu(DelegateHandle* handle);

// The device the backend would run on, or why there is none, for reports and
// tests (opens and closes the device when no delegate holds it).
struct VulkanDeviceReport {
  bool available = false;
  char device[256] = "";      // "llvmpipe (LLVM 15.0.6, 256 bits)"
  char type[16] = "";         // "discrete", "integrated", "virtual", "cpu", "other"
  uint32_t api_version = 0;
  uint64_t max_storage_buffer_range = 0;
  uint64_t device_local_bytes = 0;
  bool timestamps = false;
  char reason[512] = "";      // when not available
};
VulkanDeviceReport vulkan_device_report();

}  // namespace ember::vulkan
