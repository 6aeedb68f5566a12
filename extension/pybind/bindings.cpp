// ember._C: the Python binding of the runtime. It exchanges raw numpy arrays
// tagged with ScalarType codes; python/ember/runtime.py turns those into
// numpy arrays or torch tensors, so this module never links libtorch.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#ifdef EMBER_HAVE_VULKAN
#include "backends/vulkan/runtime/vulkan_backend.h"
#endif
#include "extension/devtools/devtools_tracer.h"
#include "extension/devtools/kernel_perturbation.h"
#include "extension/devtools/profile_report.h"
#include "extension/module/module.h"
#include "runtime/backend/backend.h"
#include "runtime/core/log.h"
#include "runtime/core/platform.h"

namespace py = pybind11;
using namespace ember;

namespace ember {
void register_llm_bindings(py::module_& m);  // llm_bindings.cpp
void register_vulkan_bindings(py::module_& m);  // backends/vulkan/pybind/vulkan_bindings.cpp
}  // namespace ember
// extension/pybind/tokenizer_bindings.cpp: ember._C.Tokenizer, StreamDecoder.
void register_tokenizer_bindings(py::module_& m);

namespace {

[[noreturn]] void raise(const std::string& what, Error error, const char* detail) {
  std::string message = what + ": " + error_name(error);
  if (detail != nullptr && detail[0] != '\0') message += ": " + std::string(detail);
  throw py::value_error(message);
}

class PyModule {
 public:
  PyModule(const std::string& path, size_t threads, size_t max_memory_bytes,
           uint64_t max_instructions) {
    clear_last_error_message();
    ModuleOptions options;
    options.num_threads = threads;
    options.max_memory_bytes = max_memory_bytes;
    options.max_instructions = max_instructions;
    Result<std::unique_ptr<Module>> loaded = Module::load(path.c_str(), options);
    if (!loaded.ok()) raise("cannot load " + path, loaded.error(), last_error_message());
    module_ = std::move(loaded.get());
    // Every method is loaded now, so that a bad one fails here and methods
    // sharing mutable buffers all see them initialised once.
    const Program& program = module_->program();
    for (size_t i = 0; i < program.num_methods(); ++i) {
      Result<const char*> name = program.method_name(i);
      if (!name.ok()) raise("cannot read the method names", name.error(), last_error_message());
      Result<Method*> method = module_->method(name.get());
      if (!method.ok()) {
        raise(std::string("cannot initialise ") + name.get(), method.error(),
              module_->last_error());
      }
      names_.emplace_back(name.get());
    }
    if (names_.empty()) raise("cannot load " + path, Error::InvalidProgram, "it has no methods");
    method_ = module_->method(default_method()).get();
  }

  const std::vector<std::string>& method_names() const { return names_; }
  // "forward" when the program has it, else its first method.
  const char* default_method() const {
    for (const std::string& name : names_) {
      if (name == "forward") return name.c_str();
    }
    return names_[0].c_str();
  }
  void reset_state() {
    const Error err = module_->reset_state();
    if (err != Error::Ok) raise("reset_state failed", err, module_->last_error());
  }

  size_t num_threads() const { return module_->num_threads(); }
  size_t method_allocator_bytes() const { return module_->method_allocator_bytes(); }
  size_t delegate_bytes() const { return module_->delegate_bytes(); }

  size_t num_inputs() const { return method_->num_inputs(); }
  size_t num_outputs() const { return method_->num_outputs(); }

  // (ScalarType code, upper-bound sizes, dynamic) of each tensor input.
  std::vector<py::tuple> input_info(const std::string& name) const {
    std::vector<py::tuple> result;
    Result<MethodMeta> meta = module_->method_meta(name.c_str());
    if (!meta.ok()) raise("no method " + name, meta.error(), nullptr);
    for (size_t i = 0; i < meta->num_inputs(); ++i) {
      Result<MethodMeta::TensorInfo> info = meta->input_tensor_info(i);
      if (!info.ok()) {
        result.push_back(py::make_tuple(py::none(), py::none(), false));
        continue;
      }
      std::vector<int32_t> sizes(info->sizes.begin(), info->sizes.end());
      result.push_back(py::make_tuple(static_cast<int>(info->dtype), sizes, info->dynamic));
    }
    return result;
  }

