#include "extension/module/module.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>

#include "extension/threadpool/worker_pool.h"
#include "runtime/core/log.h"
#include "runtime/executor/file_data_loader.h"
#include "runtime/executor/streamed_block.h"

namespace ember {
namespace {

// Module errors are per thread (see last_error()): no lock, no tearing.
thread_local char t_last_error[512] = {};

void set_last_error(const char* format, ...) __attribute__((format(printf, 1, 2)));
void set_last_error(const char* format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(t_last_error, sizeof(t_last_error), format, args);
  va_end(args);
}

// A 64-byte aligned block of `size` zero bytes from the heap (2 MiB aligned,
// in huge pages where Linux gives them, from 2 MiB up: a KV cache is read in
// short runs spread over the whole arena), or null when the heap has no room
// (never an exception: the runtime has none). Zeroed, so that memory a
// malformed program reads before any kernel wrote it holds valid values of
// every dtype (a bool that is 0, not 0xbe).
uint8_t* allocate_zeroed(size_t size, Span<uint8_t>* span) {
  auto* block = static_cast<uint8_t*>(allocate_streamed_block(size == 0 ? 1 : size));
  if (block != nullptr) {
    std::memset(block, 0, size);
    *span = Span<uint8_t>(block, size);
  }
  return block;
}

size_t saturating_add(size_t a, size_t b) { return a > SIZE_MAX - b ? SIZE_MAX : a + b; }

}  // namespace

void Module::FreeBlock::operator()(uint8_t* block) const { std::free(block); }

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
  module->max_memory_bytes_ = options.max_memory_bytes;
  module->max_instructions_ = options.max_instructions;
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

const char* Module::last_error() const { return t_last_error; }

const Module::LoadedMethod* Module::loaded(const char* name) const {
  for (const auto& m : methods_) {
    if (m->name == name) return m.get();
  }
  return nullptr;
}

Result<Method*> Module::method(const char* name) {
  std::lock_guard<std::mutex> lock(mutex_);
  Result<LoadedMethod*> m = load_method(name);
  if (!m.ok()) return m.error();
  return m.get()->method.get();
}

Result<Module::LoadedMethod*> Module::load_method(const char* name) {
  if (const LoadedMethod* m = loaded(name)) {
    return const_cast<LoadedMethod*>(m);
  }
  clear_last_error_message();
  Result<MethodMeta> meta = program_->method_meta(name);
  if (!meta.ok()) {
    set_last_error("the program has no method named '%s'", name);
    return meta.error();
  }
  // The limit is checked before anything is allocated: a program may ask
  // for more than the device has.
  const size_t planned = meta->planned_bytes();
  const size_t tables = meta->method_table_bytes();
  if (max_memory_bytes_ != 0 && saturating_add(planned, tables) > max_memory_bytes_) {
    set_last_error("method '%s' asks for %zu bytes (planned arenas %zu, method tables %zu), more "
                   "than the limit of %zu bytes", name, saturating_add(planned, tables), planned,
                   tables, max_memory_bytes_);
    return Error::MemoryAllocationFailed;
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
      SharedArena& shared = shared_arenas_[k];
      if (shared.block == nullptr) {
        shared.block = Block(allocate_zeroed(size, &shared.span));
        if (shared.block == nullptr) {
          set_last_error("method '%s': no memory for shared planned buffer %zu (%zu bytes)", name,
                         i, size);
          return Error::MemoryAllocationFailed;
        }
      } else if (shared.span.size() < size) {
        set_last_error("methods disagree on the size of a shared (mutable buffer) arena");
        return Error::InvalidProgram;
      }
      loaded->arena_spans.emplace_back(shared.span.data(), size);
      loaded->uses_shared_arenas = true;
      continue;
    }
    // Planned tensors are 16-byte aligned within an arena; 64 suits SIMD.
    Span<uint8_t> span;
    loaded->arenas.push_back(Block(allocate_zeroed(size, &span)));
    if (loaded->arenas.back() == nullptr) {
      set_last_error("method '%s': no memory for planned buffer %zu (%zu bytes)", name, i, size);
      return Error::MemoryAllocationFailed;
    }
    loaded->arena_spans.push_back(span);
  }
  // The tables are sized from the program; layout twins and delegate
  // handles, which depend on the kernels and backends linked in, get more
  // blocks as they ask, up to what the limit leaves.
  loaded->method_allocator = std::make_unique<ChunkAllocator>(
      tables, max_memory_bytes_ != 0 ? max_memory_bytes_ - planned : 0);
  loaded->memory_manager = std::make_unique<MemoryManager>();
  loaded->memory_manager->method_allocator = loaded->method_allocator.get();
  loaded->memory_manager->planned_buffers =
      Span<Span<uint8_t>>(loaded->arena_spans.data(), loaded->arena_spans.size());
  MethodConfig config;
  config.thread_pool = thread_pool_;
  config.max_instructions = max_instructions_;
  // Buffers another method already initialised keep what it wrote there.
  config.init_mutable_buffers = false;
  Result<Method> method = program_->load_method(name, loaded->memory_manager.get(), config);
  if (!method.ok()) {
    set_last_error("%s", last_error_message()[0] != '\0' ? last_error_message()
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
    const size_t taken = planned + loaded->method_allocator->reserved_bytes();
    if (max_memory_bytes_ != 0 && saturating_add(taken, temp_bytes) > max_memory_bytes_) {
      set_last_error("method '%s': its delegates ask for %zu bytes of temp memory on top of %zu, "
                     "more than the limit of %zu bytes", name, temp_bytes, taken,
                     max_memory_bytes_);
      return Error::MemoryAllocationFailed;
    }
    Span<uint8_t> span;
    loaded->temp_memory = Block(allocate_zeroed(temp_bytes, &span));
    if (loaded->temp_memory == nullptr) {
      set_last_error("method '%s': no memory for %zu bytes of delegate temp memory", name,
                     temp_bytes);
      return Error::MemoryAllocationFailed;
    }
    loaded->temp_bytes = temp_bytes;
    loaded->temp_allocator = std::make_unique<MemoryAllocator>(span.data(), span.size());
    loaded->memory_manager->temp_allocator = loaded->temp_allocator.get();
  }
  methods_.push_back(std::move(loaded));
  return methods_.back().get();
}

Error Module::reset_state() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (shared_arenas_busy_.exchange(true, std::memory_order_acquire)) {
    set_last_error("reset_state while a method sharing the mutable buffers runs on another "
                   "thread");
    return Error::InvalidState;
  }
  Error err = Error::Ok;
  for (const auto& m : methods_) {
    err = m->method->reset_mutable_buffers();
    if (err != Error::Ok) break;
  }
  shared_arenas_busy_.store(false, std::memory_order_release);
  return err;
}

