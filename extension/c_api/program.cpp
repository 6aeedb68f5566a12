// The program and method entry points of the C ABI (ember.h, "programs" and
// "methods"), over the C++ Module.
#include "extension/c_api/program.h"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/c_api/options.h"
#include "extension/c_api/status.h"
#include "runtime/core/log.h"

namespace ember::c_api {

ember_status begin_load(const ember_load_options* given, const char* function,
                        ModuleOptions* options, uint32_t* flags) {
  ember_load_options o = EMBER_LOAD_OPTIONS_INIT;
  const ember_status status =
      read_struct(given, "ember_load_options", "EMBER_LOAD_OPTIONS_INIT", &o);
  if (status != EMBER_OK) return status;
  constexpr uint32_t kKnownFlags = EMBER_LOAD_NO_MMAP | EMBER_LOAD_BORROW_BUFFER;
  if ((o.flags & ~kKnownFlags) != 0 || o.reserved != 0) {
    return fail(EMBER_ERROR_NOT_SUPPORTED,
                "%s: ember_load_options sets flags 0x%x / reserved %u that this libember (ABI "
                "%d.%d) does not know", function, o.flags & ~kKnownFlags, o.reserved,
                EMBER_ABI_VERSION_MAJOR, EMBER_ABI_VERSION_MINOR);
  }
  constexpr uint32_t kMaxThreads = 1024;  // a pool that size is a mistake, not a setting
  if (o.num_threads > kMaxThreads) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: num_threads is %u, more than %u", function,
                o.num_threads, kMaxThreads);
  }
  options->num_threads = o.num_threads;
  options->max_memory_bytes = o.max_memory_bytes > SIZE_MAX
                                  ? SIZE_MAX
                                  : static_cast<size_t>(o.max_memory_bytes);
  options->max_instructions = o.max_instructions;
  options->load_mode =
      (o.flags & EMBER_LOAD_NO_MMAP) != 0 ? ModuleOptions::LoadMode::File : ModuleOptions::LoadMode::Mmap;
  *flags = o.flags;
  cpu::register_cpu_backend();
  clear_last_error_message();
  return EMBER_OK;
}

namespace {

ember_status finish_load(Result<std::unique_ptr<Module>> module, std::unique_ptr<uint8_t[]> bytes,
                         const char* what, ember_program** out) {
  if (!module.ok()) return fail_runtime(module.error(), what);
  auto* program = new (std::nothrow) ember_program();
  if (program == nullptr) return fail(EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "%s: out of memory", what);
  program->bytes = std::move(bytes);
  program->module = std::move(module.get());
  *out = program;
  return EMBER_OK;
}

// A metadata handle for value `info` (dtype and upper-bound sizes, no data).
void set_meta(ember_tensor& handle, const MethodMeta::TensorInfo& info) {
  handle.kind = ember_tensor::Kind::Meta;
  handle.set(info.dtype, info.sizes.data(), static_cast<int>(info.sizes.size()), nullptr, 0);
}

// Builds the handle of a loaded method.
ember_method* make_method(ember_program* program, const char* name, Method* method,
                          MethodMeta meta) {
  auto* m = new (std::nothrow) ember_method(meta);
  if (m == nullptr) return nullptr;
  m->program = program;
  m->name = name;
  m->method = method;
  m->num_inputs = method->num_inputs();
  m->num_outputs = method->num_outputs();
  m->bound_tensors.reset(new ember_tensor[m->num_inputs]);
  m->inputs.resize(m->num_inputs);
  m->input_meta.reset(new ember_tensor[m->num_inputs]);
  m->input_is_tensor.reset(new bool[m->num_inputs]);
  for (size_t i = 0; i < m->num_inputs; ++i) {
    Result<MethodMeta::TensorInfo> info = meta.input_tensor_info(i);
    m->input_is_tensor[i] = info.ok();
    if (info.ok()) set_meta(m->input_meta[i], info.get());
  }
  m->output_meta.reset(new ember_tensor[m->num_outputs]);
  m->output_is_tensor.reset(new bool[m->num_outputs]);
  m->outputs.reset(new ember_tensor[m->num_outputs]);
  for (size_t i = 0; i < m->num_outputs; ++i) {
    Result<MethodMeta::TensorInfo> info = meta.output_tensor_info(i);
    m->output_is_tensor[i] = info.ok();
    if (info.ok()) set_meta(m->output_meta[i], info.get());
    m->outputs[i].kind = ember_tensor::Kind::Output;
  }
  return m;
}

ember_status check_index(size_t index, size_t count, const char* function, const char* what,
                         const ember_method* method) {
  if (index < count) return EMBER_OK;
  return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: method '%s' has %zu %s%s, no index %zu", function,
              method->name.c_str(), count, what, count == 1 ? "" : "s", index);
}

