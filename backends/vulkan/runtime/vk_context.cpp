#include "backends/vulkan/runtime/vk_context.h"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "runtime/core/log.h"

namespace ember::vulkan {
namespace {

constexpr const char* kName = "EmberVulkanBackend";

std::mutex g_mutex;  // guards g_context and g_reason
Context* g_context = nullptr;
char g_reason[512] = "";

// Records why the device is unavailable and logs it; returns `error`.
Error unavailable(Error error, const char* format, ...) __attribute__((format(printf, 2, 3)));
Error unavailable(Error error, const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(g_reason, sizeof(g_reason), format, args);
  va_end(args);
  EMBER_LOG(Error, "%s: %s", kName, g_reason);
  return error;
}

int device_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 4;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 3;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 1;
    default: return 0;
  }
}

uint64_t env_bytes(const char* name) {
  const char* text = std::getenv(name);
  if (text == nullptr || text[0] == '\0') return 0;
  return std::strtoull(text, nullptr, 10);
}

std::atomic<DriverCallObserver> g_driver_observer{nullptr};

}  // namespace

void set_driver_call_observer(DriverCallObserver observer) { g_driver_observer.store(observer); }

void notify_driver_call(bool entering) {
  const DriverCallObserver observer = g_driver_observer.load(std::memory_order_relaxed);
  if (observer != nullptr) observer(entering);
}

Result<Context*> Context::acquire() {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_context == nullptr) {
    Context* context = new (std::nothrow) Context();
    if (context == nullptr) return unavailable(Error::MemoryAllocationFailed, "no host memory");
    const Error err = context->create();
    if (err != Error::Ok) {
      context->destroy();
      delete context;
      return err;
    }
    g_context = context;
    g_reason[0] = '\0';
  }
  ++g_context->users_;
  return g_context;
}

void Context::release(Context* context) {
  std::lock_guard<std::mutex> lock(g_mutex);
  if (context == nullptr || context != g_context || context->users_ == 0) return;
  // The device stays open when its last delegate goes: opening one and
  // compiling its pipelines again costs more than the memory it keeps
  // (0.4 s on lavapipe). The process's exit closes it.
  --context->users_;
}

const char* Context::unavailable_reason() {
  std::lock_guard<std::mutex> lock(g_mutex);
  return g_reason;
}

