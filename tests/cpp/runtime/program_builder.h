// Builds small valid .pte programs in memory from kernel calls, for runtime
// tests that need a particular op sequence (test_program.h builds one fixed
// program to corrupt; this one builds any straight-line program).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "schema/program_generated.h"

namespace ember::testing {

class ProgramBuilder {
 public:
  // A tensor planned into arena `memory_id` (1 by default; 2 on is memory
  // Module shares between methods) with a static row-major shape; returns
  // its value index.
  int32_t tensor(fb::ScalarType dtype, std::vector<int32_t> sizes, uint32_t memory_id = 1) {
    size_t numel = 1;
    for (int32_t s : sizes) numel *= static_cast<size_t>(s);
    if (arena_sizes_.size() <= memory_id) arena_sizes_.resize(memory_id + 1, 0);
    const uint32_t offset = static_cast<uint32_t>(arena_sizes_[memory_id]);
    arena_sizes_[memory_id] += (numel * element_bytes(dtype) + 63) / 64 * 64;
    std::vector<uint8_t> dim_order;
    for (size_t d = 0; d < sizes.size(); ++d) dim_order.push_back(static_cast<uint8_t>(d));
    auto alloc = fb::CreateAllocationDetails(b_, memory_id, offset, 0);
    auto t = fb::CreateTensor(b_, dtype, 0, b_.CreateVector(sizes), b_.CreateVector(dim_order),
                              false, 0, alloc);
    return push(fb::KernelTypes::Tensor, t.Union());
  }
  int32_t integer(int64_t v) { return push(fb::KernelTypes::Int, fb::CreateInt(b_, v).Union()); }
  // An int list whose items are the given values (value indices of ints).
  int32_t int_list(const std::vector<int64_t>& items) {
    std::vector<int64_t> indices;
    for (int64_t v : items) indices.push_back(integer(v));
    return push(fb::KernelTypes::IntList, fb::CreateIntList(b_, b_.CreateVector(indices)).Union());
  }
  // Appends a kernel call of "name.overload" with the given value indices.
  void call(const std::string& name, const std::string& overload, std::vector<int32_t> args) {
    const std::string key = name + "." + overload;
    size_t op = 0;
    while (op < op_keys_.size() && op_keys_[op] != key) ++op;
    if (op == op_keys_.size()) {
      op_keys_.push_back(key);
      operators_.push_back(
          fb::CreateOperator(b_, b_.CreateString(name), b_.CreateString(overload)));
    }
    instructions_.push_back(fb::CreateInstruction(
        b_, fb::InstructionArguments::KernelCall,
        fb::CreateKernelCall(b_, static_cast<int32_t>(op), b_.CreateVector(args)).Union()));
  }

  // One method per name, each running the same instructions.
  std::vector<uint8_t> finish(const std::vector<int32_t>& inputs,
                              const std::vector<int32_t>& outputs,
                              const std::vector<std::string>& method_names = {"forward"}) {
    auto chain = fb::CreateChain(b_, b_.CreateVector(inputs), b_.CreateVector(outputs),
                                 b_.CreateVector(instructions_));
    std::vector<flatbuffers::Offset<fb::Chain>> chains = {chain};
    std::vector<int64_t> buffer_sizes(arena_sizes_.begin(), arena_sizes_.end());
    std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
    const auto values = b_.CreateVector(values_);
    const auto input_vector = b_.CreateVector(inputs);
    const auto output_vector = b_.CreateVector(outputs);
    const auto chain_vector = b_.CreateVector(chains);
    const auto operator_vector = b_.CreateVector(operators_);
    const auto delegate_vector = b_.CreateVector(delegates);
    const auto size_vector = b_.CreateVector(buffer_sizes);
    std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans;
    for (const std::string& name : method_names) {
      plans.push_back(fb::CreateExecutionPlan(b_, b_.CreateString(name), 0, values, input_vector,
                                              output_vector, chain_vector, operator_vector,
                                              delegate_vector, size_vector));
    }
    b_.Finish(fb::CreateProgram(b_, 0, b_.CreateVector(plans)), "ET12");
    return std::vector<uint8_t>(b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize());
  }

 private:
  static size_t element_bytes(fb::ScalarType dtype) {
    switch (dtype) {
      case fb::ScalarType::BYTE: case fb::ScalarType::CHAR: case fb::ScalarType::BOOL: return 1;
      case fb::ScalarType::SHORT: case fb::ScalarType::HALF: case fb::ScalarType::BFLOAT16: return 2;
      case fb::ScalarType::INT: case fb::ScalarType::FLOAT: return 4;
      default: return 8;
    }
  }
  int32_t push(fb::KernelTypes type, flatbuffers::Offset<void> value) {
    values_.push_back(fb::CreateEValue(b_, type, value));
    return static_cast<int32_t>(values_.size() - 1);
  }

  flatbuffers::FlatBufferBuilder b_;
  std::vector<flatbuffers::Offset<fb::EValue>> values_;
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions_;
  std::vector<flatbuffers::Offset<fb::Operator>> operators_;
  std::vector<std::string> op_keys_;
  std::vector<size_t> arena_sizes_ = {0, 0};  // by memory id (0: constants)
};

}  // namespace ember::testing