  size_t planned_bytes() const { return module_->planned_bytes(); }

  // inputs: (C-contiguous array, ScalarType code) pairs. Returns the outputs
  // the same way, copied out of planned memory.
  std::vector<py::tuple> run(const std::string& name,
                             const std::vector<std::pair<py::array, int>>& inputs) {
    return run_with(name, inputs, nullptr);
  }

  // Runs `runs` times with a profiling tracer of `capacity` events. Returns
  // (table, rows, events, wall-clock ns of each run, dropped events); writes
  // the Chrome trace to trace_path unless it is empty. debug_info_path (may
  // be empty) names the exporter's debug info, for nodes and source lines.
  py::tuple profile(const std::string& name, const std::vector<std::pair<py::array, int>>& inputs,
                    size_t runs, size_t capacity, const std::string& debug_info_path,
                    const std::string& trace_path) {
    DebugInfo info;
    bool have_info = false;
    if (!debug_info_path.empty()) {
      std::string error;
      if (!read_debug_info(debug_info_path, &info, &error)) throw py::value_error(error);
      have_info = true;
    }
    std::vector<TraceEvent> buffer(capacity);
    DevtoolsTracer tracer;
    tracer.set_event_buffer(Span<TraceEvent>(buffer.data(), buffer.size()));
    std::vector<TraceEvent> events;
    std::vector<uint64_t> wall;
    size_t dropped = 0;
    for (size_t r = 0; r < runs; ++r) {
      tracer.reset();
      const uint64_t start = pal_time_ns();
      run_with(name, inputs, &tracer);
      wall.push_back(pal_time_ns() - start);
      events.insert(events.end(), buffer.begin(), buffer.begin() + tracer.num_events());
      dropped += tracer.dropped_events();
    }
    const DebugInfo* debug = have_info ? &info : nullptr;
    if (!trace_path.empty()) {
      FILE* f = std::fopen(trace_path.c_str(), "w");
      if (f == nullptr) throw py::value_error("cannot write " + trace_path);
      const std::string json = chrome_trace_json(events, debug);
      const bool ok = std::fwrite(json.data(), 1, json.size(), f) == json.size();
      if (std::fclose(f) != 0 || !ok) throw py::value_error("cannot write " + trace_path);
    }
    const std::vector<ProfileRow> rows = profile_rows(events, debug, runs);
    py::list row_list;
    for (const ProfileRow& r : rows) {
      row_list.append(py::make_tuple(r.op, r.node, r.source, r.ms_per_run, r.share, r.calls));
    }
    py::list event_list;
    for (const TraceEvent& e : events) {
      event_list.append(py::make_tuple(std::string(e.name), e.start_ns, e.end_ns, e.instruction,
                                       e.debug_handle, e.thread,
                                       e.kind == TraceEventKind::DelegateOp));
    }
    return py::make_tuple(profile_table(rows, runs, dropped), row_list, event_list, wall, dropped);
  }

