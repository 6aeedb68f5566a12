// The programs runtime_tests.cpp runs on the board (gen_runtime_cases.py
// writes their tables): golden programs with inputs and expected outputs,
// and malformed programs with the error each must give.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::cortex_m::testing {

struct GoldenInput {
  int dtype;  // a ScalarType code
  int dim;
  int32_t sizes[4];
  const uint8_t* data;
};

struct GoldenCase {
  const char* name;
  const uint8_t* pte;
  const uint8_t* pte_end;
  int num_inputs;
  GoldenInput inputs[2];
  const uint8_t* expected;  // float32, output 0
  size_t expected_count;
};

struct MalformedCase {
  const char* file;
  const uint8_t* pte;
  const uint8_t* pte_end;
  const char* stage;    // load, init or execute
  const char* error;    // error_name()
  const char* message;  // a part of the message
};

extern const GoldenCase kGoldens[];
extern const size_t kNumGoldens;
extern const MalformedCase kMalformed[];
extern const size_t kNumMalformed;

}  // namespace ember::cortex_m::testing
