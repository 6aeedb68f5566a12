// What the program and method handles of the C ABI hold: a Module, the
// methods loaded from it, and per method the inputs bound so far and the
// tensor handles it hands out (metadata and output views).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "extension/c_api/tensor.h"
#include "extension/module/module.h"

struct ember_method {
  ember_program* program = nullptr;
  std::string name;
  ember::Method* method = nullptr;  // owned by the Module
  ember::MethodMeta meta;
  size_t num_inputs = 0;
  size_t num_outputs = 0;
  // Input i is bound when inputs[i] is a tensor: a copy of the caller's
  // dtype and shape (bound_tensors[i]) over the caller's memory.
  std::unique_ptr<ember_tensor[]> bound_tensors;
  std::vector<ember::EValue> inputs;
  std::unique_ptr<ember_tensor[]> input_meta;   // Meta, or null data and rank 0 for
  std::unique_ptr<ember_tensor[]> output_meta;  // a value that is not a tensor
  std::unique_ptr<bool[]> input_is_tensor;
  std::unique_ptr<bool[]> output_is_tensor;
  std::unique_ptr<ember_tensor[]> outputs;      // Output views, once executed
  bool executed = false;

  explicit ember_method(ember::MethodMeta m) : meta(m) {}
};

struct ember_program {
  std::unique_ptr<uint8_t[]> bytes;  // ember_program_load_buffer's copy
  std::unique_ptr<ember::Module> module;
  std::mutex mutex;  // guards methods: threads may load different methods at once
  std::vector<std::unique_ptr<ember_method>> methods;
};

namespace ember::c_api {
// What every load does first: `given` (checked) as ModuleOptions and flags,
// the CPU backend registered, the thread's runtime message cleared.
ember_status begin_load(const ember_load_options* given, const char* function,
                        ModuleOptions* options, uint32_t* flags);
}  // namespace ember::c_api
