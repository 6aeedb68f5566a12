#include "extension/module/module.h"

#include <algorithm>
#include <cstring>

#include "runtime/core/log.h"
#include "runtime/executor/file_data_loader.h"

namespace ember {

Result<std::unique_ptr<Module>> Module::load(const char* path, LoadMode mode) {
  std::unique_ptr<DataLoader> loader;
  if (mode == LoadMode::Mmap) {
    Result<MmapDataLoader> l = MmapDataLoader::from(path);
    if (!l.ok()) {
      return l.error();
    }
    loader = std::make_unique<MmapDataLoader>(std::move(l.get()));
  } else {
    Result<FileDataLoader> l = FileDataLoader::from(path);
    if (!l.ok()) {
      return l.error();
    }
    loader = std::make_unique<FileDataLoader>(std::move(l.get()));
  }
  return from_loader(std::move(loader));
}

Result<std::unique_ptr<Module>> Module::load_buffer(const void* data, size_t size) {
  return from_loader(std::make_unique<BufferDataLoader>(data, size));
}

Result<std::unique_ptr<Module>> Module::from_loader(std::unique_ptr<DataLoader> loader) {
  Result<Program> program = Program::load(loader.get());
  if (!program.ok()) {
    return program.error();
  }
  std::unique_ptr<Module> module(new Module());
  module->loader_ = std::move(loader);
  module->program_ = std::make_unique<Program>(std::move(program.get()));
  return module;
}

void Module::set_last_error(const char* message) {
  last_error_.assign(message, message + std::strlen(message) + 1);
}

Result<Method*> Module::method(const char* name) {
  for (auto& m : methods_) {
    if (m->name == name) {
      return m->method.get();
    }
  }
  Result<MethodMeta> meta = program_->method_meta(name);
  if (!meta.ok()) {
    set_last_error("no such method");
    return meta.error();
  }
  auto loaded = std::make_unique<LoadedMethod>();
  loaded->name = name;
  for (size_t i = 0; i < meta->num_planned_buffers(); ++i) {
    // Planned tensors are 16-byte aligned within an arena; 64 suits SIMD.
    loaded->arenas.emplace_back(meta->planned_buffer_size(i) + 64);
    uint8_t* base = loaded->arenas.back().data();
    const size_t shift = (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64;
    loaded->arena_spans.emplace_back(base + shift, meta->planned_buffer_size(i));
  }
  // The method's tables take a few times the flatbuffer's size (values,
  // tensors, argument lists); start there and grow if that was not enough.
  const size_t first_guess = std::max<size_t>(64 * 1024, 4 * program_->flatbuffer_size());
  for (size_t size = first_guess;; size *= 4) {
    loaded->method_memory.assign(size, 0);
    loaded->method_allocator =
        std::make_unique<MemoryAllocator>(loaded->method_memory.data(), size);
    loaded->memory_manager = std::make_unique<MemoryManager>();
    loaded->memory_manager->method_allocator = loaded->method_allocator.get();
    loaded->memory_manager->planned_buffers =
        Span<Span<uint8_t>>(loaded->arena_spans.data(), loaded->arena_spans.size());
    Result<Method> method = program_->load_method(name, loaded->memory_manager.get());
    if (method.ok()) {
      loaded->method = std::make_unique<Method>(std::move(method.get()));
      break;
    }
    if (method.error() != Error::MemoryAllocationFailed || size > (1u << 30)) {
      set_last_error("method failed to load; see the log above");
      return method.error();
    }
  }
  Method* result = loaded->method.get();
  methods_.push_back(std::move(loaded));
  return result;
}

Error Module::run(const char* name, Span<const EValue> inputs) {
  Result<Method*> m = method(name);
  if (!m.ok()) {
    return m.error();
  }
  Method* method = m.get();
  if (inputs.size() != method->num_inputs()) {
    char message[128];
    std::snprintf(message, sizeof(message), "%s takes %zu inputs, got %zu", name,
                  method->num_inputs(), inputs.size());
    set_last_error(message);
    return Error::InvalidArgument;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Error err = method->set_input(i, inputs[i]);
    if (err != Error::Ok) {
      set_last_error(method->last_error());
      return err;
    }
  }
  const Error err = method->execute();
  set_last_error(err == Error::Ok ? "" : method->last_error());
  return err;
}

size_t Module::planned_bytes(const char* name) const {
  Result<MethodMeta> meta = program_->method_meta(name);
  size_t total = 0;
  if (meta.ok()) {
    for (size_t i = 0; i < meta->num_planned_buffers(); ++i) {
      total += meta->planned_buffer_size(i);
    }
  }
  return total;
}

}  // namespace ember
