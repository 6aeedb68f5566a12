// The process's Vulkan device, shared by every delegate: created by the first
// delegate that needs it, kept open for later ones until the process ends. It holds what all
// delegates use alike: the queue (submissions are serialised), the one
// descriptor-set and pipeline layout every shader is compiled against, the
// compute pipelines (made once per shader, on first use), and the device
// memory budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>

#include "backends/vulkan/runtime/vk_api.h"
#include "runtime/core/result.h"
#include "shader_ids.h"

namespace ember::vulkan {

// Every shader's bindings: 0 the op parameters (uint words), 1..kTensorBindings
// the tensors it reads and writes. The push constants give the parameters'
// first word and each tensor binding's first element (PushConstants).
constexpr uint32_t kTensorBindings = 5;
struct PushConstants {
  uint32_t params;
  uint32_t offsets[kTensorBindings];
};

// What a delegate learns of the device (for checks, reports and tests).
struct DeviceInfo {
  char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
  uint32_t api_version;
  uint32_t vendor_id;
  VkPhysicalDeviceType type;
  uint64_t max_storage_buffer_range;    // capped by EMBER_VULKAN_MAX_BUFFER_RANGE
  uint64_t min_storage_offset_alignment;
  uint32_t max_group_count[3];
  uint32_t max_shared_memory;
  double timestamp_period_ns;  // 0: no timestamps on the compute queue
  uint64_t device_local_bytes;  // the largest device-local heap
  bool unified_memory;          // a memory type both device-local and host-visible
};

// Tests only: called with true before and false after each call into the
// driver that execute makes, so that a test can tell the driver's heap use
// (lavapipe allocates inside vkQueueSubmit) from Ember's, which is none.
using DriverCallObserver = void (*)(bool entering);
void set_driver_call_observer(DriverCallObserver observer);
void notify_driver_call(bool entering);

class Context {
 public:
  // The shared device, made at the first call; an error, logged with what is
  // missing (no loader, no device, no compute queue, a missing feature), and
  // kept for unavailable_reason(). Each success is balanced by release().
  // A device that failed to open is tried again at the next call.
  static Result<Context*> acquire();
  static void release(Context* context);
  // Why acquire() last failed ("" when it did not).
  static const char* unavailable_reason();

  const VkApi& vk() const { return vk_; }
  VkDevice device() const { return device_; }
  const DeviceInfo& info() const { return info_; }
  VkPipelineLayout pipeline_layout() const { return pipeline_layout_; }
  VkDescriptorSetLayout set_layout() const { return set_layout_; }
  uint32_t queue_family() const { return queue_family_; }

  // The compute pipeline of `shader`, made on first use; null (logged) when
  // the driver refuses it.
  VkPipeline pipeline(Shader shader);

  // A memory type with all of `required` (and `preferred` too, where one
  // has both) among `type_bits`; -1 when none.
  int memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                  VkMemoryPropertyFlags preferred) const;
  bool memory_type_has(int type, VkMemoryPropertyFlags flags) const;

  // Device memory every delegate holds, against EMBER_VULKAN_MAX_MEMORY
  // (bytes; unset: no limit beyond the device's). reserve() fails, and
  // changes nothing, when `bytes` more would pass the limit (then *limit and
  // *in_use say why).
  bool reserve(uint64_t bytes, uint64_t* limit, uint64_t* in_use);
  void unreserve(uint64_t bytes);

  // Submits one recorded command buffer and waits for it (at most
  // `timeout_ns`); the queue is shared, so submissions take turns.
  Error submit_and_wait(VkCommandBuffer commands, VkFence fence, uint64_t timeout_ns);

 private:
  Context() = default;
  Error create();
  void destroy();

  VkApi vk_{};
  VkInstance instance_ = VK_NULL_HANDLE;
  VkPhysicalDevice physical_ = VK_NULL_HANDLE;
  VkDevice device_ = VK_NULL_HANDLE;
  VkQueue queue_ = VK_NULL_HANDLE;
  uint32_t queue_family_ = 0;
  VkPhysicalDeviceMemoryProperties memory_{};
  VkDescriptorSetLayout set_layout_ = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout_ = VK_NULL_HANDLE;
  VkPipeline pipelines_[static_cast<size_t>(Shader::kCount)] = {};
  DeviceInfo info_{};
  std::mutex queue_mutex_;
  std::mutex pipeline_mutex_;
  std::mutex memory_mutex_;
  uint64_t reserved_bytes_ = 0;
  size_t users_ = 0;
};

}  // namespace ember::vulkan
