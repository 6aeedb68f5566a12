// What a Cortex-M board gives Ember's runners and tests: text output and exit
// through semihosting, an instruction counter, and the stack's high-water
// mark. The runtime itself only sees the platform layer (platform_semihost.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::board {

// The exit status after a fault (no program returns it on its own).
constexpr int kFaultExitCode = 70;

// Writes text to the host's standard output (semihosting).
void print(const char* text);
void print(const char* text, size_t length);
void print_int(int64_t value);
void print_uint(uint64_t value);
// Eight hex digits, no prefix.
void print_hex32(uint32_t value);

// SysTick, clocked by the core and extended to 64 bits. Under QEMU with
// `-icount shift=N` it advances by exactly 2^N ns of the core's clock per
// instruction, so it counts instructions (instructions() converts).
void start_counter();
void counter_wrapped();  // the SysTick interrupt
uint64_t counter_ticks();
// Instructions in `ticks`, for a QEMU run with -icount shift=EMBER_QEMU_ICOUNT_SHIFT.
uint64_t instructions(uint64_t ticks);

// Fills the stack below the caller with a pattern at reset, so that
// stack_used() can tell how deep it has been since.
void paint_stack();
size_t stack_used();
size_t stack_size();

}  // namespace ember::board
