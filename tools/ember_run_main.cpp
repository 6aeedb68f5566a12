// The ember_run command: the runner with the backends this build links,
// registered explicitly, in this order.
#include "backends/cpu/runtime/cpu_backend.h"
#ifdef EMBER_HAVE_VULKAN
#include "backends/vulkan/runtime/vulkan_backend.h"
#endif
#include "tools/ember_run.h"

int main(int argc, char** argv) {
  ember::cpu::register_cpu_backend();
#ifdef EMBER_HAVE_VULKAN
  ember::vulkan::register_vulkan_backend();
#endif
  return ember::ember_run_main(argc, argv);
}
