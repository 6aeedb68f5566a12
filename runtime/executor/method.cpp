#include "runtime/executor/method.h"

#include <cstdarg>
#include <cstring>

#include "runtime/backend/backend.h"
#include "runtime/core/format.h"
#include "runtime/core/log.h"
#include "runtime/executor/features.h"
#include "runtime/executor/kernel_call_check.h"
#include "runtime/executor/program.h"
#include "schema/program_generated.h"

// Why a call failed, kept for last_error(); with messages compiled out
// (EMBER_LOG_STRINGS=0) only the line that failed.
#if EMBER_LOG_STRINGS
#define EMBER_METHOD_ERROR_(...) set_error(__VA_ARGS__)
#else
#define EMBER_METHOD_ERROR_(...) set_error("method.cpp:%d", __LINE__)
#endif

namespace ember {
namespace {

constexpr size_t kMaxOperatorNameLength = 128;

bool index_in_range(int64_t index, size_t size) {
  return index >= 0 && static_cast<uint64_t>(index) < size;
}

// Kernels load bool tensors as C++ bools, and a byte other than 0 or 1
// loaded as a bool is undefined behaviour: bool data from outside (the
// file's constants, the caller's inputs) is checked once. Returns the index
// of the first bad byte, or -1.
int64_t first_non_bool_byte(const void* data, size_t n) {
  const uint8_t* bytes = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    if (bytes[i] > 1) return static_cast<int64_t>(i);
  }
  return -1;
}

size_t saturating_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

// Holds a method's busy flag for the length of one public call; a second
// thread arriving meanwhile does not get it and is refused.
class CallGuard {
 public:
  explicit CallGuard(std::atomic<bool>& busy)
      : busy_(busy), held_(!busy.exchange(true, std::memory_order_acquire)) {}
  ~CallGuard() {
    if (held_) busy_.store(false, std::memory_order_release);
  }
  CallGuard(const CallGuard&) = delete;
  CallGuard& operator=(const CallGuard&) = delete;
  bool held() const { return held_; }

 private:
  std::atomic<bool>& busy_;
  const bool held_;
};

}  // namespace

Method::Method(Method&& other) noexcept
    : program_(other.program_),
      plan_(other.plan_),
      memory_manager_(other.memory_manager_),
      config_(other.config_),
      random_state_(other.random_state_),
      required_temp_bytes_(other.required_temp_bytes_),
      values_(other.values_),
      num_values_(other.num_values_),
      input_indices_(other.input_indices_),
      num_inputs_(other.num_inputs_),
      output_indices_(other.output_indices_),
      num_outputs_(other.num_outputs_),
      input_set_(other.input_set_),
      instructions_(other.instructions_),
      num_instructions_(other.num_instructions_),
      has_jumps_(other.has_jumps_),
      delegates_(other.delegates_),
      num_delegates_(other.num_delegates_),
      mutable_buffers_(other.mutable_buffers_),
      num_mutable_buffers_(other.num_mutable_buffers_) {
  std::memcpy(last_error_, other.last_error_, sizeof(last_error_));
  other.delegates_ = nullptr;
  other.num_delegates_ = 0;
}

Method::~Method() {
  for (size_t i = 0; i < num_delegates_; ++i) {
    if (delegates_[i].backend != nullptr) {
      delegates_[i].backend->destroy(delegates_[i].handle);
    }
  }
}

void Method::set_error(const char* format, ...) {
  va_list args;
  va_start(args, format);
  vformat(last_error_, sizeof(last_error_), format, args);
  va_end(args);
  EMBER_LOG(Error, "%s", last_error_);
}

Result<Method> Method::init(const Program* program, const fb::ExecutionPlan* plan,
                            MemoryManager* memory_manager, const MethodConfig& config) {
  EMBER_CHECK_OR_RETURN(memory_manager != nullptr && memory_manager->method_allocator != nullptr,
                        Error::InvalidArgument, "load_method needs a method allocator");
  EMBER_CHECK_OR_RETURN(features::kLimits ||
                            (config.max_memory_bytes == 0 && config.max_instructions == 0),
                        Error::NotSupported, "this runtime was built without limits");
  EMBER_CHECK_OR_RETURN(features::kEventTracer || config.event_tracer == nullptr,
                        Error::NotSupported, "this runtime was built without the event tracer");
  Method method(program, plan, memory_manager, config);
  if constexpr (features::kLimits) EMBER_TRY(method.check_limits());
  EMBER_TRY(method.init_values());
  EMBER_TRY(method.init_lists());
  EMBER_TRY(method.check_io());
  if constexpr (features::kDelegates) {
    EMBER_TRY(method.init_delegates());
  } else {
    EMBER_CHECK_OR_RETURN(plan->delegates() == nullptr || plan->delegates()->size() == 0,
                          Error::NotSupported, "this runtime was built without delegates");
  }
  EMBER_TRY(method.init_instructions());
  return method;
}

size_t Method::planned_bytes(const fb::ExecutionPlan* plan) {
  const auto* sizes = plan->non_const_buffer_sizes();
  size_t total = 0;
  for (size_t i = 1; sizes != nullptr && i < sizes->size(); ++i) {
    const int64_t size = sizes->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (size > 0) {
      total = static_cast<uint64_t>(size) > SIZE_MAX ? SIZE_MAX
                                                      : saturating_add(total, static_cast<size_t>(size));
    }
  }
  return total;
}

Error Method::check_limits() const {
  const size_t limit = config_.max_memory_bytes;
  if (limit == 0) {
    return Error::Ok;
  }
  const size_t planned = planned_bytes(plan_);
  const size_t tables = table_bytes(plan_);
  const size_t total = saturating_add(planned, tables);
  EMBER_CHECK_OR_RETURN(total <= limit, Error::MemoryAllocationFailed,
                        "method '%s' asks for %zu bytes (planned arenas %zu, method tables %zu), "
                        "more than the limit of %zu bytes the application set",
                        plan_name(), total, planned, tables, limit);
  return Error::Ok;
}

