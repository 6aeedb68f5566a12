// ember._C: the Python binding of the runtime. It exchanges raw numpy arrays
// tagged with ScalarType codes; python/ember/runtime.py turns those into
// numpy arrays or torch tensors, so this module never links libtorch.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include "backends/cpu/runtime/cpu_backend.h"
#include "extension/module/module.h"
#include "runtime/backend/backend.h"
#include "runtime/core/log.h"

namespace py = pybind11;
using namespace ember;

namespace ember {
void register_llm_bindings(py::module_& m);  // llm_bindings.cpp
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
  PyModule(const std::string& path, size_t threads) {
    clear_last_error_message();
    ModuleOptions options;
    options.num_threads = threads;
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
        throw py::value_error("input " + std::to_string(i) + ": too many dimensions");
      }
      host[i].wrap(dtype, array);
      values[i] = EValue(&host[i].tensor);
    }
    Error err;
    {
      py::gil_scoped_release release;
      err = module_->run(name.c_str(), Span<const EValue>(values.data(), values.size()));
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

 private:
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

}  // namespace

PYBIND11_MODULE(_C, m) {
  m.doc() = "Ember runtime binding (use ember.runtime instead)";
  // The backends this build links, registered explicitly, in this order.
  cpu::register_cpu_backend();
  py::class_<PyModule>(m, "Module")
      .def(py::init<const std::string&, size_t>(), py::arg("path"), py::arg("threads") = 0)
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
      .def("run", &PyModule::run);
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
  m.def("set_log_level", [](int level) { set_log_threshold(static_cast<LogLevel>(level)); });
  register_tokenizer_bindings(m);
}
