// The ember_run command: the runner with the backends this build links,
// registered explicitly, in this order.
#include "backends/cpu/runtime/cpu_backend.h"
#include "tools/ember_run.h"

int main(int argc, char** argv) {
  ember::cpu::register_cpu_backend();
  return ember::ember_run_main(argc, argv);
}