size_t Method::table_bytes(const fb::ExecutionPlan* plan) {
  // Mirrors the allocations of init_*; each allocation may lose up to its
  // alignment to padding.
  constexpr size_t kPad = alignof(std::max_align_t);
  auto array = [](size_t count, size_t size) { return count * size + kPad; };
  size_t total = 0;
  const auto* values = plan->values();
  const size_t num_values = values ? values->size() : 0;
  total += array(num_values, sizeof(EValue));
  for (size_t i = 0; i < num_values; ++i) {
    const auto* v = values->Get(static_cast<flatbuffers::uoffset_t>(i));
    if (v == nullptr) continue;
    switch (v->val_type()) {
      case fb::KernelTypes::Tensor: {
        const auto* tensor = v->val_as_Tensor();
        const auto* sizes = tensor->sizes();
        const size_t dim = sizes && sizes->size() > 0 ? sizes->size() : 1;
        total += array(dim, sizeof(SizesType)) + array(dim, sizeof(DimOrderType)) +
                 array(dim, sizeof(StridesType)) + array(1, sizeof(Tensor));
        if (tensor->allocation_info() != nullptr && tensor->data_buffer_idx() > 0) {
          total += sizeof(MutableBuffer);
        }
        break;
      }
      case fb::KernelTypes::BoolList: {
        const auto* items = v->val_as_BoolList()->items();
        total += array(items ? items->size() : 0, sizeof(bool));
        break;
      }
      case fb::KernelTypes::IntList: {
        const auto* items = v->val_as_IntList()->items();
        total += array(items ? items->size() : 0, sizeof(EValue*) + sizeof(int64_t)) + kPad;
        break;
      }
      case fb::KernelTypes::TensorList: {
        const auto* items = v->val_as_TensorList()->items();
        total += array(items ? items->size() : 0, sizeof(Tensor*));
        break;
      }
      case fb::KernelTypes::OptionalTensorList: {
        const auto* items = v->val_as_OptionalTensorList()->items();
        total += array(items ? items->size() : 0, sizeof(Tensor*));
        break;
      }
      default:
        break;
    }
  }
  total += kPad;  // the mutable buffer table's alignment
  total += array(plan->inputs() ? plan->inputs()->size() : 0, sizeof(bool));
  const auto* delegates = plan->delegates();
  const size_t num_delegates = delegates ? delegates->size() : 0;
  total += array(num_delegates, sizeof(Delegate));
  for (size_t i = 0; i < num_delegates; ++i) {
    const auto* specs = delegates->Get(static_cast<flatbuffers::uoffset_t>(i))->compile_specs();
    total += array(specs ? specs->size() : 0, sizeof(CompileSpec));
  }
  const auto* operators = plan->operators();
  const size_t num_operators = operators ? operators->size() : 0;
  total += array(num_operators, sizeof(const char*)) + num_operators * (kMaxOperatorNameLength + kPad);
  const auto* chains = plan->chains();
  if (chains != nullptr && chains->size() > 0 && chains->Get(0)->instructions() != nullptr) {
    const auto* instructions = chains->Get(0)->instructions();
    total += array(instructions->size(), sizeof(Instr));
    for (const auto* instruction : *instructions) {
      const flatbuffers::Vector<int32_t>* args = nullptr;
      if (const auto* call = instruction->instr_args_as_KernelCall()) args = call->args();
      if (const auto* call = instruction->instr_args_as_DelegateCall()) args = call->args();
      total += array(args ? args->size() : 0, sizeof(EValue*));
    }
  }
  return total;
}

Error Method::init_values() {
  const auto* values = plan_->values();
  EMBER_CHECK_OR_RETURN(values != nullptr, Error::InvalidProgram, "method has no value table");
  num_values_ = values->size();
  MemoryAllocator* alloc = memory_manager_->method_allocator;
  values_ = alloc->allocate_array<EValue>(num_values_);
  EMBER_CHECK_OR_RETURN(values_ != nullptr || num_values_ == 0, Error::MemoryAllocationFailed,
                        "method allocator is too small for %zu values", num_values_);

  // Planned buffers must be supplied and at least as large as the plan says.
  const auto* buffer_sizes = plan_->non_const_buffer_sizes();
  const size_t num_buffers = buffer_sizes && buffer_sizes->size() > 0 ? buffer_sizes->size() - 1 : 0;
  EMBER_CHECK_OR_RETURN(memory_manager_->planned_buffers.size() >= num_buffers,
                        Error::InvalidArgument,
                        "method needs %zu planned buffers, the memory manager has %zu",
                        num_buffers, memory_manager_->planned_buffers.size());
  for (size_t i = 0; i < num_buffers; ++i) {
    const int64_t need = buffer_sizes->Get(i + 1);
    EMBER_CHECK_OR_RETURN(need >= 0, Error::InvalidProgram, "planned buffer %zu has size %lld", i,
                          static_cast<long long>(need));
    EMBER_CHECK_OR_RETURN(memory_manager_->planned_buffers[i].size() >= static_cast<uint64_t>(need),
                          Error::InvalidArgument,
                          "planned buffer %zu needs %lld bytes, the memory manager gives %zu", i,
                          static_cast<long long>(need), memory_manager_->planned_buffers[i].size());
  }

  // Mutable buffers (planned tensors with initial data) get a table entry.
  size_t num_mutable = 0;
  for (size_t i = 0; i < num_values_; ++i) {
    const auto* v = values->Get(i);
    const auto* t = v != nullptr ? v->val_as_Tensor() : nullptr;
    num_mutable += t != nullptr && t->allocation_info() != nullptr && t->data_buffer_idx() > 0;
  }
  mutable_buffers_ = alloc->allocate_array<MutableBuffer>(num_mutable);
  EMBER_CHECK_OR_RETURN(mutable_buffers_ != nullptr || num_mutable == 0,
                        Error::MemoryAllocationFailed,
                        "method allocator is too small for %zu mutable buffers", num_mutable);

  for (size_t i = 0; i < num_values_; ++i) {
    new (&values_[i]) EValue();
    const auto* v = values->Get(i);
    EMBER_CHECK_OR_RETURN(v != nullptr, Error::InvalidProgram, "value %zu is null", i);
    switch (v->val_type()) {
      case fb::KernelTypes::NONE:
      case fb::KernelTypes::Null:
        break;
      case fb::KernelTypes::Int:
        values_[i] = EValue(static_cast<int64_t>(v->val_as_Int()->int_val()));
        break;
      case fb::KernelTypes::Bool:
        values_[i] = EValue(v->val_as_Bool()->bool_val());
        break;
      case fb::KernelTypes::Double:
        values_[i] = EValue(v->val_as_Double()->double_val());
        break;
      case fb::KernelTypes::String: {
        const auto* s = v->val_as_String()->string_val();
        values_[i] = s ? EValue(Span<const char>(s->c_str(), s->size())) : EValue(Span<const char>());
        break;
      }
      case fb::KernelTypes::Tensor:
        EMBER_TRY(init_tensor(i, v->val_as_Tensor()));
        break;
      case fb::KernelTypes::DoubleList: {
        const auto* items = v->val_as_DoubleList()->items();
        values_[i] = items ? EValue(Span<const double>(items->data(), items->size()))
                           : EValue(Span<const double>());
        break;
      }
      case fb::KernelTypes::BoolList: {
        // Flatbuffer bools are bytes; copy them into real bools.
        const auto* items = v->val_as_BoolList()->items();
        const size_t n = items ? items->size() : 0;
        bool* data = alloc->allocate_array<bool>(n);
        EMBER_CHECK_OR_RETURN(data != nullptr || n == 0, Error::MemoryAllocationFailed,
                              "method allocator exhausted");
        for (size_t k = 0; k < n; ++k) {
          data[k] = items->Get(k) != 0;
        }
        values_[i] = EValue(Span<const bool>(data, n));
        break;
      }
      case fb::KernelTypes::IntList:
      case fb::KernelTypes::TensorList:
      case fb::KernelTypes::OptionalTensorList:
        break;  // resolved by init_lists once every value exists
      default:
        EMBER_LOG(Error, "value %zu has unknown type %d", i, static_cast<int>(v->val_type()));
        return Error::InvalidProgram;
    }
  }
  return Error::Ok;
}