ember_status not_a_tensor(const char* function, const char* what, size_t index,
                          const ember_method* method) {
  return fail(EMBER_ERROR_INVALID_TYPE, "%s: %s %zu of '%s' is not a tensor", function, what,
              index, method->name.c_str());
}

// The metadata tensor of input or output `index`.
ember_status value_meta(const ember_method* method, size_t index, bool input,
                        const char* function, const ember_tensor** out) {
  EMBER_C_REQUIRE(method, function);
  EMBER_C_REQUIRE(out, function);
  const char* what = input ? "input" : "output";
  ember_status status =
      check_index(index, input ? method->num_inputs : method->num_outputs, function, what, method);
  if (status != EMBER_OK) return status;
  if (!(input ? method->input_is_tensor : method->output_is_tensor)[index]) {
    return not_a_tensor(function, what, index, method);
  }
  *out = &(input ? method->input_meta : method->output_meta)[index];
  return EMBER_OK;
}

// Output `index` of the last execute exists.
ember_status check_output(const ember_method* method, size_t index, const char* function) {
  ember_status status = check_index(index, method->num_outputs, function, "output", method);
  if (status != EMBER_OK) return status;
  if (!method->executed) {
    return fail(EMBER_ERROR_INVALID_STATE, "%s: '%s' has not executed yet", function,
                method->name.c_str());
  }
  return EMBER_OK;
}

// Whether `t` fits input `index` as the method declares it: the dtype and
// rank, static dims exactly and dynamic dims within their bound.
ember_status check_input(const ember_method* m, size_t index, const Tensor& t) {
  constexpr const char* kFn = "ember_method_set_input";
  const MethodMeta::TensorInfo info = m->meta.input_tensor_info(index).get();
  if (t.dtype() != info.dtype) {
    return fail(EMBER_ERROR_INVALID_TYPE, "%s: input %zu of '%s' is %s, the tensor is %s", kFn,
                index, m->name.c_str(), scalar_type_name(info.dtype), scalar_type_name(t.dtype()));
  }
  if (static_cast<size_t>(t.dim()) != info.sizes.size()) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: input %zu of '%s' has %zu dims, the tensor %d",
                kFn, index, m->name.c_str(), info.sizes.size(), t.dim());
  }
  for (size_t d = 0; d < info.sizes.size(); ++d) {
    const int64_t size = t.size(static_cast<int64_t>(d));
    const bool dynamic = info.dynamic && (info.dynamic_dims >> d & 1u) != 0;
    if (dynamic ? size > info.sizes[d] : size != info.sizes[d]) {
      return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: input %zu of '%s': dim %zu is %lld, %s %d",
                  kFn, index, m->name.c_str(), d, static_cast<long long>(size),
                  dynamic ? "its upper bound is" : "the method takes", info.sizes[d]);
    }
  }
  return EMBER_OK;
}

}  // namespace
}  // namespace ember::c_api

using ember::c_api::check_index;
using ember::c_api::fail;
using ember::c_api::not_a_tensor;
using ember::c_api::fail_runtime;

