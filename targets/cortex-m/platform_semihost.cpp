// The platform layer on a Cortex-M board: time from the SysTick counter, log
// lines and aborts through semihosting. There is no heap: nothing in Ember
// allocates, and operator delete (which virtual destructors refer to) traps
// rather than pulling in the C library's allocator.
#include <cstdlib>

#include "runtime/core/platform.h"
#include "targets/cortex-m/board.h"

namespace ember {

uint64_t pal_time_ns() {
  // ns = ticks * 1e9 / f, without overflowing for a day's worth of ticks.
  const uint64_t ticks = board::counter_ticks();
  constexpr uint64_t kHz = EMBER_BOARD_CPU_HZ;
  return ticks / kHz * 1000000000ull + ticks % kHz * 1000000000ull / kHz;
}

void pal_emit_log(LogLevel level, const char* file, int line, const char* message) {
  static const char kLevel[] = {'D', 'I', 'E', 'F'};
  const char prefix[] = {kLevel[static_cast<int>(level)], ' ', '\0'};
  board::print(prefix);
  board::print("ember ");
  board::print(file);
  board::print(":");
  board::print_int(line);
  board::print("] ");
  board::print(message);
  board::print("\n");
}

void pal_abort(const char* why) {
  board::print("ember: fatal: ");
  board::print(why);
  board::print("\n");
  std::_Exit(board::kFaultExitCode);
}

}  // namespace ember

void operator delete(void*) noexcept { ember::pal_abort("operator delete without a heap"); }
void operator delete(void*, std::size_t) noexcept {
  ember::pal_abort("operator delete without a heap");
}
