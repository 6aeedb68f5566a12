// Reset and the vector table for the Cortex-M boards (mps2-an386, mps3-an547):
// turns the FPU (and Helium, which shares its enable bits) on, copies .data,
// clears .bss, sets up thread-local storage (picolibc keeps errno there), runs
// the static initializers (kernel registration) and main, then exits through
// semihosting with main's status, which QEMU returns as its exit code.
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "targets/cortex-m/board.h"

extern "C" {
// From the board's linker script (boards/*.ld, sections.ld).
extern uint32_t __stack[];
extern char __data_start[], __data_source[], __data_size[];
extern char __bss_start[], __bss_size[], __tls_base[];
// picolibc
void _set_tls(void* tls);
void __libc_init_array(void);
int main(void);

[[noreturn]] void Reset_Handler(void) {
  // CPACR: full access to CP10 and CP11 (the FPU and MVE).
  *reinterpret_cast<volatile uint32_t*>(0xE000ED88) |= 0xFu << 20;
  __asm volatile("dsb\n\tisb" ::: "memory");
  ember::board::paint_stack();
  std::memcpy(__data_start, __data_source, reinterpret_cast<uintptr_t>(__data_size));
  std::memset(__bss_start, 0, reinterpret_cast<uintptr_t>(__bss_size));
  _set_tls(__tls_base);
  ember::board::start_counter();
  __libc_init_array();
  std::exit(main());
}

// A fault or an unexpected interrupt: say which and stop with a status no
// program returns on its own.
[[noreturn]] static void fault(const char* what) {
  ember::board::print("ember: fatal: ");
  ember::board::print(what);
  ember::board::print("\n");
  std::_Exit(ember::board::kFaultExitCode);
}
[[noreturn]] void NMI_Handler(void) { fault("NMI"); }
[[noreturn]] void HardFault_Handler(void) { fault("hard fault"); }
[[noreturn]] void MemManage_Handler(void) { fault("memory management fault"); }
[[noreturn]] void BusFault_Handler(void) { fault("bus fault"); }
[[noreturn]] void UsageFault_Handler(void) { fault("usage fault"); }
[[noreturn]] void Default_Handler(void) { fault("unexpected interrupt"); }
void SysTick_Handler(void) { ember::board::counter_wrapped(); }
}

namespace {
using Handler = void (*)(void);
// The 16 system entries (the boards' peripheral interrupts stay off).
struct VectorTable {
  void* stack;
  Handler handlers[15];
};
}  // namespace

__attribute__((section(".vectors"), used)) const VectorTable ember_vector_table = {
    __stack,
    {Reset_Handler, NMI_Handler, HardFault_Handler, MemManage_Handler, BusFault_Handler,
     UsageFault_Handler, nullptr, nullptr, nullptr, nullptr, Default_Handler, Default_Handler,
     nullptr, Default_Handler, SysTick_Handler}};