extern "C" {

ember_status ember_program_load_file(const char* path, const ember_load_options* options,
                                     ember_program** out) {
  constexpr const char* kFn = "ember_program_load_file";
  EMBER_C_REQUIRE(path, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember::ModuleOptions module_options;
  uint32_t flags = 0;
  ember_status status = ember::c_api::begin_load(options, kFn, &module_options, &flags);
  if (status != EMBER_OK) return status;
  char what[512];
  std::snprintf(what, sizeof(what), "%s: cannot load %s", kFn, path);
  return ember::c_api::finish_load(ember::Module::load(path, module_options), nullptr, what, out);
}

ember_status ember_program_load_buffer(const void* data, size_t size,
                                       const ember_load_options* options, ember_program** out) {
  constexpr const char* kFn = "ember_program_load_buffer";
  EMBER_C_REQUIRE(data, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember::ModuleOptions module_options;
  uint32_t flags = 0;
  ember_status status = ember::c_api::begin_load(options, kFn, &module_options, &flags);
  if (status != EMBER_OK) return status;
  std::unique_ptr<uint8_t[]> copy;
  if ((flags & EMBER_LOAD_BORROW_BUFFER) == 0) {
    // 64-byte aligned, as a mapped file is: delegates read their constants
    // in place and refuse a misaligned blob, and malloc aligns to 8 bytes on
    // some targets (WebAssembly).
    constexpr size_t kAlign = 64;
    if (size > SIZE_MAX - kAlign) {
      return fail(EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "%s: %zu bytes is too large", kFn, size);
    }
    copy.reset(new (std::nothrow) uint8_t[size + kAlign]);
    if (copy == nullptr) {
      return fail(EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "%s: no memory for a copy of %zu bytes",
                  kFn, size);
    }
    uint8_t* aligned =
        copy.get() + (kAlign - reinterpret_cast<uintptr_t>(copy.get()) % kAlign) % kAlign;
    std::memcpy(aligned, data, size);
    data = aligned;
  }
  char what[128];
  std::snprintf(what, sizeof(what), "%s: cannot load %zu bytes", kFn, size);
  return ember::c_api::finish_load(ember::Module::load_buffer(data, size, module_options),
                                   std::move(copy), what, out);
}

void ember_program_destroy(ember_program* program) { delete program; }

ember_status ember_program_num_methods(const ember_program* program, size_t* out) {
  EMBER_C_REQUIRE(program, "ember_program_num_methods");
  EMBER_C_REQUIRE(out, "ember_program_num_methods");
  *out = program->module->program().num_methods();
  return EMBER_OK;
}

ember_status ember_program_method_name(const ember_program* program, size_t index,
                                       const char** out) {
  constexpr const char* kFn = "ember_program_method_name";
  EMBER_C_REQUIRE(program, kFn);
  EMBER_C_REQUIRE(out, kFn);
  const size_t count = program->module->program().num_methods();
  if (index >= count) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: the program has %zu methods, no index %zu", kFn,
                count, index);
  }
  ember::Result<const char*> name = program->module->program().method_name(index);
  if (!name.ok()) return fail_runtime(name.error(), kFn);
  *out = name.get();
  return EMBER_OK;
}

ember_status ember_program_get_method(ember_program* program, const char* name,
                                      ember_method** out) {
  constexpr const char* kFn = "ember_program_get_method";
  EMBER_C_REQUIRE(program, kFn);
  EMBER_C_REQUIRE(name, kFn);
  EMBER_C_REQUIRE(out, kFn);
  std::lock_guard<std::mutex> lock(program->mutex);
  for (const auto& m : program->methods) {
    if (m->name == name) {
      *out = m.get();
      return EMBER_OK;
    }
  }
  ember::Result<ember::MethodMeta> meta = program->module->method_meta(name);
  if (!meta.ok()) {
    return fail(EMBER_ERROR_NOT_FOUND, "%s: the program has no method named '%s'", kFn, name);
  }
  ember::clear_last_error_message();
  ember::Result<ember::Method*> method = program->module->method(name);
  if (!method.ok()) {
    char what[320];
    std::snprintf(what, sizeof(what), "%s: cannot load method '%s'", kFn, name);
    return fail_runtime(method.error(), what, program->module->last_error());
  }
  ember_method* m = ember::c_api::make_method(program, name, method.get(), meta.get());
  if (m == nullptr) return fail(EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "%s: out of memory", kFn);
  program->methods.emplace_back(m);
  *out = m;
  return EMBER_OK;
}

ember_status ember_program_reset_state(ember_program* program) {
  EMBER_C_REQUIRE(program, "ember_program_reset_state");
  const ember::Error err = program->module->reset_state();
  if (err != ember::Error::Ok) {
    return fail_runtime(err, "ember_program_reset_state", program->module->last_error());
  }
  return EMBER_OK;
}

ember_status ember_program_num_threads(const ember_program* program, size_t* out) {
  EMBER_C_REQUIRE(program, "ember_program_num_threads");
  EMBER_C_REQUIRE(out, "ember_program_num_threads");
  *out = program->module->num_threads();
  return EMBER_OK;
}

ember_status ember_method_num_inputs(const ember_method* method, size_t* out) {
  EMBER_C_REQUIRE(method, "ember_method_num_inputs");
  EMBER_C_REQUIRE(out, "ember_method_num_inputs");
  *out = method->num_inputs;
  return EMBER_OK;
}

ember_status ember_method_num_outputs(const ember_method* method, size_t* out) {
  EMBER_C_REQUIRE(method, "ember_method_num_outputs");
  EMBER_C_REQUIRE(out, "ember_method_num_outputs");
  *out = method->num_outputs;
  return EMBER_OK;
}

ember_status ember_method_input_name(const ember_method* method, size_t index, const char** out) {
  constexpr const char* kFn = "ember_method_input_name";
  EMBER_C_REQUIRE(method, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember_status status = check_index(index, method->num_inputs, kFn, "input", method);
  if (status != EMBER_OK) return status;
  *out = method->meta.input_name(index);
  return EMBER_OK;
}

ember_status ember_method_input_meta(const ember_method* method, size_t index,
                                     const ember_tensor** out) {
  return ember::c_api::value_meta(method, index, true, "ember_method_input_meta", out);
}

ember_status ember_method_output_meta(const ember_method* method, size_t index,
                                      const ember_tensor** out) {
  return ember::c_api::value_meta(method, index, false, "ember_method_output_meta", out);
}

ember_status ember_method_set_input(ember_method* method, size_t index,
                                    const ember_tensor* tensor) {
  constexpr const char* kFn = "ember_method_set_input";
  EMBER_C_REQUIRE(method, kFn);
  EMBER_C_REQUIRE(tensor, kFn);
  ember_status status = check_index(index, method->num_inputs, kFn, "input", method);
  if (status != EMBER_OK) return status;
  if (!method->input_is_tensor[index]) return not_a_tensor(kFn, "input", index, method);
  if (tensor->kind == ember_tensor::Kind::Meta) {
    return fail(EMBER_ERROR_INVALID_ARGUMENT, "%s: a metadata tensor has no data to run on", kFn);
  }
  const ember::Tensor& t = tensor->get();
  status = ember::c_api::check_input(method, index, t);
  if (status != EMBER_OK) return status;
  ember_tensor& bound = method->bound_tensors[index];
  int32_t sizes[EMBER_MAX_RANK];
  for (int d = 0; d < t.dim(); ++d) sizes[d] = static_cast<int32_t>(t.size(d));
  bound.set(t.dtype(), sizes, t.dim(), t.mutable_data_ptr(), t.nbytes());
  if (!t.is_contiguous_dim_order()) {
    // An output view fed back in keeps its layout: the runtime converts it.
    for (int d = 0; d < t.dim(); ++d) bound.dim_order[d] = t.dim_order()[d];
    bound.own = ember::Tensor(t.dtype(), t.dim(), bound.sizes, bound.dim_order, bound.strides,
                              t.mutable_data_ptr(), t.nbytes());
  }
  method->inputs[index] = ember::EValue(&bound.own);
  return EMBER_OK;
}

ember_status ember_method_execute(ember_method* method) {
  constexpr const char* kFn = "ember_method_execute";
  EMBER_C_REQUIRE(method, kFn);
  for (size_t i = 0; i < method->num_inputs; ++i) {
    if (!method->inputs[i].is_tensor()) {
      return fail(EMBER_ERROR_INVALID_STATE, "%s: input %zu of '%s' is not bound "
                  "(ember_method_set_input)", kFn, i, method->name.c_str());
    }
  }
  ember::Module& module = *method->program->module;
  method->executed = false;
  const ember::Error err = module.run(
      method->name.c_str(),
      ember::Span<const ember::EValue>(method->inputs.data(), method->inputs.size()));
  if (err != ember::Error::Ok) {
    char what[320];
    std::snprintf(what, sizeof(what), "%s: '%s' failed", kFn, method->name.c_str());
    return fail_runtime(err, what, module.last_error());
  }
  for (size_t i = 0; i < method->num_outputs; ++i) {
    const ember::EValue& value = method->method->output(i);
    method->outputs[i].view = value.is_tensor() ? &value.to_tensor() : nullptr;
  }
  method->executed = true;
  return EMBER_OK;
}

ember_status ember_method_get_output(const ember_method* method, size_t index,
                                     const ember_tensor** out) {
  constexpr const char* kFn = "ember_method_get_output";
  EMBER_C_REQUIRE(method, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember_status status = ember::c_api::check_output(method, index, kFn);
  if (status != EMBER_OK) return status;
  if (method->outputs[index].view == nullptr) return not_a_tensor(kFn, "output", index, method);
  *out = &method->outputs[index];
  return EMBER_OK;
}

ember_status ember_method_get_output_int(const ember_method* method, size_t index, int64_t* out) {
  constexpr const char* kFn = "ember_method_get_output_int";
  EMBER_C_REQUIRE(method, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember_status status = ember::c_api::check_output(method, index, kFn);
  if (status != EMBER_OK) return status;
  const ember::EValue& value = method->method->output(index);
  if (!value.is_int() && !value.is_bool()) {
    return fail(EMBER_ERROR_INVALID_TYPE, "%s: output %zu of '%s' is not an int or a bool", kFn,
                index, method->name.c_str());
  }
  *out = value.is_int() ? value.to_int() : static_cast<int64_t>(value.to_bool());
  return EMBER_OK;
}

ember_status ember_method_memory_bytes(const ember_method* method, size_t* out) {
  EMBER_C_REQUIRE(method, "ember_method_memory_bytes");
  EMBER_C_REQUIRE(out, "ember_method_memory_bytes");
  *out = method->program->module->memory_bytes(method->name.c_str());
  return EMBER_OK;
}

ember_status ember_method_input_dynamic_dims(const ember_method* method, size_t index,
                                             uint32_t* out) {
  constexpr const char* kFn = "ember_method_input_dynamic_dims";
  EMBER_C_REQUIRE(method, kFn);
  EMBER_C_REQUIRE(out, kFn);
  ember_status status = check_index(index, method->num_inputs, kFn, "input", method);
  if (status != EMBER_OK) return status;
  if (!method->input_is_tensor[index]) return not_a_tensor(kFn, "input", index, method);
  const ember::MethodMeta::TensorInfo info = method->meta.input_tensor_info(index).get();
  *out = info.dynamic ? info.dynamic_dims : 0u;
  return EMBER_OK;
}

}  // extern "C"
