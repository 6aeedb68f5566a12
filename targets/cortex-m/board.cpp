#include "targets/cortex-m/board.h"

extern "C" {
#include <semihost.h>  // picolibc: no extern "C" of its own
}

extern "C" {
extern uint32_t __stack[];
extern uint32_t __stack_limit[];
}

namespace ember::board {
namespace {

// SysTick registers (ARMv7-M / ARMv8-M system control space).
volatile uint32_t& kSysTickCtrl = *reinterpret_cast<volatile uint32_t*>(0xE000E010);
volatile uint32_t& kSysTickLoad = *reinterpret_cast<volatile uint32_t*>(0xE000E014);
volatile uint32_t& kSysTickValue = *reinterpret_cast<volatile uint32_t*>(0xE000E018);
constexpr uint32_t kSysTickPeriod = 1u << 24;  // the counter is 24 bits wide
volatile uint64_t g_wraps = 0;

constexpr uint32_t kStackPattern = 0x5AFE57ACu;

}  // namespace

void print(const char* text, size_t length) {
  // SYS_WRITE0 takes a NUL-terminated string: send the text in chunks.
  char chunk[129];
  while (length > 0) {
    const size_t n = length < sizeof(chunk) - 1 ? length : sizeof(chunk) - 1;
    for (size_t i = 0; i < n; ++i) chunk[i] = text[i];
    chunk[n] = '\0';
    sys_semihost_write0(chunk);
    text += n;
    length -= n;
  }
}

void print(const char* text) { sys_semihost_write0(text); }

void print_uint(uint64_t value) {
  char digits[21];
  size_t at = sizeof(digits);
  do {
    digits[--at] = static_cast<char>('0' + value % 10);
    value /= 10;
  } while (value != 0);
  print(digits + at, sizeof(digits) - at);
}

void print_int(int64_t value) {
  if (value < 0) {
    print("-", 1);
    print_uint(0 - static_cast<uint64_t>(value));
  } else {
    print_uint(static_cast<uint64_t>(value));
  }
}

void print_hex32(uint32_t value) {
  static const char kDigits[] = "0123456789abcdef";
  char text[8];
  for (int i = 7; i >= 0; --i) {
    text[i] = kDigits[value & 0xF];
    value >>= 4;
  }
  print(text, sizeof(text));
}

void start_counter() {
  kSysTickCtrl = 0;
  kSysTickLoad = kSysTickPeriod - 1;
  kSysTickValue = 0;
  g_wraps = 0;
  kSysTickCtrl = 0x7;  // processor clock, interrupt on wrap, enabled
}

void counter_wrapped() { g_wraps = g_wraps + 1; }

uint64_t counter_ticks() {
  // The wrap count on both sides of the value, so that a wrap in between
  // does not give a count off by a whole period.
  uint64_t wraps;
  uint32_t value;
  do {
    wraps = g_wraps;
    value = kSysTickValue;
  } while (wraps != g_wraps);
  return wraps * kSysTickPeriod + (kSysTickPeriod - 1 - value);
}

uint64_t instructions(uint64_t ticks) {
  // ticks = instructions * 2^shift ns * f; in integers, rounded.
  constexpr uint64_t kPerSecond = 1000000000ull;
  const uint64_t scale = static_cast<uint64_t>(EMBER_BOARD_CPU_HZ) << EMBER_QEMU_ICOUNT_SHIFT;
  return (ticks * kPerSecond + scale / 2) / scale;
}

__attribute__((noinline)) void paint_stack() {
  uint32_t* here;
  __asm volatile("mov %0, sp" : "=r"(here));
  // Leave what this frame may still use alone.
  for (uint32_t* word = __stack_limit; word < here - 16; ++word) *word = kStackPattern;
}

size_t stack_used() {
  const uint32_t* word = __stack_limit;
  while (word < __stack && *word == kStackPattern) ++word;
  return static_cast<size_t>(reinterpret_cast<const char*>(__stack) -
                             reinterpret_cast<const char*>(word));
}

size_t stack_size() {
  return static_cast<size_t>(reinterpret_cast<const char*>(__stack) -
                             reinterpret_cast<const char*>(__stack_limit));
}

}  // namespace ember::board
