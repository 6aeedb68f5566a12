#include "runtime/executor/program.h"

#include <cstring>

#include "runtime/core/log.h"
#include "runtime/executor/extended_header.h"
#include "runtime/executor/method.h"
#include "schema/program_generated.h"

namespace ember {
namespace {

constexpr char kIdentifier[] = "ET12";

bool fits(uint64_t offset, uint64_t size, uint64_t total) {
  return offset <= total && size <= total - offset;
}

// Every method has a name, and no two the same: a method is found by name,
// and an application must not run a different one than it asked for.
Error validate_method_names(const fb::Program* program) {
  const auto* plans = program->execution_plan();
  const size_t n = plans ? plans->size() : 0;
  for (size_t i = 0; i < n; ++i) {
    const auto* plan = plans->Get(static_cast<flatbuffers::uoffset_t>(i));
    EMBER_CHECK_OR_RETURN(plan != nullptr && plan->name() != nullptr && plan->name()->size() > 0,
                          Error::InvalidProgram, "method %zu has no name", i);
    for (size_t j = 0; j < i; ++j) {
      const auto* other = plans->Get(static_cast<flatbuffers::uoffset_t>(j))->name();
      EMBER_CHECK_OR_RETURN(std::strcmp(other->c_str(), plan->name()->c_str()) != 0,
                            Error::InvalidProgram, "methods %zu and %zu are both named '%s'", j,
                            i, plan->name()->c_str());
    }
  }
  return Error::Ok;
}

// Checks what the flatbuffer verifier cannot: that segment ranges lie inside
// the file and that the constant segment's offsets lie inside its segment.
Error validate_segments(const fb::Program* program, uint64_t segment_base,
                        uint64_t segment_data_size, size_t file_size) {
  const auto* segments = program->segments();
  const size_t n = segments ? segments->size() : 0;
  for (size_t i = 0; i < n; ++i) {
    const auto* s = segments->Get(i);
    EMBER_CHECK_OR_RETURN(s != nullptr, Error::InvalidProgram, "segment %zu is null", i);
    EMBER_CHECK_OR_RETURN(
        fits(segment_base, s->offset(), file_size) &&
            fits(segment_base + s->offset(), s->size(), file_size),
        Error::InvalidProgram,
        "segment %zu [%llu, +%llu) lies outside the file (%zu bytes)", i,
        static_cast<unsigned long long>(s->offset()), static_cast<unsigned long long>(s->size()),
        file_size);
    if (segment_data_size != 0) {
      EMBER_CHECK_OR_RETURN(fits(s->offset(), s->size(), segment_data_size),
                            Error::InvalidProgram,
                            "segment %zu extends past the segment data size", i);
    }
  }
  // The constant segment, and the initial data of mutable buffers (only
  // the first entry of mutable_data_segments is read, as in ExecuTorch).
  const fb::SubsegmentOffsets* subsegments[2] = {
      program->constant_segment(),
      program->mutable_data_segments() != nullptr && program->mutable_data_segments()->size() > 0
          ? program->mutable_data_segments()->Get(0)
          : nullptr};
  [[maybe_unused]] const char* what[2] = {"constant", "mutable data"};
  for (int k = 0; k < 2; ++k) {
    const auto* cs = subsegments[k];
    if (cs == nullptr || cs->offsets() == nullptr || cs->offsets()->size() <= 1) continue;
    EMBER_CHECK_OR_RETURN(cs->segment_index() < n, Error::InvalidProgram,
                          "%s segment index %u out of range (%zu segments)", what[k],
                          cs->segment_index(), n);
    const uint64_t seg_size = segments->Get(cs->segment_index())->size();
    for (size_t i = 0; i < cs->offsets()->size(); ++i) {
      EMBER_CHECK_OR_RETURN(cs->offsets()->Get(i) <= seg_size, Error::InvalidProgram,
                            "%s %zu offset %llu is past its segment (%llu bytes)", what[k], i,
                            static_cast<unsigned long long>(cs->offsets()->Get(i)),
                            static_cast<unsigned long long>(seg_size));
    }
  }
  return Error::Ok;
}

const fb::SubsegmentOffsets* mutable_subsegment(const fb::Program* program) {
  const auto* list = program->mutable_data_segments();
  if (list == nullptr || list->size() == 0) return nullptr;
  const auto* ms = list->Get(0);
  return ms != nullptr && ms->offsets() != nullptr && ms->offsets()->size() > 1 ? ms : nullptr;
}

// The flatbuffer verifier accepts a union whose type is set but whose value
// is absent (it verifies a null table as valid), and every reader of values
// and instructions dereferences the value by its type. Such a file is
// rejected here, once, rather than checked at each use.
Error validate_unions(const fb::Program* program) {
  const auto* plans = program->execution_plan();
  for (size_t p = 0; plans != nullptr && p < plans->size(); ++p) {
    const auto* plan = plans->Get(p);
    const auto* values = plan->values();
    for (size_t i = 0; values != nullptr && i < values->size(); ++i) {
      const fb::KernelTypes type = values->Get(i)->val_type();
      // None and Null carry nothing, so an absent table is fine for them.
      EMBER_CHECK_OR_RETURN(type == fb::KernelTypes::NONE || type == fb::KernelTypes::Null ||
                                values->Get(i)->val() != nullptr,
                            Error::InvalidProgram, "method %zu value %zu is a %s without data", p,
                            i, fb::EnumNameKernelTypes(type));
    }
    const auto* chains = plan->chains();
    for (size_t c = 0; chains != nullptr && c < chains->size(); ++c) {
      const auto* instructions = chains->Get(c)->instructions();
      for (size_t k = 0; instructions != nullptr && k < instructions->size(); ++k) {
        const auto* instruction = instructions->Get(k);
        EMBER_CHECK_OR_RETURN(
            instruction->instr_args_type() == fb::InstructionArguments::NONE ||
                instruction->instr_args() != nullptr,
            Error::InvalidProgram, "method %zu chain %zu instruction %zu is a %s without arguments",
            p, c, k, fb::EnumNameInstructionArguments(instruction->instr_args_type()));
      }
    }
  }
  return Error::Ok;
}

// The verifier aligns a vector's length field (4 bytes) but not its items:
// a crafted file can put a vector of 8-byte scalars off their alignment,
// and reading them in place (as every reader does) is undefined behaviour
// (a fault on strict-alignment cores). Each such vector is checked once.
template <typename T>
bool aligned(const flatbuffers::Vector<T>* vector) {
  return vector == nullptr || reinterpret_cast<uintptr_t>(vector->data()) % alignof(T) == 0;
}

Error validate_alignment(const fb::Program* program) {
  const auto* cs = program->constant_segment();
  EMBER_CHECK_OR_RETURN(cs == nullptr || aligned(cs->offsets()), Error::InvalidProgram,
                        "constant segment offsets are misaligned (corrupt file)");
  const auto* mutable_segments = program->mutable_data_segments();
  for (size_t i = 0; mutable_segments != nullptr && i < mutable_segments->size(); ++i) {
    EMBER_CHECK_OR_RETURN(aligned(mutable_segments->Get(i)->offsets()), Error::InvalidProgram,
                          "mutable data segment %zu offsets are misaligned (corrupt file)", i);
  }
  const auto* plans = program->execution_plan();
  for (size_t p = 0; plans != nullptr && p < plans->size(); ++p) {
    const auto* plan = plans->Get(p);
    EMBER_CHECK_OR_RETURN(aligned(plan->non_const_buffer_sizes()), Error::InvalidProgram,
                          "method %zu planned buffer sizes are misaligned (corrupt file)", p);
    const auto* values = plan->values();
    for (size_t i = 0; values != nullptr && i < values->size(); ++i) {
      const auto* v = values->Get(i);
      const bool ok = (v->val_type() != fb::KernelTypes::IntList ||
                       aligned(v->val_as_IntList()->items())) &&
                      (v->val_type() != fb::KernelTypes::DoubleList ||
                       aligned(v->val_as_DoubleList()->items()));
      EMBER_CHECK_OR_RETURN(ok, Error::InvalidProgram,
                            "method %zu value %zu: list items are misaligned (corrupt file)", p, i);
    }
  }
  return Error::Ok;
}

}  // namespace

Result<Program> Program::load(DataLoader* loader, Verification verification) {
  EMBER_CHECK_OR_RETURN(loader != nullptr, Error::InvalidArgument, "no data loader");
  EMBER_ASSIGN_OR_RETURN(const size_t file_size, loader->size());
  EMBER_CHECK_OR_RETURN(file_size > 0, Error::InvalidProgram,
                        "the file is empty, not a .pte program");
  EMBER_CHECK_OR_RETURN(file_size >= 16, Error::InvalidProgram,
                        "file is too small (%zu bytes) to be a program", file_size);

  const size_t head_size =
      file_size < ExtendedHeader::kNumHeadBytes ? file_size : ExtendedHeader::kNumHeadBytes;
  uint64_t program_size = file_size;
  uint64_t segment_base = 0;
  uint64_t segment_data_size = 0;
  {
    EMBER_ASSIGN_OR_RETURN(FreeableBuffer head, loader->load(0, head_size));
    const char* id = static_cast<const char*>(head.data()) + 4;
    if (std::memcmp(id, kIdentifier, 4) != 0) {
      if (id[0] == 'E' && id[1] == 'T') {
        EMBER_LOG(Error, "program format '%.4s' is not supported: this runtime reads %s", id,
                  kIdentifier);
        return Error::NotSupported;
      }
      EMBER_LOG(Error, "not a .pte program: identifier is not %s", kIdentifier);
      return Error::InvalidProgram;
    }
    Result<ExtendedHeader> header = ExtendedHeader::parse(head.data(), head.size());
    if (header.ok()) {
      program_size = header->program_size;
      segment_base = header->segment_base_offset;
      segment_data_size = header->segment_data_size;
      EMBER_CHECK_OR_RETURN(program_size >= 16 && program_size <= file_size,
                            Error::InvalidProgram,
                            "header program size %llu does not fit the file (%zu bytes)",
                            static_cast<unsigned long long>(program_size), file_size);
      EMBER_CHECK_OR_RETURN(segment_base == 0 || segment_base >= program_size,
                            Error::InvalidProgram, "segments overlap the program");
      EMBER_CHECK_OR_RETURN(fits(segment_base, segment_data_size, file_size),
                            Error::InvalidProgram,
                            "file is truncated: segments need %llu bytes, the file has %zu",
                            static_cast<unsigned long long>(segment_base + segment_data_size),
                            file_size);
    } else if (header.error() != Error::NotFound) {
      return header.error();
    }
  }

  EMBER_ASSIGN_OR_RETURN(FreeableBuffer data, loader->load(0, program_size));
  EMBER_CHECK_OR_RETURN(reinterpret_cast<uintptr_t>(data.data()) % alignof(uint64_t) == 0,
                        Error::InvalidArgument, "program data must be 8-byte aligned");
  const auto* bytes = static_cast<const uint8_t*>(data.data());
  if (verification == Verification::InternalConsistency) {
    // Large models have many tables; the limits only guard against loops.
    flatbuffers::Verifier verifier(bytes, program_size, /*max_depth=*/128,
                                   /*max_tables=*/1u << 30);
    EMBER_CHECK_OR_RETURN(verifier.VerifyBuffer<fb::Program>(kIdentifier), Error::InvalidProgram,
                          "program flatbuffer failed verification (corrupt or truncated file)");
    EMBER_TRY(validate_unions(fb::GetProgram(bytes)));
    EMBER_TRY(validate_alignment(fb::GetProgram(bytes)));
  } else {
    const uint32_t root = flatbuffers::ReadScalar<uint32_t>(bytes);
    EMBER_CHECK_OR_RETURN(root >= 8 && root < program_size, Error::InvalidProgram,
                          "program root offset %u is out of range", root);
  }
  const fb::Program* program = fb::GetProgram(bytes);
  EMBER_TRY(validate_segments(program, segment_base, segment_data_size, file_size));
  EMBER_TRY(validate_method_names(program));

  FreeableBuffer constants;
  const auto* cs = program->constant_segment();
  if (cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 1) {
    const auto* seg = program->segments()->Get(cs->segment_index());
    EMBER_ASSIGN_OR_RETURN(constants, loader->load(segment_base + seg->offset(), seg->size()));
  }
  FreeableBuffer mutable_data;
  if (const auto* ms = mutable_subsegment(program)) {
    const auto* seg = program->segments()->Get(ms->segment_index());
    EMBER_ASSIGN_OR_RETURN(mutable_data, loader->load(segment_base + seg->offset(), seg->size()));
  }
  Program result(loader, static_cast<FreeableBuffer&&>(data), program, segment_base,
                 static_cast<FreeableBuffer&&>(constants));
  result.mutable_segment_ = static_cast<FreeableBuffer&&>(mutable_data);
  return result;
}

size_t Program::num_methods() const {
  return program_->execution_plan() ? program_->execution_plan()->size() : 0;
}

Result<const char*> Program::method_name(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_methods(), Error::InvalidArgument,
                        "method index %zu out of range", index);
  const auto* plan = program_->execution_plan()->Get(index);
  EMBER_CHECK_OR_RETURN(plan != nullptr && plan->name() != nullptr, Error::InvalidProgram,
                        "method %zu has no name", index);
  return plan->name()->c_str();
}

