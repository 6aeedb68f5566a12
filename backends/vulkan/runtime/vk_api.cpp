#include "backends/vulkan/runtime/vk_api.h"

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

namespace ember::vulkan {

bool load_loader(VkApi* api, char* why, size_t why_size) {
  *api = VkApi{};
  const char* name = std::getenv("EMBER_VULKAN_LOADER");
  if (name == nullptr || name[0] == '\0') name = "libvulkan.so.1";
  api->library = dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (api->library == nullptr) {
    const char* error = dlerror();
    std::snprintf(why, why_size, "no Vulkan loader: %s", error != nullptr ? error : name);
    return false;
  }
  api->vkGetInstanceProcAddr =
      reinterpret_cast<PFN_vkGetInstanceProcAddr>(dlsym(api->library, "vkGetInstanceProcAddr"));
  if (api->vkGetInstanceProcAddr == nullptr) {
    std::snprintf(why, why_size, "%s has no vkGetInstanceProcAddr", name);
    unload_loader(api);
    return false;
  }
#define EMBER_VK_LOAD(fn) \
  api->fn = reinterpret_cast<PFN_##fn>(api->vkGetInstanceProcAddr(nullptr, #fn));
  EMBER_VK_GLOBAL_FUNCTIONS(EMBER_VK_LOAD)
#undef EMBER_VK_LOAD
  if (api->vkCreateInstance == nullptr) {
    std::snprintf(why, why_size, "%s does not provide vkCreateInstance", name);
    unload_loader(api);
    return false;
  }
  return true;
}

bool load_instance_functions(VkApi* api, VkInstance instance) {
  bool ok = true;
#define EMBER_VK_LOAD(fn)                                                               \
  api->fn = reinterpret_cast<PFN_##fn>(api->vkGetInstanceProcAddr(instance, #fn)); \
  ok = ok && api->fn != nullptr;
  EMBER_VK_INSTANCE_FUNCTIONS(EMBER_VK_LOAD)
#undef EMBER_VK_LOAD
  return ok;
}

bool load_device_functions(VkApi* api, VkDevice device) {
  bool ok = true;
#define EMBER_VK_LOAD(fn)                                                          \
  api->fn = reinterpret_cast<PFN_##fn>(api->vkGetDeviceProcAddr(device, #fn)); \
  ok = ok && api->fn != nullptr;
  EMBER_VK_DEVICE_FUNCTIONS(EMBER_VK_LOAD)
#undef EMBER_VK_LOAD
  return ok;
}

void unload_loader(VkApi* api) {
  if (api->library != nullptr) dlclose(api->library);
  *api = VkApi{};
}

const char* vk_result_name(VkResult result) {
  switch (result) {
    case VK_SUCCESS: return "VK_SUCCESS";
    case VK_NOT_READY: return "VK_NOT_READY";
    case VK_TIMEOUT: return "VK_TIMEOUT";
    case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
    case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
    case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
    case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
    case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
    case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
    case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
    case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
    case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
    case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
    case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
    default: return "VkResult error";
  }
}

}  // namespace ember::vulkan