Error Method::init_tensor(size_t index, const void* flat_tensor) {
  const auto* t = static_cast<const fb::Tensor*>(flat_tensor);
  MemoryAllocator* alloc = memory_manager_->method_allocator;
  const int type = static_cast<int>(t->scalar_type());
  EMBER_CHECK_OR_RETURN(is_valid_scalar_type(type), Error::InvalidProgram,
                        "value %zu: invalid dtype %d", index, type);
  const ScalarType dtype = static_cast<ScalarType>(type);
  const size_t dim = t->sizes() ? t->sizes()->size() : 0;
  EMBER_CHECK_OR_RETURN(dim <= kTensorDimensionLimit, Error::NotSupported,
                        "value %zu: rank %zu exceeds the limit of %d", index, dim,
                        kTensorDimensionLimit);
  EMBER_CHECK_OR_RETURN(t->storage_offset() == 0, Error::NotSupported,
                        "value %zu: non-zero storage offset", index);
  EMBER_CHECK_OR_RETURN(t->shape_dynamism() != fb::TensorShapeDynamism::DYNAMIC_UNBOUND,
                        Error::NotSupported,
                        "value %zu: unbounded dynamic shapes are not supported; export with an "
                        "upper bound on each dynamic dim", index);

  SizesType* sizes = alloc->allocate_array<SizesType>(dim > 0 ? dim : 1);
  DimOrderType* dim_order = alloc->allocate_array<DimOrderType>(dim > 0 ? dim : 1);
  StridesType* strides = alloc->allocate_array<StridesType>(dim > 0 ? dim : 1);
  Tensor* tensor = alloc->allocate_array<Tensor>(1);
  EMBER_CHECK_OR_RETURN(sizes && dim_order && strides && tensor, Error::MemoryAllocationFailed,
                        "method allocator exhausted at value %zu", index);

  uint64_t numel = 1;
  for (size_t d = 0; d < dim; ++d) {
    const int32_t s = t->sizes()->Get(d);
    EMBER_CHECK_OR_RETURN(s >= 0, Error::InvalidProgram, "value %zu: negative size %d", index, s);
    sizes[d] = s;
    numel *= static_cast<uint64_t>(s);
    EMBER_CHECK_OR_RETURN(numel <= INT32_MAX, Error::InvalidProgram,
                          "value %zu: tensor has too many elements", index);
  }
  // The dim order must be a permutation of 0..dim-1 (absent means contiguous).
  const auto* order = t->dim_order();
  EMBER_CHECK_OR_RETURN(order == nullptr || order->size() == dim, Error::InvalidProgram,
                        "value %zu: dim order has %u entries for rank %zu", index,
                        order ? order->size() : 0, dim);
  uint32_t seen = 0;
  for (size_t d = 0; d < dim; ++d) {
    const uint8_t o = order ? order->Get(d) : static_cast<uint8_t>(d);
    EMBER_CHECK_OR_RETURN(o < dim && !(seen & (1u << o)), Error::InvalidProgram,
                          "value %zu: dim order is not a permutation", index);
    seen |= 1u << o;
    dim_order[d] = o;
  }

  const size_t nbytes = static_cast<size_t>(numel) * element_size(dtype);
  void* data = nullptr;
  const auto* alloc_info = t->allocation_info();
  if (alloc_info != nullptr) {
    const auto* buffer_sizes = plan_->non_const_buffer_sizes();
    const size_t num_buffers = buffer_sizes && buffer_sizes->size() > 0 ? buffer_sizes->size() - 1 : 0;
    const uint32_t id = alloc_info->memory_id();
    EMBER_CHECK_OR_RETURN(id >= 1 && id <= num_buffers, Error::InvalidProgram,
                          "value %zu: memory id %u out of range (%zu buffers)", index, id,
                          num_buffers);
    const uint64_t offset = static_cast<uint64_t>(alloc_info->memory_offset_high()) << 32 |
                            alloc_info->memory_offset_low();
    const uint64_t planned = static_cast<uint64_t>(buffer_sizes->Get(id));
    EMBER_CHECK_OR_RETURN(offset <= planned && nbytes <= planned - offset, Error::InvalidProgram,
                          "value %zu: %zu bytes at offset %llu overflow planned buffer %u (%llu "
                          "bytes)", index, nbytes, static_cast<unsigned long long>(offset), id,
                          static_cast<unsigned long long>(planned));
    data = memory_manager_->planned_buffers[id - 1].data() + offset;
    if (t->data_buffer_idx() > 0) {
      // A mutable buffer: planned memory that starts from the program's data.
      EMBER_ASSIGN_OR_RETURN(const void* initial,
                             program_->mutable_data(t->data_buffer_idx(), nbytes));
      mutable_buffers_[num_mutable_buffers_] = MutableBuffer{data, initial, nbytes};
      ++num_mutable_buffers_;
      if (config_.init_mutable_buffers && nbytes > 0) {
        std::memcpy(data, initial, nbytes);
      }
    }
  } else if (t->data_buffer_idx() > 0) {
    EMBER_ASSIGN_OR_RETURN(const void* constant, program_->constant_data(t->data_buffer_idx(), nbytes));
    data = const_cast<void*>(constant);  // kernels never write their inputs
    const int64_t bad = dtype == ScalarType::Bool ? first_non_bool_byte(constant, nbytes) : -1;
    EMBER_CHECK_OR_RETURN(bad < 0, Error::InvalidProgram,
                          "value %zu: bool constant holds %u at element %lld; a bool is 0 or 1",
                          index, static_cast<const uint8_t*>(constant)[bad < 0 ? 0 : bad],
                          static_cast<long long>(bad));
  }
  // Kernels load whole elements: data off their alignment is undefined
  // behaviour in C++ (and a fault on some cores).
  const size_t item = element_size(dtype);
  const size_t alignment = item == 0 ? 1 : item < 8 ? item : 8;
  EMBER_CHECK_OR_RETURN(reinterpret_cast<uintptr_t>(data) % alignment == 0,
                        Error::InvalidProgram,
                        "value %zu: its data is not aligned to its %zu-byte elements", index,
                        element_size(dtype));
  new (tensor) Tensor(dtype, static_cast<int>(dim), sizes, dim_order, strides, data,
                      data != nullptr ? nbytes : 0,
                      t->shape_dynamism() == fb::TensorShapeDynamism::DYNAMIC_BOUND
                          ? TensorShapeDynamism::DynamicBound
                          : TensorShapeDynamism::Static);
  values_[index] = EValue(tensor);
  return Error::Ok;
}