Result<const fb::ExecutionPlan*> Program::find_plan(const char* name) const {
  for (size_t i = 0; i < num_methods(); ++i) {
    const auto* plan = program_->execution_plan()->Get(i);
    if (plan != nullptr && plan->name() != nullptr && std::strcmp(plan->name()->c_str(), name) == 0) {
      return plan;
    }
  }
  EMBER_LOG(Error, "program has no method named '%s'", name);
  return Error::NotFound;
}

Result<MethodMeta> Program::method_meta(const char* name) const {
  EMBER_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, find_plan(name));
  return MethodMeta(plan);
}

Result<Method> Program::load_method(const char* name, MemoryManager* memory_manager,
                                    const MethodConfig& config) const {
  EMBER_ASSIGN_OR_RETURN(const fb::ExecutionPlan* plan, find_plan(name));
  return Method::init(this, plan, memory_manager, config);
}

Result<Method> Program::load_method(const char* name, MemoryManager* memory_manager) const {
  return load_method(name, memory_manager, MethodConfig{});
}

Result<const void*> Program::constant_data(uint32_t index, size_t nbytes) const {
  const auto* cs = program_->constant_segment();
  if (cs != nullptr && cs->offsets() != nullptr && cs->offsets()->size() > 1) {
    EMBER_CHECK_OR_RETURN(index < cs->offsets()->size(), Error::InvalidProgram,
                          "constant buffer index %u out of range (%u buffers)", index,
                          cs->offsets()->size());
    const uint64_t offset = cs->offsets()->Get(index);
    EMBER_CHECK_OR_RETURN(fits(offset, nbytes, constant_segment_.size()), Error::InvalidProgram,
                          "constant %u (%zu bytes at %llu) is past the constant segment", index,
                          nbytes, static_cast<unsigned long long>(offset));
    return static_cast<const uint8_t*>(constant_segment_.data()) + offset;
  }
  // Files written before constant segments existed keep constants inline.
  const auto* buffers = program_->constant_buffer();
  EMBER_CHECK_OR_RETURN(buffers != nullptr && index < buffers->size(), Error::InvalidProgram,
                        "constant buffer index %u out of range", index);
  const auto* storage = buffers->Get(index)->storage();
  EMBER_CHECK_OR_RETURN(storage != nullptr && nbytes <= storage->size(), Error::InvalidProgram,
                        "constant buffer %u is smaller than its tensor", index);
  return static_cast<const void*>(storage->data());
}

