// libFuzzer harness: program load and verification (tests/fuzz/fuzz_harness.h).
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ember::fuzz::setup();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::load_program(data, size);
  return 0;
}
