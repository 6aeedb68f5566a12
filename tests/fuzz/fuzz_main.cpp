// The libFuzzer entry point of one harness (tests/fuzz/fuzz_harness.h), the
// function EMBER_FUZZ_HARNESS names: CMakeLists.txt builds one binary each.
#include <cstddef>
#include <cstdint>

#include "tests/fuzz/fuzz_harness.h"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  ember::fuzz::setup();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ember::fuzz::EMBER_FUZZ_HARNESS(data, size);
  return 0;
}