Error Context::create() {
  char why[256];
  if (!load_loader(&vk_, why, sizeof(why))) {
    return unavailable(Error::NotSupported,
                       "%s (install a Vulkan driver, e.g. Debian's mesa-vulkan-drivers, or let "
                       "the application fall back to the CPU backend)",
                       why);
  }
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "ember";
  app.pEngineName = "ember";
  app.apiVersion = VK_API_VERSION_1_0;
  VkInstanceCreateInfo instance_info{};
  instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instance_info.pApplicationInfo = &app;
  VkResult result = vk_.vkCreateInstance(&instance_info, nullptr, &instance_);
  if (result != VK_SUCCESS) {
    instance_ = VK_NULL_HANDLE;
    return unavailable(Error::NotSupported,
                       "no Vulkan driver: vkCreateInstance failed (%s); install one (Debian: "
                       "mesa-vulkan-drivers) or fall back to the CPU backend",
                       vk_result_name(result));
  }
  if (!load_instance_functions(&vk_, instance_)) {
    return unavailable(Error::NotSupported, "the Vulkan loader lacks Vulkan 1.0 functions");
  }
  uint32_t count = 0;
  vk_.vkEnumeratePhysicalDevices(instance_, &count, nullptr);
  VkPhysicalDevice devices[16];
  if (count > 16) count = 16;
  if (count > 0) vk_.vkEnumeratePhysicalDevices(instance_, &count, devices);
  if (count == 0) {
    return unavailable(Error::NotSupported,
                       "no Vulkan device (the loader found no driver that offers one)");
  }
  // EMBER_VULKAN_DEVICE=<index> picks one; else the best kind: a discrete
  // GPU, then an integrated one, a virtual one, a CPU (lavapipe).
  const char* pick = std::getenv("EMBER_VULKAN_DEVICE");
  int chosen = -1;
  if (pick != nullptr && pick[0] != '\0') {
    chosen = std::atoi(pick);
    if (chosen < 0 || static_cast<uint32_t>(chosen) >= count) {
      return unavailable(Error::NotSupported, "EMBER_VULKAN_DEVICE=%s, but there are %u devices",
                         pick, count);
    }
  } else {
    int best_rank = -1;
    for (uint32_t i = 0; i < count; ++i) {
      VkPhysicalDeviceProperties p;
      vk_.vkGetPhysicalDeviceProperties(devices[i], &p);
      if (device_rank(p.deviceType) > best_rank) {
        best_rank = device_rank(p.deviceType);
        chosen = static_cast<int>(i);
      }
    }
  }
  physical_ = devices[chosen];
  VkPhysicalDeviceProperties props;
  vk_.vkGetPhysicalDeviceProperties(physical_, &props);
  std::snprintf(info_.name, sizeof(info_.name), "%s", props.deviceName);
  info_.api_version = props.apiVersion;
  info_.vendor_id = props.vendorID;
  info_.type = props.deviceType;
  info_.max_storage_buffer_range = props.limits.maxStorageBufferRange;
  const uint64_t range_cap = env_bytes("EMBER_VULKAN_MAX_BUFFER_RANGE");
  if (range_cap > 0 && range_cap < info_.max_storage_buffer_range) {
    info_.max_storage_buffer_range = range_cap;
  }
  info_.min_storage_offset_alignment = props.limits.minStorageBufferOffsetAlignment;
  for (int i = 0; i < 3; ++i) info_.max_group_count[i] = props.limits.maxComputeWorkGroupCount[i];
  info_.max_shared_memory = props.limits.maxComputeSharedMemorySize;
  // What every shader needs: its bindings, its push constants, its
  // workgroups (256 invocations, 16 KiB of shared memory at most).
  if (props.limits.maxPerStageDescriptorStorageBuffers < kTensorBindings + 1 ||
      props.limits.maxPushConstantsSize < sizeof(PushConstants) ||
      props.limits.maxComputeWorkGroupInvocations < 256 ||
      props.limits.maxComputeSharedMemorySize < 16384) {
    return unavailable(Error::NotSupported,
                       "device '%s' lacks what the shaders need: %u storage buffers per stage "
                       "(needs %u), %u bytes of push constants (needs %zu), %u invocations per "
                       "workgroup (needs 256), %u bytes of shared memory (needs 16384)",
                       info_.name, props.limits.maxPerStageDescriptorStorageBuffers,
                       kTensorBindings + 1, props.limits.maxPushConstantsSize,
                       sizeof(PushConstants), props.limits.maxComputeWorkGroupInvocations,
                       props.limits.maxComputeSharedMemorySize);
  }

  uint32_t families = 0;
  vk_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, nullptr);
  VkQueueFamilyProperties family_props[16];
  if (families > 16) families = 16;
  vk_.vkGetPhysicalDeviceQueueFamilyProperties(physical_, &families, family_props);
  int family = -1;
  for (uint32_t i = 0; i < families; ++i) {
    if ((family_props[i].queueFlags & VK_QUEUE_COMPUTE_BIT) != 0) {
      family = static_cast<int>(i);
      break;
    }
  }
  if (family < 0) {
    return unavailable(Error::NotSupported, "device '%s' has no compute queue", info_.name);
  }
  queue_family_ = static_cast<uint32_t>(family);
  info_.timestamp_period_ns =
      family_props[family].timestampValidBits > 0 ? props.limits.timestampPeriod : 0.0;

  vk_.vkGetPhysicalDeviceMemoryProperties(physical_, &memory_);
  for (uint32_t i = 0; i < memory_.memoryHeapCount; ++i) {
    if ((memory_.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT) != 0 &&
        memory_.memoryHeaps[i].size > info_.device_local_bytes) {
      info_.device_local_bytes = memory_.memoryHeaps[i].size;
    }
  }
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    const VkMemoryPropertyFlags unified =
        VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT | VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
        VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    if ((memory_.memoryTypes[i].propertyFlags & unified) == unified) info_.unified_memory = true;
  }

  // Out-of-range reads return zeros and writes are dropped where the device
  // can promise it: a last line of defence behind the init-time checks.
  VkPhysicalDeviceFeatures supported;
  vk_.vkGetPhysicalDeviceFeatures(physical_, &supported);
  VkPhysicalDeviceFeatures features{};
  features.robustBufferAccess = supported.robustBufferAccess;
  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = queue_family_;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.pEnabledFeatures = &features;
  result = vk_.vkCreateDevice(physical_, &device_info, nullptr, &device_);
  if (result != VK_SUCCESS) {
    device_ = VK_NULL_HANDLE;
    return unavailable(Error::NotSupported, "vkCreateDevice failed on '%s' (%s)", info_.name,
                       vk_result_name(result));
  }
  if (!load_device_functions(&vk_, device_)) {
    return unavailable(Error::NotSupported, "device '%s' lacks Vulkan 1.0 functions", info_.name);
  }
  vk_.vkGetDeviceQueue(device_, queue_family_, 0, &queue_);

  VkDescriptorSetLayoutBinding bindings[kTensorBindings + 1];
  for (uint32_t i = 0; i <= kTensorBindings; ++i) {
    bindings[i] = VkDescriptorSetLayoutBinding{};
    bindings[i].binding = i;
    bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[i].descriptorCount = 1;
    bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = kTensorBindings + 1;
  set_info.pBindings = bindings;
  result = vk_.vkCreateDescriptorSetLayout(device_, &set_info, nullptr, &set_layout_);
  if (result != VK_SUCCESS) {
    set_layout_ = VK_NULL_HANDLE;
    return unavailable(Error::NotSupported, "vkCreateDescriptorSetLayout failed (%s)",
                       vk_result_name(result));
  }
  VkPushConstantRange push{};
  push.stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  push.size = sizeof(PushConstants);
  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &set_layout_;
  layout_info.pushConstantRangeCount = 1;
  layout_info.pPushConstantRanges = &push;
  result = vk_.vkCreatePipelineLayout(device_, &layout_info, nullptr, &pipeline_layout_);
  if (result != VK_SUCCESS) {
    pipeline_layout_ = VK_NULL_HANDLE;
    return unavailable(Error::NotSupported, "vkCreatePipelineLayout failed (%s)",
                       vk_result_name(result));
  }
  return Error::Ok;
}

