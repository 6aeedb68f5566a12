// libFuzzer harness: load, init and execute on inputs derived from the bytes (tests/fuzz/fuzz_harness.h).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ember::fuzz::setup();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::execute_methods(data, size);
  return 0;
}
