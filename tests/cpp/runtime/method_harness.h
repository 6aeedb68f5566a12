// Test helpers that drive Program and Method directly, the way a heap-free
// application does: the golden .pte files with their inputs and expected
// outputs, and a method that owns its MemoryManager and arenas.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/tensor.h"
#include "runtime/executor/file_data_loader.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "tools/npy.h"

namespace ember::testing {

// The source tree, where tests/compat lives (set by tests/cpp/CMakeLists.txt).
inline std::string source_path(const std::string& relative) {
  return std::string(EMBER_SOURCE_DIR) + "/" + relative;
}

// A .npy array as a tensor (shape and strides owned here, data borrowed).
class NpyTensor {
 public:
  explicit NpyTensor(tools::NpyArray& array) : sizes_(array.shape), strides_(sizes_.size()) {
    for (size_t d = 0; d < sizes_.size(); ++d) dim_order_.push_back(static_cast<uint8_t>(d));
    tensor_ = std::make_unique<Tensor>(array.dtype, static_cast<int>(sizes_.size()), sizes_.data(),
                                       dim_order_.data(), strides_.data(), array.data.data(),
                                       array.data.size());
  }
  const Tensor& tensor() const { return *tensor_; }

 private:
  std::vector<int32_t> sizes_;
  std::vector<uint8_t> dim_order_;
  std::vector<int32_t> strides_;
  std::unique_ptr<Tensor> tensor_;
};

// A golden program (tests/compat/<name>.pte) loaded once, with the inputs
// and eager PyTorch outputs saved beside it (<name>.npz: input_0.., expected_0..).
struct Golden {
  std::unique_ptr<FileDataLoader> loader;
  std::unique_ptr<Program> program;
  std::vector<tools::NpyArray> inputs;
  std::vector<tools::NpyArray> expected;

  // Empty on success, else why it failed.
  std::string load(const std::string& name) {
    const std::string base = source_path("tests/compat/" + name);
    Result<FileDataLoader> file = FileDataLoader::from((base + ".pte").c_str());
    if (!file.ok()) return "cannot open " + base + ".pte";
    loader = std::make_unique<FileDataLoader>(std::move(*file));
    Result<Program> loaded = Program::load(loader.get());
    if (!loaded.ok()) return base + ".pte does not load: " + error_name(loaded.error());
    program = std::make_unique<Program>(std::move(*loaded));
    std::vector<std::pair<std::string, tools::NpyArray>> arrays;
    std::string error;
    if (!tools::read_npz(base + ".npz", &arrays, &error)) return error;
    // np.savez keeps keyword order, but sort by name so input_10 is not a surprise.
    for (const char* prefix : {"input_", "expected_"}) {
      std::vector<tools::NpyArray>& into = prefix[0] == 'i' ? inputs : expected;
      for (size_t i = 0;; ++i) {
        const std::string key = prefix + std::to_string(i);
        size_t found = arrays.size();
        for (size_t k = 0; k < arrays.size(); ++k) {
          if (arrays[k].first == key) found = k;
        }
        if (found == arrays.size()) break;
        into.push_back(std::move(arrays[found].second));
      }
    }
    if (inputs.empty() || expected.empty()) return base + ".npz has no input_0 or expected_0";
    return "";
  }
};

// One loaded method with everything it needs: method tables, the planned
// arenas, temp memory for delegates. Movable only as a whole (unique_ptr),
// since the method keeps pointers into the rest.
struct OwnedMethod {
  std::vector<uint8_t> table_memory;
  std::unique_ptr<MemoryAllocator> method_allocator;
  std::vector<std::vector<uint8_t>> arenas;
  std::vector<Span<uint8_t>> arena_spans;
  std::vector<uint8_t> temp_memory;
  std::unique_ptr<MemoryAllocator> temp_allocator;
  MemoryManager manager;
  std::unique_ptr<Method> method;

  // Null (with `error` set) when the method does not load.
  static std::unique_ptr<OwnedMethod> load(const Program& program, const MethodConfig& config,
                                           std::string* error, const char* name = "forward") {
    Result<MethodMeta> meta = program.method_meta(name);
    if (!meta.ok()) {
      *error = std::string("no method ") + name;
      return nullptr;
    }
    auto owned = std::make_unique<OwnedMethod>();
    // Layout twins and delegate handles come on top of the tables' bound.
    owned->table_memory.resize(meta->method_table_bytes() + 256 * 1024);
    owned->method_allocator = std::make_unique<MemoryAllocator>(owned->table_memory.data(),
                                                                owned->table_memory.size());
    for (size_t i = 0; i < meta->num_planned_buffers(); ++i) {
      owned->arenas.emplace_back(meta->planned_buffer_size(i));
    }
    for (std::vector<uint8_t>& arena : owned->arenas) {
      owned->arena_spans.emplace_back(arena.data(), arena.size());
    }
    owned->manager.method_allocator = owned->method_allocator.get();
    owned->manager.planned_buffers =
        Span<Span<uint8_t>>(owned->arena_spans.data(), owned->arena_spans.size());
    Result<Method> method = program.load_method(name, &owned->manager, config);
    if (!method.ok()) {
      *error = std::string("load_method failed: ") + error_name(method.error());
      return nullptr;
    }
    owned->method = std::make_unique<Method>(std::move(*method));
    if (owned->method->required_temp_bytes() > 0) {
      owned->temp_memory.resize(owned->method->required_temp_bytes());
      owned->temp_allocator = std::make_unique<MemoryAllocator>(owned->temp_memory.data(),
                                                                owned->temp_memory.size());
      owned->manager.temp_allocator = owned->temp_allocator.get();
    }
    return owned;
  }
};

// The bytes of every tensor output, concatenated: what "equal outputs" means.
inline std::vector<uint8_t> output_bytes(const Method& method) {
  std::vector<uint8_t> bytes;
  for (size_t i = 0; i < method.num_outputs(); ++i) {
    const EValue& out = method.output(i);
    if (!out.is_tensor()) continue;
    const uint8_t* p = static_cast<const uint8_t*>(out.to_tensor().const_data_ptr());
    bytes.insert(bytes.end(), p, p + out.to_tensor().nbytes());
  }
  return bytes;
}

}  // namespace ember::testing
