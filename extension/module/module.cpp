#include "extension/module/module.h"

#include <algorithm>
#include <cstring>

#include "extension/threadpool/worker_pool.h"
#include "runtime/core/log.h"
#include "runtime/executor/file_data_loader.h"

namespace ember {

Result<std::unique_ptr<Module>> Module::load(const char* path, const ModuleOptions& options) {
  std::unique_ptr<DataLoader> loader;
  if (options.load_mode == LoadMode::Mmap) {
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
  return from_loader(std::move(loader), options);
}

Result<std::unique_ptr<Module>> Module::load_buffer(const void* data, size_t size,
                                                    const ModuleOptions& options) {
  return from_loader(std::make_unique<BufferDataLoader>(data, size), options);
}

Result<std::unique_ptr<Module>> Module::from_loader(std::unique_ptr<DataLoader> loader,
                                                    const ModuleOptions& options) {
  Result<Program> program = Program::load(loader.get());
  if (!program.ok()) {
    return program.error();
  }
  std::unique_ptr<Module> module(new Module());
  module->loader_ = std::move(loader);
  module->program_ = std::make_unique<Program>(std::move(program.get()));
  if (options.thread_pool != nullptr) {
    module->thread_pool_ = options.thread_pool;
  } else {
    const size_t threads =
        options.num_threads > 0 ? options.num_threads : WorkerPool::available_cores();
    if (threads > 1) {
      module->own_thread_pool_ = std::make_unique<WorkerPool>(threads);
      module->thread_pool_ = module->own_thread_pool_.get();
    }
  }
  return module;
}

// Methods (and their delegates) go before the pool they run on.
Module::~Module() { methods_.clear(); }

void Module::set_last_error(const char* message) {
  last_error_.assign(message, message + std::strlen(message) + 1);
}

const Module::LoadedMethod* Module::loaded(const char* name) const {
  for (const auto& m : methods_) {
    if (m->name == name) return m.get();
  }
  return nullptr;
}

Result<Method*> Module::method(const char* name) {
  if (const LoadedMethod* m = loaded(name)) {
    return m->method.get();
  }
  Result<MethodMeta> meta = program_->method_meta(name);
  if (!meta.ok()) {
    set_last_error("no such method");
    return meta.error();
  }
  auto loaded = std::make_unique<LoadedMethod>();
  loaded->name = name;
  for (size_t i = 0; i < meta->num_planned_buffers(); ++i) {
    const size_t size = meta->planned_buffer_size(i);
    if (i >= kFirstSharedArena) {
      // Memory id 2 on: the mutable buffers every method of the program
      // shares (ExecuTorch's share_mutable_buffers layout), made once.
      const size_t k = i - kFirstSharedArena;
      if (k >= shared_arenas_.size()) {
        shared_arenas_.resize(k + 1);
      }
      if (shared_arenas_[k].empty()) {
        shared_arenas_[k].resize(size + 64);
      } else if (shared_arenas_[k].size() < size + 64) {
        set_last_error("methods disagree on the size of a shared (mutable buffer) arena");
        return Error::InvalidProgram;
      }
      uint8_t* base = shared_arenas_[k].data();
      const size_t shift = (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64;
      loaded->arena_spans.emplace_back(base + shift, size);
      continue;
    }
    // Planned tensors are 16-byte aligned within an arena; 64 suits SIMD.
    loaded->arenas.emplace_back(size + 64);
    uint8_t* base = loaded->arenas.back().data();
    const size_t shift = (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64;
    loaded->arena_spans.emplace_back(base + shift, size);
  }
  // The tables are sized from the program; layout twins and delegate
  // handles, which depend on the kernels and backends linked in, get more
  // blocks as they ask.
  loaded->method_allocator = std::make_unique<ChunkAllocator>(meta->method_table_bytes());
  loaded->memory_manager = std::make_unique<MemoryManager>();
  loaded->memory_manager->method_allocator = loaded->method_allocator.get();
  loaded->memory_manager->planned_buffers =
      Span<Span<uint8_t>>(loaded->arena_spans.data(), loaded->arena_spans.size());
  MethodConfig config;
  config.thread_pool = thread_pool_;
  // Buffers another method already initialised keep what it wrote there.
  config.init_mutable_buffers = false;
  Result<Method> method = program_->load_method(name, loaded->memory_manager.get(), config);
  if (!method.ok()) {
    set_last_error(last_error_message()[0] != '\0' ? last_error_message()
                                                    : "method failed to load");
    return method.error();
  }
  loaded->method = std::make_unique<Method>(std::move(method.get()));
  for (size_t i = 0; i < loaded->method->num_mutable_buffers(); ++i) {
    const void* data = loaded->method->mutable_buffer_data(i);
    if (std::find(initialized_buffers_.begin(), initialized_buffers_.end(), data) ==
        initialized_buffers_.end()) {
      loaded->method->reset_mutable_buffer(i);
      initialized_buffers_.push_back(data);
    }
  }
  // Temp memory for the delegates, sized by what they asked for at init.
  const size_t temp_bytes = loaded->method->required_temp_bytes();
  if (temp_bytes > 0) {
    loaded->temp_memory.resize(temp_bytes + 64);
    uint8_t* base = loaded->temp_memory.data();
    const size_t shift = (64 - reinterpret_cast<uintptr_t>(base) % 64) % 64;
    loaded->temp_allocator = std::make_unique<MemoryAllocator>(base + shift, temp_bytes);
    loaded->memory_manager->temp_allocator = loaded->temp_allocator.get();
  }
  Method* result = loaded->method.get();
  methods_.push_back(std::move(loaded));
  return result;
}

Error Module::reset_state() {
  for (const auto& m : methods_) {
    const Error err = m->method->reset_mutable_buffers();
    if (err != Error::Ok) return err;
  }
  return Error::Ok;
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

size_t Module::method_allocator_bytes(const char* name) const {
  const LoadedMethod* m = loaded(name);
  return m != nullptr ? m->method_allocator->used_bytes() : 0;
}

size_t Module::delegate_bytes(const char* name) const {
  const LoadedMethod* m = loaded(name);
  return m != nullptr ? m->method->delegate_owned_bytes() : 0;
}

}  // namespace ember