Error Method::init_lists() {
  MemoryAllocator* alloc = memory_manager_->method_allocator;
  const auto* values = plan_->values();
  for (size_t i = 0; i < num_values_; ++i) {
    const auto* v = values->Get(i);
    switch (v->val_type()) {
      case fb::KernelTypes::IntList: {
        const auto* items = v->val_as_IntList()->items();
        const size_t n = items ? items->size() : 0;
        EValue** boxed = alloc->allocate_array<EValue*>(n);
        int64_t* scratch = alloc->allocate_array<int64_t>(n);
        EMBER_CHECK_OR_RETURN((boxed && scratch) || n == 0, Error::MemoryAllocationFailed,
                              "method allocator exhausted");
        for (size_t k = 0; k < n; ++k) {
          const int64_t item = items->Get(k);
          EMBER_CHECK_OR_RETURN(index_in_range(item, num_values_) && values_[item].is_int(),
                                Error::InvalidProgram,
                                "value %zu: int list item %zu does not name an int value", i, k);
          boxed[k] = &values_[item];
        }
        values_[i] = EValue(BoxedIntList(boxed, scratch, n));
        break;
      }
      case fb::KernelTypes::TensorList:
      case fb::KernelTypes::OptionalTensorList: {
        const bool optional = v->val_type() == fb::KernelTypes::OptionalTensorList;
        const auto* items = optional ? v->val_as_OptionalTensorList()->items()
                                     : v->val_as_TensorList()->items();
        const size_t n = items ? items->size() : 0;
        Tensor** tensors = alloc->allocate_array<Tensor*>(n);
        EMBER_CHECK_OR_RETURN(tensors != nullptr || n == 0, Error::MemoryAllocationFailed,
                              "method allocator exhausted");
        for (size_t k = 0; k < n; ++k) {
          const int32_t item = items->Get(k);
          EMBER_CHECK_OR_RETURN(index_in_range(item, num_values_), Error::InvalidProgram,
                                "value %zu: list item %zu index %d out of range", i, k, item);
          const EValue& e = values_[item];
          EMBER_CHECK_OR_RETURN(e.is_tensor() || (optional && e.is_none()), Error::InvalidProgram,
                                "value %zu: list item %zu is a %s, not a tensor", i, k,
                                e.tag_name());
          tensors[k] = e.is_tensor() ? &e.to_tensor() : nullptr;
        }
        values_[i] = EValue(Span<Tensor* const>(tensors, n), optional);
        break;
      }
      default:
        break;
    }
  }
  return Error::Ok;
}

Error Method::check_io() {
  const auto* inputs = plan_->inputs();
  const auto* outputs = plan_->outputs();
  num_inputs_ = inputs ? inputs->size() : 0;
  num_outputs_ = outputs ? outputs->size() : 0;
  input_indices_ = inputs ? inputs->data() : nullptr;
  output_indices_ = outputs ? outputs->data() : nullptr;
  input_set_ = memory_manager_->method_allocator->allocate_array<bool>(num_inputs_);
  EMBER_CHECK_OR_RETURN(input_set_ != nullptr || num_inputs_ == 0, Error::MemoryAllocationFailed,
                        "method allocator exhausted");
  for (size_t i = 0; i < num_inputs_; ++i) {
    EMBER_CHECK_OR_RETURN(index_in_range(input_indices_[i], num_values_), Error::InvalidProgram,
                          "input %zu: value index %d out of range", i, input_indices_[i]);
    input_set_[i] = !values_[input_indices_[i]].is_tensor();
    // set_input copies into an input's memory: a constant's may be read-only.
    EMBER_CHECK_OR_RETURN(!is_constant_tensor(static_cast<size_t>(input_indices_[i])),
                          Error::InvalidProgram, "input %zu (value %d) is a constant tensor", i,
                          input_indices_[i]);
  }
  for (size_t i = 0; i < num_outputs_; ++i) {
    EMBER_CHECK_OR_RETURN(index_in_range(output_indices_[i], num_values_), Error::InvalidProgram,
                          "output %zu: value index %d out of range", i, output_indices_[i]);
  }
  // Every tensor needs a data source: constant, planned, or a caller-bound input.
  for (size_t i = 0; i < num_values_; ++i) {
    if (!values_[i].is_tensor()) {
      continue;
    }
    const Tensor& t = values_[i].to_tensor();
    if (t.const_data_ptr() != nullptr || t.nbytes() == 0) {
      continue;
    }
    bool is_input = false;
    for (size_t k = 0; k < num_inputs_ && !is_input; ++k) {
      is_input = input_indices_[k] == static_cast<int32_t>(i);
    }
    EMBER_CHECK_OR_RETURN(is_input, Error::InvalidProgram,
                          "value %zu: tensor has neither planned memory nor constant data", i);
  }
  return Error::Ok;
}

Error Method::init_delegates() {
  const auto* delegates = plan_->delegates();
  num_delegates_ = 0;
  const size_t n = delegates ? delegates->size() : 0;
  MemoryAllocator* alloc = memory_manager_->method_allocator;
  delegates_ = alloc->allocate_array<Delegate>(n);
  EMBER_CHECK_OR_RETURN(delegates_ != nullptr || n == 0, Error::MemoryAllocationFailed,
                        "method allocator exhausted");
  const auto* program = program_->flatbuffer();
  for (size_t i = 0; i < n; ++i) {
    const auto* d = delegates->Get(i);
    EMBER_CHECK_OR_RETURN(d->id() != nullptr && d->processed() != nullptr, Error::InvalidProgram,
                          "delegate %zu is missing its id or data", i);
    const BackendInterface* backend = find_backend(d->id()->c_str());
    EMBER_CHECK_OR_RETURN(backend != nullptr, Error::NotFound,
                          "delegate %zu needs backend '%s', which is not linked into this runtime",
                          i, d->id()->c_str());
    EMBER_CHECK_OR_RETURN(backend->is_available(), Error::NotSupported,
                          "backend '%s' is not available on this machine", d->id()->c_str());
    FreeableBuffer processed;
    const uint32_t index = d->processed()->index();
    if (d->processed()->location() == fb::DataLocation::INLINE) {
      const auto* inline_data = program->backend_delegate_data();
      EMBER_CHECK_OR_RETURN(inline_data != nullptr && index < inline_data->size() &&
                                inline_data->Get(index)->data() != nullptr,
                            Error::InvalidProgram, "delegate %zu: inline data %u out of range", i,
                            index);
      const auto* bytes = inline_data->Get(index)->data();
      processed = FreeableBuffer(bytes->data(), bytes->size(), nullptr);
    } else {
      EMBER_ASSIGN_OR_RETURN(processed, program_->load_segment(index));
    }
    const auto* specs = d->compile_specs();
    const size_t num_specs = specs ? specs->size() : 0;
    CompileSpec* compile_specs = alloc->allocate_array<CompileSpec>(num_specs);
    EMBER_CHECK_OR_RETURN(compile_specs != nullptr || num_specs == 0,
                          Error::MemoryAllocationFailed, "method allocator exhausted");
    for (size_t k = 0; k < num_specs; ++k) {
      const auto* spec = specs->Get(k);
      compile_specs[k].key = spec->key() ? spec->key()->c_str() : "";
      compile_specs[k].value = spec->value()
                                   ? Span<const uint8_t>(spec->value()->data(), spec->value()->size())
                                   : Span<const uint8_t>();
    }
    BackendInitContext context(alloc, config_.thread_pool, config_.event_tracer, plan_name());
    clear_last_error_message();
    Result<DelegateHandle*> handle =
        backend->init(context, &processed, Span<const CompileSpec>(compile_specs, num_specs));
    if (!handle.ok()) {
      // The backend logged why (no GPU driver, a malformed blob...): the
      // one-line message an application shows keeps it.
      char why[384];
      ember::format(why, sizeof(why), "%s", last_error_message());
      EMBER_LOG(Error, "backend '%s' failed to init delegate %zu%s%s", d->id()->c_str(), i,
                why[0] != '\0' ? ": " : "", why);
      return handle.error();
    }
    delegates_[i] = {backend, handle.get()};
    num_delegates_ = i + 1;
    if (context.requested_temp_bytes() > required_temp_bytes_) {
      required_temp_bytes_ = context.requested_temp_bytes();
    }
  }
  return Error::Ok;
}