  // Runs once capturing, after each instruction i, the tensors at the
  // argument positions set in out_masks[i], into max_bytes of capture memory.
  // Delegates report the values their ops write too (debug handle set).
  // Returns ([(instruction, argument, array, dim order, dtype code, debug
  // handle)...], dropped tensors).
  py::tuple capture(const std::string& name, const std::vector<std::pair<py::array, int>>& inputs,
                    const std::vector<uint64_t>& out_masks, size_t max_bytes, size_t max_records) {
    std::vector<CapturedTensor> records(max_records);
    std::vector<uint8_t> data(max_bytes);
    DevtoolsTracer tracer;
    tracer.set_capture_buffers(Span<CapturedTensor>(records.data(), records.size()),
                               Span<uint8_t>(data.data(), data.size()),
                               Span<const uint64_t>(out_masks.data(), out_masks.size()));
    run_with(name, inputs, &tracer);
    py::list captured;
    for (size_t i = 0; i < tracer.num_captured(); ++i) {
      const CapturedTensor& r = tracer.captured(i);
      // The bytes lie in dim order: a row-major array of the permuted sizes,
      // which Python transposes back (ember/devtools/intermediates.py).
      std::vector<py::ssize_t> stored;
      std::vector<int> order;
      for (int d = 0; d < r.dim; ++d) {
        stored.push_back(r.sizes[r.dim_order[d]]);
        order.push_back(r.dim_order[d]);
      }
      py::array array(raw_dtype(r.dtype), stored);
      if (r.nbytes != static_cast<size_t>(array.nbytes())) continue;
      std::memcpy(array.mutable_data(), tracer.capture_data() + r.offset, r.nbytes);
      captured.append(py::make_tuple(r.instruction, r.arg, array, order, static_cast<int>(r.dtype),
                                     r.debug_handle));
    }
    return py::make_tuple(captured, tracer.dropped_captures());
  }

 private:
  std::vector<py::tuple> run_with(const std::string& name,
                                  const std::vector<std::pair<py::array, int>>& inputs,
                                  DevtoolsTracer* tracer) {
    Result<Method*> loaded = module_->method(name.c_str());
    if (!loaded.ok()) raise("no method " + name, loaded.error(), module_->last_error());
    Method* method = loaded.get();
    std::vector<HostTensor> host(inputs.size());
    std::vector<EValue> values(inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      const py::array& array = inputs[i].first;
      if (!is_valid_scalar_type(inputs[i].second)) throw py::value_error("invalid dtype code");
      const ScalarType dtype = static_cast<ScalarType>(inputs[i].second);
      if (static_cast<size_t>(array.itemsize()) != element_size(dtype)) {
        throw py::value_error("input " + std::to_string(i) + ": array item size does not match dtype");
      }
      if (array.ndim() > kTensorDimensionLimit) {
        throw py::value_error("input " + std::to_string(i) + ": " + std::to_string(array.ndim()) +
                              " dims, more than the runtime's limit of " +
                              std::to_string(kTensorDimensionLimit));
      }
      for (py::ssize_t d = 0; d < array.ndim(); ++d) {
        if (array.shape(d) > INT32_MAX) {
          throw py::value_error("input " + std::to_string(i) + ": dim " + std::to_string(d) +
                                " is " + std::to_string(array.shape(d)) +
                                ", past the runtime's largest size " + std::to_string(INT32_MAX));
        }
      }
      host[i].wrap(dtype, array);
      values[i] = EValue(&host[i].tensor);
    }
    Error err;
    {
      py::gil_scoped_release release;
      if (tracer != nullptr) {
        tracer->set_method(method);
        method->set_event_tracer(tracer);
      }
      err = module_->run(name.c_str(), Span<const EValue>(values.data(), values.size()));
      if (tracer != nullptr) method->set_event_tracer(nullptr);
    }
    if (err != Error::Ok) raise(name + " failed", err, module_->last_error());

    std::vector<py::tuple> outputs;
    for (size_t i = 0; i < method->num_outputs(); ++i) {
      const EValue& out = method->output(i);
      if (!out.is_tensor()) {
        if (out.is_int()) outputs.push_back(py::make_tuple(py::int_(out.to_int()), -1));
        else if (out.is_double()) outputs.push_back(py::make_tuple(py::float_(out.to_double()), -1));
        else if (out.is_bool()) outputs.push_back(py::make_tuple(py::bool_(out.to_bool()), -1));
        else outputs.push_back(py::make_tuple(py::none(), -1));
        continue;
      }
      // Copied out row-major, whatever dim order the program gave it.
      const Tensor& t = out.to_tensor();
      std::vector<py::ssize_t> shape(t.sizes().begin(), t.sizes().end());
      py::array array(raw_dtype(t.scalar_type()), shape);
      HostTensor host;
      host.wrap(t.scalar_type(), array);
      copy_across_dim_orders(t, host.tensor);
      outputs.push_back(py::make_tuple(array, static_cast<int>(t.scalar_type())));
    }
    return outputs;
  }

