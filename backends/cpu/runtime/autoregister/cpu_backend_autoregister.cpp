// Registers the CPU backend when the program starts, for applications built
// against the installed package (ember::cpu_backend links this object
// whole-archive): linking the backend is enough, as it is for the kernels.
// The tree's own tools and tests call register_cpu_backend() themselves;
// registering twice is harmless (the second call does nothing).
#include "backends/cpu/runtime/cpu_backend.h"

namespace {
const ember::Error g_registered = ember::cpu::register_cpu_backend();
}  // namespace