Result<const void*> Program::mutable_data(uint32_t index, size_t nbytes) const {
  const auto* ms = mutable_subsegment(program_);
  EMBER_CHECK_OR_RETURN(ms != nullptr && index > 0 && index < ms->offsets()->size(),
                        Error::InvalidProgram,
                        "mutable buffer initial data %u does not exist (%u entries)", index,
                        ms != nullptr ? ms->offsets()->size() : 0);
  const uint64_t offset = ms->offsets()->Get(index);
  EMBER_CHECK_OR_RETURN(fits(offset, nbytes, mutable_segment_.size()), Error::InvalidProgram,
                        "mutable buffer initial data %u (%zu bytes at %llu) is past its segment",
                        index, nbytes, static_cast<unsigned long long>(offset));
  return static_cast<const uint8_t*>(mutable_segment_.data()) + offset;
}

Result<FreeableBuffer> Program::load_segment(size_t index) const {
  const auto* segments = program_->segments();
  EMBER_CHECK_OR_RETURN(segments != nullptr && index < segments->size(), Error::InvalidProgram,
                        "segment index %zu out of range", index);
  const auto* seg = segments->Get(index);
  return loader_->load(segment_base_offset_ + seg->offset(), seg->size());
}

// MethodMeta

const char* MethodMeta::name() const { return plan_->name() ? plan_->name()->c_str() : ""; }
size_t MethodMeta::num_inputs() const { return plan_->inputs() ? plan_->inputs()->size() : 0; }
size_t MethodMeta::num_outputs() const { return plan_->outputs() ? plan_->outputs()->size() : 0; }