void Context::destroy() {
  if (device_ != VK_NULL_HANDLE) {
    vk_.vkDeviceWaitIdle(device_);
    for (VkPipeline& p : pipelines_) {
      if (p != VK_NULL_HANDLE) vk_.vkDestroyPipeline(device_, p, nullptr);
      p = VK_NULL_HANDLE;
    }
    if (pipeline_layout_ != VK_NULL_HANDLE) {
      vk_.vkDestroyPipelineLayout(device_, pipeline_layout_, nullptr);
    }
    if (set_layout_ != VK_NULL_HANDLE) {
      vk_.vkDestroyDescriptorSetLayout(device_, set_layout_, nullptr);
    }
    vk_.vkDestroyDevice(device_, nullptr);
    device_ = VK_NULL_HANDLE;
  }
  if (instance_ != VK_NULL_HANDLE && vk_.vkDestroyInstance != nullptr) {
    vk_.vkDestroyInstance(instance_, nullptr);
  }
  instance_ = VK_NULL_HANDLE;
  unload_loader(&vk_);
}

VkPipeline Context::pipeline(Shader shader) {
  std::lock_guard<std::mutex> lock(pipeline_mutex_);
  VkPipeline& slot = pipelines_[static_cast<size_t>(shader)];
  if (slot != VK_NULL_HANDLE) return slot;
  const ShaderCode& code = shader_code(shader);
  VkShaderModuleCreateInfo module_info{};
  module_info.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  module_info.codeSize = code.bytes;
  module_info.pCode = code.words;
  VkShaderModule module = VK_NULL_HANDLE;
  VkResult result = vk_.vkCreateShaderModule(device_, &module_info, nullptr, &module);
  if (result != VK_SUCCESS) {
    EMBER_LOG(Error, "%s: shader %s: vkCreateShaderModule failed (%s)", kName, code.name,
              vk_result_name(result));
    return VK_NULL_HANDLE;
  }
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.layout = pipeline_layout_;
  result = vk_.vkCreateComputePipelines(device_, VK_NULL_HANDLE, 1, &info, nullptr, &slot);
  vk_.vkDestroyShaderModule(device_, module, nullptr);
  if (result != VK_SUCCESS) {
    slot = VK_NULL_HANDLE;
    EMBER_LOG(Error, "%s: shader %s: vkCreateComputePipelines failed (%s)", kName, code.name,
              vk_result_name(result));
  }
  return slot;
}

