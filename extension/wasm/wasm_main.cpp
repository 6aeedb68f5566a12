// The WebAssembly module's own translation unit: the C ABI (extension/c_api)
// is linked whole and everything else comes from the libraries; the module
// has no main (INVOKE_RUN=0). It adds two functions for the JavaScript side.
#include <malloc.h>

#include <cstdint>

#include "ember/ember.h"

static_assert(EMBER_ABI_VERSION_MAJOR == 1, "extension/wasm/js/ember.mjs speaks ABI 1");

#ifndef EMBER_WASM_POOL_SIZE
#define EMBER_WASM_POOL_SIZE 1
#endif

// The most threads a program may ask for: the Web Workers this build starts
// with it (PTHREAD_POOL_SIZE), 1 without threads. More would have to start
// while the page's thread waits for them, which a browser never lets happen.
extern "C" __attribute__((used, visibility("default"))) int32_t ember_wasm_max_threads(void) {
  return EMBER_WASM_POOL_SIZE;
}

// Bytes malloc has handed out and not had back: what the JavaScript tests
// watch over many calls (a leak shows here long before the memory grows).
extern "C" __attribute__((used, visibility("default"))) uint32_t ember_wasm_heap_in_use(void) {
  return static_cast<uint32_t>(mallinfo().uordblks);
}