  // A row-major tensor over a C-contiguous numpy array's memory.
  struct HostTensor {
    std::vector<int32_t> sizes;
    std::vector<uint8_t> dim_order;
    std::vector<int32_t> strides;
    Tensor tensor;

    void wrap(ScalarType dtype, const py::array& array) {
      for (py::ssize_t d = 0; d < array.ndim(); ++d) {
        sizes.push_back(static_cast<int32_t>(array.shape(d)));
        dim_order.push_back(static_cast<uint8_t>(d));
      }
      strides.resize(sizes.size());
      tensor = Tensor(dtype, static_cast<int>(sizes.size()), sizes.data(), dim_order.data(),
                      strides.data(), const_cast<void*>(array.data()),
                      static_cast<size_t>(array.nbytes()));
    }
  };

  // A numpy dtype with the right item size; Half and BFloat16 travel as
  // 16-bit integers and are reinterpreted in Python.
  static py::dtype raw_dtype(ScalarType type) {
    switch (type) {
      case ScalarType::Float: return py::dtype::of<float>();
      case ScalarType::Double: return py::dtype::of<double>();
      case ScalarType::Long: return py::dtype::of<int64_t>();
      case ScalarType::Int: return py::dtype::of<int32_t>();
      case ScalarType::Short: return py::dtype::of<int16_t>();
      case ScalarType::Char: return py::dtype::of<int8_t>();
      case ScalarType::Byte: return py::dtype::of<uint8_t>();
      case ScalarType::Bool: return py::dtype::of<bool>();
      case ScalarType::ComplexFloat: return py::dtype("complex64");
      case ScalarType::ComplexDouble: return py::dtype("complex128");
      default: break;
    }
    switch (element_size(type)) {
      case 1: return py::dtype::of<uint8_t>();
      case 2: return py::dtype::of<uint16_t>();
      case 4: return py::dtype::of<uint32_t>();
      default: return py::dtype::of<uint64_t>();
    }
  }

  std::unique_ptr<Module> module_;
  Method* method_ = nullptr;  // the default method
  std::vector<std::string> names_;
};

// Runs `backend`'s init on `blob` (then destroy) as a program load would, on
// a throwaway context: None when init accepts it, else (error name, init's
// reason). The exporter runs it on every blob it makes, so that it never
// emits one the runtime refuses. The GIL stays held: the log threshold is
// process-wide, and quietening it is only safe while no other caller of
// this function can run.
py::object validate_delegate_blob(const std::string& name, const py::bytes& blob,
                                  const std::map<std::string, py::bytes>& specs) {
  const BackendInterface* backend = find_backend(name.c_str());
  if (backend == nullptr) {
    return py::make_tuple("NotFound", "backend '" + name + "' is not linked into ember._C");
  }
  // A segment's alignment: backends may read constants in place.
  char* bytes = nullptr;
  Py_ssize_t size = 0;
  if (PyBytes_AsStringAndSize(blob.ptr(), &bytes, &size) != 0) throw py::error_already_set();
  auto* data = static_cast<uint8_t*>(::operator new(static_cast<size_t>(size) + 1,
                                                    std::align_val_t{64}));
  std::memcpy(data, bytes, static_cast<size_t>(size));
  FreeableBuffer processed(data, static_cast<size_t>(size), [](void*, void* p, size_t) {
    ::operator delete(p, std::align_val_t{64});
  });
  std::vector<std::string> keys;
  std::vector<std::string> values;
  for (const auto& [key, value] : specs) {
    keys.push_back(key);
    values.push_back(static_cast<std::string>(value));
  }
  std::vector<CompileSpec> compile_specs;
  for (size_t i = 0; i < keys.size(); ++i) {
    compile_specs.push_back({keys[i].c_str(),
                             Span<const uint8_t>(reinterpret_cast<const uint8_t*>(values[i].data()),
                                                 values[i].size())});
  }
  std::vector<uint8_t> method_memory(4 << 20);
  MemoryAllocator allocator(method_memory.data(), method_memory.size());
  BackendInitContext context(&allocator, nullptr, nullptr, "forward");
  const LogLevel threshold = log_threshold();
  set_log_threshold(LogLevel::Fatal);  // the reason is returned, not printed
  clear_last_error_message();
  Result<DelegateHandle*> handle = backend->init(
      context, &processed, Span<const CompileSpec>(compile_specs.data(), compile_specs.size()));
  set_log_threshold(threshold);
  if (!handle.ok()) return py::make_tuple(error_name(handle.error()), last_error_message());
  backend->destroy(handle.get());
  return py::none();
}

}  // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "Ember runtime binding (use ember.runtime instead)";
  // The backends this build links, registered explicitly, in this order.
  cpu::register_cpu_backend();