Error Module::run(const char* name, Span<const EValue> inputs) {
  LoadedMethod* method = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Result<LoadedMethod*> m = load_method(name);
    if (!m.ok()) return m.error();
    method = m.get();
  }
  if (method->running.exchange(true, std::memory_order_acquire)) {
    set_last_error("method '%s' is already running on another thread: a method runs one call at "
                   "a time (load a Module per thread to run it in parallel)", name);
    return Error::InvalidState;
  }
  if (method->uses_shared_arenas &&
      shared_arenas_busy_.exchange(true, std::memory_order_acquire)) {
    method->running.store(false, std::memory_order_release);
    set_last_error("method '%s' shares mutable buffers with a method running on another thread: "
                   "methods sharing state run one at a time", name);
    return Error::InvalidState;
  }
  const Error err = run_method(*method, inputs);
  if (method->uses_shared_arenas) shared_arenas_busy_.store(false, std::memory_order_release);
  method->running.store(false, std::memory_order_release);
  return err;
}

Error Module::run_method(LoadedMethod& loaded, Span<const EValue> inputs) {
  Method& method = *loaded.method;
  if (inputs.size() != method.num_inputs()) {
    set_last_error("%s takes %zu input%s, got %zu", loaded.name.c_str(), method.num_inputs(),
                   method.num_inputs() == 1 ? "" : "s", inputs.size());
    return Error::InvalidArgument;
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Error err = method.set_input(i, inputs[i]);
    if (err != Error::Ok) {
      set_last_error("%s", method.last_error());
      return err;
    }
  }
  const Error err = method.execute();
  set_last_error("%s", err == Error::Ok ? "" : method.last_error());
  return err;
}

size_t Module::planned_bytes(const char* name) const {
  Result<MethodMeta> meta = program_->method_meta(name);
  return meta.ok() ? meta->planned_bytes() : 0;
}

size_t Module::method_allocator_bytes(const char* name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const LoadedMethod* m = loaded(name);
  return m != nullptr ? m->method_allocator->used_bytes() : 0;
}

size_t Module::memory_bytes(const char* name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const LoadedMethod* m = loaded(name);
  if (m == nullptr) return 0;
  size_t total = m->method_allocator->reserved_bytes() + m->temp_bytes;
  for (const Span<uint8_t>& arena : m->arena_spans) total += arena.size();
  return total;
}

size_t Module::delegate_bytes(const char* name) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const LoadedMethod* m = loaded(name);
  return m != nullptr ? m->method->delegate_owned_bytes() : 0;
}

}  // namespace ember