const char* MethodMeta::input_name(size_t index) const {
  const auto* meta = plan_->container_meta_type();
  const auto* names = meta != nullptr ? meta->input_names() : nullptr;
  if (names == nullptr || index >= names->size() ||
      names->Get(static_cast<flatbuffers::uoffset_t>(index)) == nullptr) {
    return "";
  }
  return names->Get(static_cast<flatbuffers::uoffset_t>(index))->c_str();
}

size_t MethodMeta::num_planned_buffers() const {
  const auto* sizes = plan_->non_const_buffer_sizes();
  return sizes && sizes->size() > 0 ? sizes->size() - 1 : 0;
}

size_t MethodMeta::planned_buffer_size(size_t index) const {
  if (index >= num_planned_buffers()) {
    return 0;
  }
  const int64_t size = plan_->non_const_buffer_sizes()->Get(index + 1);
  return size < 0 ? 0 : static_cast<size_t>(size);
}

size_t MethodMeta::planned_bytes() const { return Method::planned_bytes(plan_); }

size_t MethodMeta::method_table_bytes() const { return Method::table_bytes(plan_); }

Result<MethodMeta::TensorInfo> MethodMeta::tensor_info(int32_t value_index) const {
  const auto* values = plan_->values();
  EMBER_CHECK_OR_RETURN(values != nullptr && value_index >= 0 &&
                            static_cast<size_t>(value_index) < values->size(),
                        Error::InvalidProgram, "value index %d out of range", value_index);
  const auto* t = values->Get(value_index)->val_as_Tensor();
  EMBER_CHECK_OR_RETURN(t != nullptr, Error::InvalidType, "value %d is not a tensor", value_index);
  EMBER_CHECK_OR_RETURN(is_valid_scalar_type(static_cast<int>(t->scalar_type())),
                        Error::InvalidProgram, "value %d has an invalid dtype", value_index);
  TensorInfo info;
  info.dtype = static_cast<ScalarType>(t->scalar_type());
  info.sizes = t->sizes() ? Span<const int32_t>(t->sizes()->data(), t->sizes()->size())
                          : Span<const int32_t>();
  info.dynamic = t->shape_dynamism() != fb::TensorShapeDynamism::STATIC;
  const size_t dim = info.sizes.size();
  info.dynamic_dims = !info.dynamic ? 0u : dim >= 32 ? ~0u : (1u << dim) - 1;
  return info;
}

uint32_t MethodMeta::dynamic_dims_of_input(size_t index, const TensorInfo& info) const {
  const auto* meta = plan_->container_meta_type();
  const auto* masks = meta != nullptr ? meta->input_dynamic_dims() : nullptr;
  if (!info.dynamic || masks == nullptr || index >= masks->size()) return info.dynamic_dims;
  return masks->Get(static_cast<flatbuffers::uoffset_t>(index));
}

Result<MethodMeta::TensorInfo> MethodMeta::input_tensor_info(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_inputs(), Error::InvalidArgument,
                        "input index %zu out of range", index);
  EMBER_ASSIGN_OR_RETURN(TensorInfo info, tensor_info(plan_->inputs()->Get(index)));
  info.dynamic_dims = dynamic_dims_of_input(index, info);
  return info;
}

Result<MethodMeta::TensorInfo> MethodMeta::output_tensor_info(size_t index) const {
  EMBER_CHECK_OR_RETURN(index < num_outputs(), Error::InvalidArgument,
                        "output index %zu out of range", index);
  return tensor_info(plan_->outputs()->Get(index));
}

}  // namespace ember