#ifdef EMBER_HAVE_VULKAN
  vulkan::register_vulkan_backend();
  register_vulkan_bindings(m);
#endif
  py::class_<PyModule>(m, "Module")
      .def(py::init<const std::string&, size_t, size_t, uint64_t>(), py::arg("path"),
           py::arg("threads") = 0, py::arg("max_memory_bytes") = 0,
           py::arg("max_instructions") = 0)
      .def_property_readonly("num_threads", &PyModule::num_threads)
      .def_property_readonly("method_allocator_bytes", &PyModule::method_allocator_bytes)
      .def_property_readonly("delegate_bytes", &PyModule::delegate_bytes)
      .def_property_readonly("num_inputs", &PyModule::num_inputs)
      .def_property_readonly("num_outputs", &PyModule::num_outputs)
      .def_property_readonly("planned_bytes", &PyModule::planned_bytes)
      .def_property_readonly("method_names", &PyModule::method_names)
      .def_property_readonly("default_method", &PyModule::default_method)
      .def("input_info", &PyModule::input_info, py::arg("name"))
      .def("reset_state", &PyModule::reset_state)
      .def("run", &PyModule::run)
      .def("profile", &PyModule::profile)
      .def("capture", &PyModule::capture);
  // Test-only fault injection (extension/devtools/kernel_perturbation.h).
  m.def("perturb_kernel", [](const std::string& name, float delta) {
    const Error err = perturb_kernel(name.c_str(), delta);
    if (err != Error::Ok) raise("cannot perturb " + name, err, last_error_message());
  });
  m.def("restore_perturbed_kernel", &restore_perturbed_kernel);
  register_llm_bindings(m);
  m.def("registered_kernels", []() {
    std::vector<std::string> names;
    for (size_t i = 0; i < num_registered_kernels(); ++i) names.push_back(registered_kernel(i)->name);
    return names;
  });
  // Kernel name -> names of the dtypes its self argument may have (None when
  // it takes no tensor input), as declared at registration.
  m.def("kernel_dtypes", []() {
    py::dict result;
    for (size_t i = 0; i < num_registered_kernels(); ++i) {
      const KernelEntry* entry = registered_kernel(i);
      if (entry->self_index < 0) {
        result[entry->name] = py::none();
        continue;
      }
      py::list names;
      for (int code = 0; code < 64; ++code) {
        const auto type = static_cast<ScalarType>(code);
        if (is_valid_scalar_type(code) && mask_contains(entry->self_dtypes, type)) {
          names.append(scalar_type_name(type));
        }
      }
      result[entry->name] = names;
    }
    return result;
  });
  m.def("registered_backends", []() {
    std::vector<std::string> names;
    for (size_t i = 0; i < num_registered_backends(); ++i) names.push_back(registered_backend_name(i));
    return names;
  });
  m.def("validate_delegate_blob", &validate_delegate_blob, py::arg("backend"), py::arg("blob"),
        py::arg("compile_specs") = std::map<std::string, py::bytes>());
  m.def("set_log_level", [](int level) { set_log_threshold(static_cast<LogLevel>(level)); });
  register_tokenizer_bindings(m);
}
