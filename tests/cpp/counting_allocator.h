// Replaces malloc and operator new with versions that count calls, so that a
// test can prove "no heap allocation while executing". Include it in exactly
// one source file of a test binary: it defines the process's allocator.
//
// AddressSanitizer and ThreadSanitizer own malloc themselves, so the counting
// allocator exists only in ordinary builds, and EMBER_COUNT_ALLOCATIONS says
// whether it does (tests skip themselves when it does not). GCC names the
// sanitizers with macros, Clang with __has_feature.
#pragma once

#include <atomic>
#include <cstdlib>
#include <new>

namespace ember::testing {
// Heap allocations made by this process so far.
inline std::atomic<long> g_allocations{0};
// This thread's, and whether they count now: a test sets t_uncounted around
// calls into a library that allocates on its own (a Vulkan driver's submit).
inline thread_local long t_allocations = 0;
inline thread_local bool t_uncounted = false;
inline void count_allocation() {
  if (t_uncounted) return;
  g_allocations.fetch_add(1, std::memory_order_relaxed);
  ++t_allocations;
}
}  // namespace ember::testing

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define EMBER_SANITIZER_OWNS_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define EMBER_SANITIZER_OWNS_MALLOC 1
#endif
#endif

#if !defined(EMBER_SANITIZER_OWNS_MALLOC)
#define EMBER_COUNT_ALLOCATIONS 1
extern "C" void* __libc_malloc(size_t size);
extern "C" void* malloc(size_t size) {
  ember::testing::count_allocation();
  return __libc_malloc(size);
}
void* operator new(size_t size) {
  ember::testing::count_allocation();
  void* p = __libc_malloc(size ? size : 1);
  if (p == nullptr) std::abort();
  return p;
}
void* operator new[](size_t size) { return operator new(size); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
#endif