bool Method::is_constant_tensor(size_t index) const {
  const auto* value = plan_->values()->Get(static_cast<flatbuffers::uoffset_t>(index));
  const auto* tensor = value->val_as_Tensor();
  return tensor != nullptr && tensor->allocation_info() == nullptr && tensor->data_buffer_idx() > 0;
}

bool Method::is_writable(const EValue* value) const {
  if (!value->is_tensor()) return true;
  const size_t index = static_cast<size_t>(value - values_);
  const auto* tensor =
      plan_->values()->Get(static_cast<flatbuffers::uoffset_t>(index))->val_as_Tensor();
  if (tensor == nullptr || tensor->allocation_info() != nullptr) return true;  // planned
  if (tensor->data_buffer_idx() > 0) return false;                             // a constant
  for (size_t k = 0; k < num_inputs_; ++k) {
    if (input_indices_[k] == static_cast<int32_t>(index)) return false;  // the caller's memory
  }
  return true;  // no memory at all (check_io refused it unless it holds no bytes)
}

Error Method::check_outs_writable(const Instr& instr, size_t pc) const {
  const KernelEntry& kernel = *instr.kernel;
  for (size_t i = 0; i < kernel.num_params && i < 64; ++i) {
    if (!is_out_param(kernel, instr.args, i)) continue;
    const EValue* arg = instr.args[i];
    bool writable = is_writable(arg);
    if (arg->is_tensor_list()) {
      // The list's items, by value index (init_lists checked each names a tensor).
      const auto* list = plan_->values()
                             ->Get(static_cast<flatbuffers::uoffset_t>(arg - values_))
                             ->val_as_TensorList();
      for (size_t k = 0; list != nullptr && list->items() != nullptr && k < list->items()->size();
           ++k) {
        writable = writable && is_writable(&values_[list->items()->Get(
                                   static_cast<flatbuffers::uoffset_t>(k))]);
      }
    }
    EMBER_CHECK_OR_RETURN(writable, Error::InvalidProgram,
                          "instruction %zu (%s): out argument %zu is a constant or an unplanned "
                          "input, which the kernel must not write", pc, instr.name, i);
  }
  return Error::Ok;
}

