// The bodies of the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp), shared with
// the regression test that replays every input they ever crashed on
// (tests/cpp/runtime/fuzz_regression_test.cpp). Each takes any bytes as a
// .pte file and must return normally: a crash, a sanitizer report or a hang
// is a finding.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::fuzz {

// What the harnesses hand a program, so a fuzzed file cannot exhaust the
// machine: the limits an application running untrusted programs would set.
constexpr size_t kMaxMemoryBytes = 64u << 20;
constexpr uint64_t kMaxInstructions = 20000;
// Inputs bigger than this are not made (the program's own arenas are bounded
// by kMaxMemoryBytes, inputs the caller supplies are not).
constexpr size_t kMaxInputBytes = 16u << 20;

// Registers the backends a real runtime links (CPU, test) and quiets logging;
// call once before the others.
void setup();

// (a) Load and verify the program, then read every method's metadata.
void load_program(const uint8_t* data, size_t size);
// (b) (a), then load every method with memory sized from its metadata.
void init_methods(const uint8_t* data, size_t size);
// (c) (b) through Module, then execute each method on inputs made from its
// input specs, with sizes and values derived from the bytes.
void execute_methods(const uint8_t* data, size_t size);

}  // namespace ember::fuzz
