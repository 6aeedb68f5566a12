// The smallest Cortex-M image: boots, prints through semihosting, and
// returns 3, which QEMU must pass on as its exit status (ctest checks both).
#include "targets/cortex-m/board.h"

int main() {
  ember::board::print("hello from " EMBER_CORTEX_M_CPU_NAME "\n");
  return 3;
}