Error Method::init_instructions() {
  const auto* chains = plan_->chains();
  EMBER_CHECK_OR_RETURN(chains != nullptr && chains->size() == 1, Error::NotSupported,
                        "method must have exactly one chain, it has %u",
                        chains ? chains->size() : 0);
  const auto* instructions = chains->Get(0)->instructions();
  num_instructions_ = instructions ? instructions->size() : 0;
  MemoryAllocator* alloc = memory_manager_->method_allocator;
  instructions_ = alloc->allocate_array<Instr>(num_instructions_);
  EMBER_CHECK_OR_RETURN(instructions_ != nullptr || num_instructions_ == 0,
                        Error::MemoryAllocationFailed, "method allocator exhausted");
  const auto* operators = plan_->operators();
  const size_t num_operators = operators ? operators->size() : 0;
  // Operator names are built once per operator, not once per instruction.
  const char** op_names = alloc->allocate_array<const char*>(num_operators);
  EMBER_CHECK_OR_RETURN(op_names != nullptr || num_operators == 0,
                        Error::MemoryAllocationFailed, "method allocator exhausted");
  for (size_t i = 0; i < num_operators; ++i) {
    const auto* op = operators->Get(i);
    EMBER_CHECK_OR_RETURN(op->name() != nullptr, Error::InvalidProgram, "operator %zu has no name",
                          i);
    const size_t len = op->name()->size() +
                       (op->overload() && op->overload()->size() ? 1 + op->overload()->size() : 0);
    EMBER_CHECK_OR_RETURN(len < kMaxOperatorNameLength, Error::InvalidProgram,
                          "operator %zu name is too long", i);
    char* name = alloc->allocate_array<char>(len + 1);
    EMBER_CHECK_OR_RETURN(name != nullptr, Error::MemoryAllocationFailed,
                          "method allocator exhausted");
    if (op->overload() && op->overload()->size()) {
      ember::format(name, len + 1, "%s.%s", op->name()->c_str(), op->overload()->c_str());
    } else {
      ember::format(name, len + 1, "%s", op->name()->c_str());
    }
    op_names[i] = name;
  }

  // Args are resolved to value pointers now, so execute only follows pointers.
  auto resolve_args = [&](const flatbuffers::Vector<int32_t>* indices, size_t pc,
                          Span<EValue*>* out) -> Error {
    const size_t n = indices ? indices->size() : 0;
    EValue** args = alloc->allocate_array<EValue*>(n);
    EMBER_CHECK_OR_RETURN(args != nullptr || n == 0, Error::MemoryAllocationFailed,
                          "method allocator exhausted");
    for (size_t k = 0; k < n; ++k) {
      EMBER_CHECK_OR_RETURN(index_in_range(indices->Get(k), num_values_), Error::InvalidProgram,
                            "instruction %zu: argument %zu value index %d out of range", pc, k,
                            indices->Get(k));
      args[k] = &values_[indices->Get(k)];
    }
    *out = Span<EValue*>(args, n);
    return Error::Ok;
  };

  for (size_t pc = 0; pc < num_instructions_; ++pc) {
    const auto* instruction = instructions->Get(pc);
    Instr& instr = instructions_[pc];
    instr = Instr{InstrKind::Free, nullptr, 0, {}, 0, 0, "free", {}};
    switch (instruction->instr_args_type()) {
      case fb::InstructionArguments::KernelCall: {
        const auto* call = instruction->instr_args_as_KernelCall();
        EMBER_CHECK_OR_RETURN(index_in_range(call->op_index(), num_operators),
                              Error::InvalidProgram, "instruction %zu: operator index %d out of range",
                              pc, call->op_index());
        const char* name = op_names[call->op_index()];
        instr.kind = InstrKind::Kernel;
        instr.name = name;
        instr.kernel = find_kernel(name);
        EMBER_CHECK_OR_RETURN(instr.kernel != nullptr, Error::OperatorMissing,
                              "instruction %zu: no kernel for operator %s is linked into this "
                              "runtime", pc, name);
        EMBER_TRY(resolve_args(call->args(), pc, &instr.args));
        char why[256];
        EMBER_CHECK_OR_RETURN(instr.kernel->check_args(instr.args, why, sizeof(why)) &&
                                  check_kernel_returns(*instr.kernel, instr.args, why, sizeof(why)),
                              Error::InvalidProgram, "instruction %zu (%s): %s", pc, name, why);
        EMBER_CHECK_OR_RETURN(check_kernel_dtypes(*instr.kernel, instr.args, why, sizeof(why)),
                              Error::OperatorMissing, "instruction %zu: %s", pc, why);
        EMBER_TRY(check_outs_writable(instr, pc));
        if (instr.kernel->temp_bytes != nullptr) {
          const size_t temp_bytes = instr.kernel->temp_bytes(instr.args);
          if (temp_bytes > required_temp_bytes_) required_temp_bytes_ = temp_bytes;
        }
        const Error shimmed = make_layout_shims(
            *instr.kernel, instr.args, alloc,
            [this](const EValue* v) { return is_constant_tensor(static_cast<size_t>(v - values_)); },
            &instr.shims);
        EMBER_CHECK_OR_RETURN(shimmed == Error::Ok, shimmed,
                              "instruction %zu (%s): no row-major copies of its tensors in other "
                              "dim orders (no memory, or a runtime built without them)", pc, name);
        break;
      }
      case fb::InstructionArguments::DelegateCall: {
        EMBER_CHECK_OR_RETURN(features::kDelegates, Error::NotSupported,
                              "instruction %zu: this runtime was built without delegates", pc);
        const auto* call = instruction->instr_args_as_DelegateCall();
        EMBER_CHECK_OR_RETURN(index_in_range(call->delegate_index(), num_delegates_),
                              Error::InvalidProgram, "instruction %zu: delegate index %d out of range",
                              pc, call->delegate_index());
        instr.kind = InstrKind::Delegate;
        instr.delegate = static_cast<uint32_t>(call->delegate_index());
        instr.name = plan_->delegates()->Get(instr.delegate)->id()->c_str();
        EMBER_TRY(resolve_args(call->args(), pc, &instr.args));
        EMBER_TRY(check_delegate_outputs(instr, pc));
        break;
      }
      case fb::InstructionArguments::MoveCall: {
        EMBER_CHECK_OR_RETURN(features::kControlFlow, Error::NotSupported,
                              "instruction %zu: this runtime was built without control flow", pc);
        const auto* call = instruction->instr_args_as_MoveCall();
        EMBER_CHECK_OR_RETURN(index_in_range(call->move_from(), num_values_) &&
                                  index_in_range(call->move_to(), num_values_),
                              Error::InvalidProgram, "instruction %zu: move index out of range", pc);
        // Kernels were checked against each value's kind and dtype above; a
        // move that changed them would hand a kernel what it was not checked for.
        const EValue& from = values_[call->move_from()];
        const EValue& to = values_[call->move_to()];
        EMBER_CHECK_OR_RETURN(
            from.tag() == to.tag() &&
                (!from.is_tensor() ||
                 (from.to_tensor().scalar_type() == to.to_tensor().scalar_type() &&
                  from.to_tensor().dim() == to.to_tensor().dim())),
            Error::InvalidProgram,
            "instruction %zu: move from value %d (%s) to value %d (%s) changes its kind, dtype or "
            "rank", pc, call->move_from(), from.tag_name(), call->move_to(), to.tag_name());
        instr = Instr{InstrKind::Move, nullptr, 0, {}, call->move_from(), call->move_to(), "move", {}};
        break;
      }
      case fb::InstructionArguments::JumpFalseCall: {
        EMBER_CHECK_OR_RETURN(features::kControlFlow, Error::NotSupported,
                              "instruction %zu: this runtime was built without control flow", pc);
        const auto* call = instruction->instr_args_as_JumpFalseCall();
        EMBER_CHECK_OR_RETURN(index_in_range(call->cond_value_index(), num_values_),
                              Error::InvalidProgram, "instruction %zu: condition index out of range",
                              pc);
        EMBER_CHECK_OR_RETURN(call->destination_instruction() >= 0 &&
                                  static_cast<size_t>(call->destination_instruction()) <=
                                      num_instructions_,
                              Error::InvalidProgram, "instruction %zu: jump destination %d out of "
                              "range", pc, call->destination_instruction());
        instr = Instr{InstrKind::JumpFalse, nullptr, 0, {}, call->cond_value_index(),
                      call->destination_instruction(), "jump_false", {}};
        has_jumps_ = true;
        break;
      }
      case fb::InstructionArguments::FreeCall: {
        const auto* call = instruction->instr_args_as_FreeCall();
        EMBER_CHECK_OR_RETURN(index_in_range(call->value_index(), num_values_),
                              Error::InvalidProgram, "instruction %zu: free index out of range", pc);
        instr.a = call->value_index();
        break;
      }
      default:
        EMBER_LOG(Error, "instruction %zu has unknown kind %d", pc,
                  static_cast<int>(instruction->instr_args_type()));
        return Error::InvalidProgram;
    }
  }
  if constexpr (features::kControlFlow) return check_moves_of_readonly();
  return Error::Ok;
}

size_t Method::delegate_outputs(const Instr& instr) const {
  const Delegate& d = delegates_[instr.delegate];
  return d.backend->num_outputs(d.handle);
}