int Context::memory_type(uint32_t type_bits, VkMemoryPropertyFlags required,
                         VkMemoryPropertyFlags preferred) const {
  int fallback = -1;
  for (uint32_t i = 0; i < memory_.memoryTypeCount; ++i) {
    if ((type_bits & (1u << i)) == 0) continue;
    const VkMemoryPropertyFlags flags = memory_.memoryTypes[i].propertyFlags;
    if ((flags & required) != required) continue;
    if ((flags & preferred) == preferred) return static_cast<int>(i);
    if (fallback < 0) fallback = static_cast<int>(i);
  }
  return fallback;
}

bool Context::memory_type_has(int type, VkMemoryPropertyFlags flags) const {
  return type >= 0 && static_cast<uint32_t>(type) < memory_.memoryTypeCount &&
         (memory_.memoryTypes[type].propertyFlags & flags) == flags;
}

bool Context::reserve(uint64_t bytes, uint64_t* limit, uint64_t* in_use) {
  std::lock_guard<std::mutex> lock(memory_mutex_);
  const uint64_t cap = env_bytes("EMBER_VULKAN_MAX_MEMORY");
  *limit = cap > 0 ? cap : UINT64_MAX;
  *in_use = reserved_bytes_;
  if (cap > 0 && (bytes > cap || reserved_bytes_ > cap - bytes)) return false;
  reserved_bytes_ += bytes;
  return true;
}

void Context::unreserve(uint64_t bytes) {
  std::lock_guard<std::mutex> lock(memory_mutex_);
  reserved_bytes_ = bytes <= reserved_bytes_ ? reserved_bytes_ - bytes : 0;
}

Error Context::submit_and_wait(VkCommandBuffer commands, VkFence fence, uint64_t timeout_ns) {
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  VkResult result;
  notify_driver_call(true);
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    result = vk_.vkQueueSubmit(queue_, 1, &submit, fence);
  }
  if (result == VK_SUCCESS) result = vk_.vkWaitForFences(device_, 1, &fence, VK_TRUE, timeout_ns);
  if (result == VK_SUCCESS) vk_.vkResetFences(device_, 1, &fence);
  notify_driver_call(false);
  if (result != VK_SUCCESS) {
    EMBER_LOG(Error, "%s: the GPU did not finish the delegate (%s)", kName,
              result == VK_TIMEOUT ? "timed out" : vk_result_name(result));
    return Error::Internal;
  }
  return Error::Ok;
}

}  // namespace ember::vulkan
