// The Vulkan entry points the backend calls, loaded at run time from the
// system's loader (libvulkan.so.1) with dlopen, as volk does: nothing links
// Vulkan, so a build with this backend still runs where Vulkan is missing,
// and says so when a program asks for the GPU.
#pragma once

#include <cstddef>

#ifndef VK_NO_PROTOTYPES
#define VK_NO_PROTOTYPES
#endif
#include <vulkan/vulkan.h>

namespace ember::vulkan {

// Functions taken from vkGetInstanceProcAddr(nullptr, ...).
#define EMBER_VK_GLOBAL_FUNCTIONS(X) \
  X(vkCreateInstance)                \
  X(vkEnumerateInstanceVersion)

#define EMBER_VK_INSTANCE_FUNCTIONS(X)        \
  X(vkDestroyInstance)                        \
  X(vkEnumeratePhysicalDevices)               \
  X(vkGetPhysicalDeviceProperties)            \
  X(vkGetPhysicalDeviceFeatures)              \
  X(vkGetPhysicalDeviceQueueFamilyProperties) \
  X(vkGetPhysicalDeviceMemoryProperties)      \
  X(vkCreateDevice)                           \
  X(vkGetDeviceProcAddr)

#define EMBER_VK_DEVICE_FUNCTIONS(X)  \
  X(vkDestroyDevice)                  \
  X(vkGetDeviceQueue)                 \
  X(vkCreateBuffer)                   \
  X(vkDestroyBuffer)                  \
  X(vkGetBufferMemoryRequirements)    \
  X(vkAllocateMemory)                 \
  X(vkFreeMemory)                     \
  X(vkBindBufferMemory)               \
  X(vkMapMemory)                      \
  X(vkUnmapMemory)                    \
  X(vkCreateShaderModule)             \
  X(vkDestroyShaderModule)            \
  X(vkCreateDescriptorSetLayout)      \
  X(vkDestroyDescriptorSetLayout)     \
  X(vkCreatePipelineLayout)           \
  X(vkDestroyPipelineLayout)          \
  X(vkCreateComputePipelines)         \
  X(vkDestroyPipeline)                \
  X(vkCreateDescriptorPool)           \
  X(vkDestroyDescriptorPool)          \
  X(vkAllocateDescriptorSets)         \
  X(vkUpdateDescriptorSets)           \
  X(vkCreateCommandPool)              \
  X(vkDestroyCommandPool)             \
  X(vkAllocateCommandBuffers)         \
  X(vkBeginCommandBuffer)             \
  X(vkEndCommandBuffer)               \
  X(vkCmdBindPipeline)                \
  X(vkCmdBindDescriptorSets)          \
  X(vkCmdPushConstants)               \
  X(vkCmdDispatch)                    \
  X(vkCmdPipelineBarrier)             \
  X(vkCmdCopyBuffer)                  \
  X(vkCmdFillBuffer)                  \
  X(vkCmdWriteTimestamp)              \
  X(vkCmdResetQueryPool)              \
  X(vkCreateQueryPool)                \
  X(vkDestroyQueryPool)               \
  X(vkGetQueryPoolResults)            \
  X(vkCreateFence)                    \
  X(vkDestroyFence)                   \
  X(vkWaitForFences)                  \
  X(vkResetFences)                    \
  X(vkQueueSubmit)                    \
  X(vkDeviceWaitIdle)

#define EMBER_VK_DECLARE(name) PFN_##name name = nullptr;

struct VkApi {
  void* library = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
  EMBER_VK_GLOBAL_FUNCTIONS(EMBER_VK_DECLARE)
  EMBER_VK_INSTANCE_FUNCTIONS(EMBER_VK_DECLARE)
  EMBER_VK_DEVICE_FUNCTIONS(EMBER_VK_DECLARE)
};

#undef EMBER_VK_DECLARE

// Opens the loader (EMBER_VULKAN_LOADER names another library; tests point
// it at a missing file) and reads the global functions. False, with the
// reason in `why`, when there is no loader.
bool load_loader(VkApi* api, char* why, size_t why_size);
// Reads the instance-level and device-level functions; false when one is
// missing (a loader older than Vulkan 1.0's entry points).
bool load_instance_functions(VkApi* api, VkInstance instance);
bool load_device_functions(VkApi* api, VkDevice device);
// Closes the loader; every function pointer is cleared.
void unload_loader(VkApi* api);

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" and so on, for messages.
const char* vk_result_name(VkResult result);

}  // namespace ember::vulkan