Error Method::check_delegate_outputs(const Instr& instr, size_t pc) const {
  const size_t outputs = delegate_outputs(instr);
  if (outputs == BackendInterface::kUnknownOutputs) {
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(outputs <= instr.args.size(), Error::InvalidProgram,
                        "instruction %zu (%s): the delegate writes %zu outputs, the call passes "
                        "%zu values", pc, instr.name, outputs, instr.args.size());
  for (size_t k = instr.args.size() - outputs; k < instr.args.size(); ++k) {
    EMBER_CHECK_OR_RETURN(is_writable(instr.args[k]), Error::InvalidProgram,
                          "instruction %zu (%s): output %zu (value %zu) is a constant or an "
                          "unplanned input, which the backend must not write", pc, instr.name,
                          k - (instr.args.size() - outputs),
                          static_cast<size_t>(instr.args[k] - values_));
  }
  return Error::Ok;
}

// A move makes its target alias its source; when the source is memory no
// kernel may write (a constant, the caller's input), the target must not be
// written either: not an input (set_input copies into it), a kernel's out or
// a delegate's argument (which a backend may write).
Error Method::check_moves_of_readonly() const {
  for (size_t pc = 0; pc < num_instructions_; ++pc) {
    const Instr& move = instructions_[pc];
    if (move.kind != InstrKind::Move || is_writable(&values_[move.a])) continue;
    const EValue* target = &values_[move.b];
    for (size_t k = 0; k < num_inputs_; ++k) {
      EMBER_CHECK_OR_RETURN(input_indices_[k] != move.b, Error::InvalidProgram,
                            "instruction %zu: moves read-only value %d into input %zu", pc,
                            move.a, k);
    }
    for (size_t k = 0; k < num_instructions_; ++k) {
      const Instr& user = instructions_[k];
      const size_t outputs = user.kind == InstrKind::Delegate ? delegate_outputs(user) : 0;
      for (size_t i = 0; i < user.args.size(); ++i) {
        const bool written =
            (user.kind == InstrKind::Delegate &&
             (outputs == BackendInterface::kUnknownOutputs || i + outputs >= user.args.size())) ||
            (user.kind == InstrKind::Kernel && is_out_param(*user.kernel, user.args, i));
        EMBER_CHECK_OR_RETURN(!(written && user.args[i] == target), Error::InvalidProgram,
                              "instruction %zu: moves read-only value %d into value %d, which "
                              "instruction %zu (%s) writes", pc, move.a, move.b, k, user.name);
      }
    }
  }
  return Error::Ok;
}

Error Method::refuse_concurrent_call() const {
  // last_error_ belongs to the thread inside; this one's reason goes to its
  // own last_error_message().
  EMBER_LOG(Error, "method '%s' is in use by another thread: a method runs one call at a time",
            plan_name());
  return Error::InvalidState;
}

Error Method::set_input(size_t index, const Tensor& src) {
  CallGuard guard(busy_);
  if (!guard.held()) return refuse_concurrent_call();
  return set_tensor_input(index, src);
}

const char* Method::input_name(size_t index) const { return MethodMeta(plan_).input_name(index); }

void Method::input_label(size_t index, char* label, size_t size) const {
  const char* name = input_name(index);
  if (name[0] != '\0') {
    ember::format(label, size, "input %zu (%.64s)", index, name);
  } else {
    ember::format(label, size, "input %zu", index);
  }
}

Error Method::set_tensor_input(size_t index, const Tensor& src) {
  if (index >= num_inputs_) {
    EMBER_METHOD_ERROR_("input index %zu out of range: the method takes %zu inputs",
                        index, num_inputs_);
    return Error::InvalidArgument;
  }
  char input[96];
  input_label(index, input, sizeof(input));
  EValue& value = values_[input_indices_[index]];
  if (!value.is_tensor()) {
    EMBER_METHOD_ERROR_("%s: expected %s, got Tensor", input, value.tag_name());
    return Error::InvalidArgument;
  }
  Tensor& dst = value.to_tensor();
  if (src.scalar_type() != dst.scalar_type()) {
    EMBER_METHOD_ERROR_("%s: expected dtype %s, got %s", input, scalar_type_name(dst.scalar_type()),
              scalar_type_name(src.scalar_type()));
    return Error::InvalidArgument;
  }
  if (src.dim() != dst.dim()) {
    EMBER_METHOD_ERROR_("%s: expected a tensor of rank %d, got rank %d",
                        input, dst.dim(), src.dim());
    return Error::InvalidArgument;
  }
  if (src.nbytes() > 0 && src.const_data_ptr() == nullptr) {
    EMBER_METHOD_ERROR_("%s: the tensor has %lld elements but no data", input,
              static_cast<long long>(src.numel()));
    return Error::InvalidArgument;
  }
  if (src.scalar_type() == ScalarType::Bool) {
    const int64_t bad = first_non_bool_byte(src.const_data_ptr(), src.nbytes());
    if (bad >= 0) {
      EMBER_METHOD_ERROR_("%s: bool element %lld holds %u; a bool is 0 or 1", input,
                static_cast<long long>(bad), src.const_data_ptr<uint8_t>()[bad]);
      return Error::InvalidArgument;
    }
  }
  if (dst.shape_dynamism() == TensorShapeDynamism::Static) {
    for (int d = 0; d < dst.dim(); ++d) {
      if (src.size(d) != dst.size(d)) {
        EMBER_METHOD_ERROR_("%s: dim %d must be %lld, got %lld (the model was exported with a "
                            "static shape)",
                            input, d, static_cast<long long>(dst.size(d)),
                            static_cast<long long>(src.size(d)));
        return Error::InvalidArgument;
      }
    }
  } else {
    // The program's sizes of a dynamic input are each dim's upper bound
    // (dst's own sizes follow the last input set). Dims the export kept
    // static must match exactly, when the program says which those are.
    const auto* spec = plan_->values()->Get(static_cast<flatbuffers::uoffset_t>(
                                                input_indices_[index]))->val_as_Tensor();
    const Result<MethodMeta::TensorInfo> info = MethodMeta(plan_).input_tensor_info(index);
    const uint32_t dynamic = info.ok() ? info->dynamic_dims : ~0u;
    for (int d = 0; d < dst.dim(); ++d) {
      const int64_t bound = spec->sizes()->Get(static_cast<flatbuffers::uoffset_t>(d));
      if ((dynamic >> d & 1) == 0 && src.size(d) != bound) {
        EMBER_METHOD_ERROR_("%s: dim %d must be %lld, got %lld (the model was exported with only "
                            "other dims dynamic)",
                            input, d, static_cast<long long>(bound),
                            static_cast<long long>(src.size(d)));
        return Error::InvalidArgument;
      }
      if (src.size(d) > bound) {
        EMBER_METHOD_ERROR_("%s: dim %d is %lld, past its upper bound of %lld (the model was "
                            "exported with a dynamic shape up to that size)",
                            input, d, static_cast<long long>(src.size(d)),
                            static_cast<long long>(bound));
        return Error::InvalidArgument;
      }
    }
    if (dst.resize(src.sizes()) != Error::Ok) {
      EMBER_METHOD_ERROR_("%s: shape does not fit the exported upper bounds (%zu bytes planned, "
                          "%zu given)",
                          input, dst.capacity_bytes(), src.nbytes());
      return Error::InvalidArgument;
    }
  }
  bool same_order = true;
  for (int d = 0; d < dst.dim(); ++d) {
    same_order = same_order && src.dim_order()[d] == dst.dim_order()[d];
  }
  if (dst.capacity_bytes() == 0 && dst.nbytes() > 0) {
    // Not planned: the caller's memory is used directly and must outlive
    // execute, so it must already be laid out as the program expects.
    if (!same_order) {
      EMBER_METHOD_ERROR_("%s: memory layout (dim order) differs from the exported one", input);
      return Error::InvalidArgument;
    }
    dst.set_data(src.mutable_data_ptr(), src.nbytes());
  } else if (src.const_data_ptr() != dst.const_data_ptr()) {
    copy_across_dim_orders(src, dst);
  }
  input_set_[index] = true;
  return Error::Ok;
}

Error Method::set_input(size_t index, const EValue& value) {
  CallGuard guard(busy_);
  if (!guard.held()) return refuse_concurrent_call();
  if (index >= num_inputs_) {
    EMBER_METHOD_ERROR_("input index %zu out of range: the method takes %zu inputs",
                        index, num_inputs_);
    return Error::InvalidArgument;
  }
  if (value.is_tensor()) {
    return set_tensor_input(index, value.to_tensor());
  }
  EValue& dst = values_[input_indices_[index]];
  if (dst.tag() != value.tag() || !(dst.is_int() || dst.is_double() || dst.is_bool())) {
    char input[96];
    input_label(index, input, sizeof(input));
    EMBER_METHOD_ERROR_("%s: expected %s, got %s", input, dst.tag_name(), value.tag_name());
    return Error::InvalidArgument;
  }
  dst = value;
  return Error::Ok;
}

Error Method::reset_mutable_buffer(size_t index) {
  if (index >= num_mutable_buffers_) {
    EMBER_METHOD_ERROR_("mutable buffer %zu out of range: the method has %zu",
                        index, num_mutable_buffers_);
    return Error::InvalidArgument;
  }
  const MutableBuffer& b = mutable_buffers_[index];
  if (b.nbytes > 0) std::memcpy(b.data, b.initial, b.nbytes);
  return Error::Ok;
}

Error Method::reset_mutable_buffers() {
  for (size_t i = 0; i < num_mutable_buffers_; ++i) {
    EMBER_TRY(reset_mutable_buffer(i));
  }
  return Error::Ok;
}

const char* Method::plan_name() const {
  return plan_->name() != nullptr ? plan_->name()->c_str() : "";
}

size_t Method::delegate_owned_bytes() const {
  size_t total = 0;
  for (size_t i = 0; i < num_delegates_; ++i) {
    total += delegates_[i].backend->owned_bytes(delegates_[i].handle);
  }
  return total;
}

const char* Method::instruction_name(size_t index) const {
  return index < num_instructions_ ? instructions_[index].name : "";
}

Error Method::execute() {
  CallGuard guard(busy_);
  if (!guard.held()) return refuse_concurrent_call();
  return run_instructions();
}

Error Method::run_instructions() {
  const uint64_t limit = features::kLimits ? config_.max_instructions : 0;
  if (limit != 0 && !has_jumps_ && num_instructions_ > limit) {
    EMBER_METHOD_ERROR_("the method has %zu instructions, more than the limit of %llu the "
                        "application set",
                        num_instructions_, static_cast<unsigned long long>(limit));
    return Error::InvalidState;
  }
  for (size_t i = 0; i < num_inputs_; ++i) {
    if (!input_set_[i]) {
      EMBER_METHOD_ERROR_("input %zu was not set", i);
      return Error::InvalidState;
    }
  }
  MemoryAllocator* temp = memory_manager_->temp_allocator;
  if (required_temp_bytes_ > 0 && (temp == nullptr || temp->capacity() < required_temp_bytes_)) {
    EMBER_METHOD_ERROR_("the method's kernels and delegates need %zu bytes of temp memory; the "
                        "memory manager gives %zu",
                        required_temp_bytes_, temp != nullptr ? temp->capacity() : size_t{0});
    return Error::InvalidState;
  }
  KernelContext context(temp, config_.thread_pool, &random_state_);
  EventTracer* const event_tracer = config_.event_tracer;
  size_t pc = 0;
  uint64_t executed = 0;
  while (pc < num_instructions_) {
    if (limit != 0 && executed++ == limit) {
      EMBER_METHOD_ERROR_("execute stopped at instruction %zu after %llu instructions, the limit "
                          "the application set (does the program loop forever?)",
                          pc, static_cast<unsigned long long>(limit));
      return Error::InvalidState;
    }
    const Instr& instr = instructions_[pc];
    if constexpr (features::kEventTracer) {
      if (event_tracer != nullptr) event_tracer->begin_instruction(pc);
    }
    size_t next = pc + 1;
    switch (instr.kind) {
      case InstrKind::Kernel:
        if constexpr (features::kDimOrders) copy_into_twins(instr.shims);
        instr.kernel->fn(context, instr.args);
        if (temp != nullptr) {
          temp->reset();
        }
        if (context.failed()) {
          EMBER_METHOD_ERROR_("instruction %zu (%s) failed: %s", pc, instr.name, context.message());
          return context.error();
        }
        if (features::kDimOrders && copy_out_of_twins(instr.shims) != Error::Ok) {
          EMBER_METHOD_ERROR_("instruction %zu (%s): an output does not fit its planned memory", pc,
                    instr.name);
          return Error::InvalidState;
        }
        break;
      case InstrKind::Delegate: {
        if constexpr (!features::kDelegates) break;
        const Delegate& d = delegates_[instr.delegate];
        BackendExecutionContext delegate_context(temp, config_.thread_pool, event_tracer,
                                                 plan_name());
        const Error err = d.backend->execute(delegate_context, d.handle, instr.args);
        if (temp != nullptr) {
          temp->reset();
        }
        if (err != Error::Ok) {
          EMBER_METHOD_ERROR_("instruction %zu (delegate %s) failed: %s",
                              pc, instr.name, error_name(err));
          return err;
        }
        break;
      }
      case InstrKind::Move:
        if constexpr (features::kControlFlow) values_[instr.b] = values_[instr.a];
        break;
      case InstrKind::JumpFalse: {
        if constexpr (!features::kControlFlow) break;
        const EValue& cond = values_[instr.a];
        bool truth = false;
        if (cond.is_bool()) {
          truth = cond.to_bool();
        } else if (cond.is_tensor() && cond.to_tensor().scalar_type() == ScalarType::Bool &&
                   cond.to_tensor().numel() == 1) {
          // As a byte: memory no kernel wrote (a malformed program) may
          // hold any value, and loading one that is not 0 or 1 as a bool is
          // undefined behaviour.
          truth = *cond.to_tensor().const_data_ptr<uint8_t>() != 0;
        } else {
          EMBER_METHOD_ERROR_("instruction %zu: jump condition is a %s, not a bool",
                              pc, cond.tag_name());
          return Error::InvalidProgram;
        }
        if (!truth) {
          next = static_cast<size_t>(instr.b);
        }
        break;
      }
      case InstrKind::Free:
        break;  // every tensor is planned; nothing to release
    }
    if constexpr (features::kEventTracer) {
      if (event_tracer != nullptr) event_tracer->end_instruction(pc, instr.args);
    }
    pc = next;
  }
  return Error::Ok;
}

}  // namespace ember
