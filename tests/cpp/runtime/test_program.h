// Builds small .pte programs in memory for runtime tests, with knobs to
// corrupt exactly one thing at a time.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "schema/program_generated.h"
#include "tests/backend/test_backend.h"

namespace ember::testing {

// A program computing out = in + 1 (shape [2, 3], float) with the test kernel
// "test::add_one.out", or through a delegate when `use_delegate` is set: by
// default the test backend (tests/backend) running `delegate_blob`, an ETB1
// blob for in + 1. Each field below changes or breaks the program in one way.
struct ProgramSpec {
  bool use_delegate = false;
  std::string backend_id = "EmberTestBackend";
  std::vector<uint8_t> delegate_blob = add_scalar_blob(6, 1.0f);
  std::vector<int32_t> sizes = {2, 3};
  int8_t input_dtype = 6;           // Float
  int32_t kernel_arg_index = 0;     // value index of the kernel's input
  uint32_t output_offset = 32;      // byte offset of the output in the arena
  int64_t arena_size = 64;
  std::string op_name = "test::add_one";
  // Union type set, value absent (the flatbuffer verifier accepts both).
  bool drop_instruction_args = false;
  bool drop_input_tensor = false;
};

inline std::vector<uint8_t> build_program(const ProgramSpec& spec) {
  namespace fb = ember::fb;
  flatbuffers::FlatBufferBuilder b;
  auto tensor = [&](int8_t dtype, uint32_t offset) {
    const std::vector<int32_t>& sizes = spec.sizes;
    std::vector<uint8_t> dim_order(sizes.size());
    for (size_t d = 0; d < sizes.size(); ++d) dim_order[d] = static_cast<uint8_t>(d);
    auto alloc = fb::CreateAllocationDetails(b, 1, offset, 0);
    return fb::CreateTensor(b, static_cast<fb::ScalarType>(dtype), 0, b.CreateVector(sizes),
                            b.CreateVector(dim_order), false, 0, alloc);
  };
  std::vector<flatbuffers::Offset<fb::EValue>> values = {
      fb::CreateEValue(b, fb::KernelTypes::Tensor,
                       spec.drop_input_tensor ? 0 : tensor(spec.input_dtype, 0).Union()),
      fb::CreateEValue(b, fb::KernelTypes::Tensor, tensor(6, spec.output_offset).Union()),
  };
  std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
  std::vector<flatbuffers::Offset<fb::Operator>> operators;
  std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
  std::vector<flatbuffers::Offset<fb::BackendDelegateInlineData>> inline_data;
  if (spec.use_delegate) {
    inline_data.push_back(fb::CreateBackendDelegateInlineData(b, b.CreateVector(spec.delegate_blob)));
    delegates.push_back(fb::CreateBackendDelegate(
        b, b.CreateString(spec.backend_id),
        fb::CreateBackendDelegateDataReference(b, fb::DataLocation::INLINE, 0)));
    std::vector<int32_t> args = {spec.kernel_arg_index, 1};
    instructions.push_back(fb::CreateInstruction(b, fb::InstructionArguments::DelegateCall,
                                                 fb::CreateDelegateCall(b, 0, b.CreateVector(args)).Union()));
  } else {
    const size_t dot = spec.op_name.find('.');
    operators.push_back(fb::CreateOperator(
        b, b.CreateString(spec.op_name.substr(0, dot)),
        b.CreateString(dot == std::string::npos ? "out" : spec.op_name.substr(dot + 1))));
    std::vector<int32_t> args = {spec.kernel_arg_index, 1, 1};
    auto call = fb::CreateKernelCall(b, 0, b.CreateVector(args)).Union();
    instructions.push_back(fb::CreateInstruction(b, fb::InstructionArguments::KernelCall,
                                                 spec.drop_instruction_args ? 0 : call));
  }
  std::vector<int32_t> inputs = {0};
  std::vector<int32_t> outputs = {1};
  auto chain = fb::CreateChain(b, b.CreateVector(inputs), b.CreateVector(outputs),
                               b.CreateVector(instructions));
  std::vector<flatbuffers::Offset<fb::Chain>> chains = {chain};
  std::vector<int64_t> buffer_sizes = {0, spec.arena_size};
  auto plan = fb::CreateExecutionPlan(b, b.CreateString("forward"), 0, b.CreateVector(values),
                                      b.CreateVector(inputs), b.CreateVector(outputs),
                                      b.CreateVector(chains), b.CreateVector(operators),
                                      b.CreateVector(delegates), b.CreateVector(buffer_sizes));
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans = {plan};
  auto program = fb::CreateProgram(b, 0, b.CreateVector(plans), 0, b.CreateVector(inline_data));
  b.Finish(program, "ET12");
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

}  // namespace ember::testing
