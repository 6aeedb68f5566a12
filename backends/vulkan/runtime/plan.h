// What init turns a blob into before touching the GPU: where each tensor
// lives in device memory, the constants' device bytes (as they are, or
// packed for a shader), the parameter words of every op and the list of
// dispatches. The op encoders (ops/) fill it through an Encoder; the
// delegate (vulkan_backend.cpp) then allocates, uploads and records it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>

#include "backends/cpu/runtime/ops/ops.h"
#include "backends/vulkan/runtime/vk_context.h"
#include "runtime/core/result.h"

namespace ember::vulkan {

using cpu::DataType;
using cpu::Layout;
using cpu::ValueInfo;
using cpu::ValueKind;

// A growable array of trivially copyable T that reports allocation failure
// instead of throwing (init may allocate; execute never touches these).
template <typename T>
class Array {
 public:
  Array() = default;
  Array(const Array&) = delete;
  Array& operator=(const Array&) = delete;
  ~Array() { ::operator delete[](data_, std::nothrow); }

  bool push(const T& value) {
    if (size_ == capacity_) {
      const size_t capacity = capacity_ > 0 ? 2 * capacity_ : 16;
      T* grown = static_cast<T*>(::operator new[](capacity * sizeof(T), std::nothrow));
      if (grown == nullptr) return false;
      if (size_ > 0) std::memcpy(static_cast<void*>(grown), data_, size_ * sizeof(T));
      ::operator delete[](data_, std::nothrow);
      data_ = grown;
      capacity_ = capacity;
    }
    data_[size_++] = value;
    return true;
  }
  void clear() { size_ = 0; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  size_t size() const { return size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  size_t size_ = 0;
  size_t capacity_ = 0;
};

// The device buffers of a delegate: the arena (scratch values, then the
// delegate's inputs and outputs, then the status word), the constants, and
// the op parameters.
enum class Region : uint8_t { Arena = 0, Constants = 1, Params = 2 };

// Bytes of one region: a tensor binding, or the data an op reads.
struct BufferRef {
  Region region = Region::Params;
  uint64_t offset = 0;
  uint64_t bytes = 0;
};

// Writes one constant's device bytes at upload, from the blob's data.
struct PackJob;
using PackFn = void (*)(const PackJob& job, uint8_t* dst);
struct PackJob {
  PackFn fn;           // null: the constant as it is
  const uint8_t* src;  // the blob's constant
  uint64_t offset;     // in the constants buffer
  uint64_t bytes;      // what fn writes (float32)
  int64_t dims[6];     // the packing's geometry
  bool half;           // stored as halves: bytes / 2 on the device
};

struct DispatchInfo {
  Shader shader;
  BufferRef bindings[kTensorBindings];
  uint32_t num_bindings;
  uint32_t writes;     // bit b: the shader writes binding b (the others it reads)
  uint32_t params;     // first word of the op's parameters
  uint32_t groups[3];
  uint32_t op;         // the blob op it runs part of
};

// Which dispatches must wait for the ones before them (a memory barrier
// before dispatch i, barrier[i]): those that read or write arena bytes that
// a dispatch since the last barrier wrote, or write bytes one of those read.
// Independent dispatches (q, k and v projections) may then overlap. false
// (and barrier unset) when memory runs out.
bool plan_barriers(const DispatchInfo* dispatches, size_t n, bool* barrier);

// Up to kMaxWords parameter words of one dispatch.
class Params {
 public:
  static constexpr size_t kMaxWords = 64;
  Params& u(uint64_t v) { return put(static_cast<uint32_t>(v)); }
  Params& i(int64_t v) { return put(static_cast<uint32_t>(static_cast<int32_t>(v))); }
  Params& f(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return put(bits);
  }
  // Pads to word `n` with zeros (a fixed-size list's unused entries).
  Params& to(size_t n) {
    while (size_ < n) put(0);
    return *this;
  }
  const uint32_t* words() const { return words_; }
  size_t size() const { return size_; }
  bool overflowed() const { return overflowed_; }

 private:
  Params& put(uint32_t w) {
    if (size_ < kMaxWords) {
      words_[size_++] = w;
    } else {
      overflowed_ = true;
    }
    return *this;
  }
  uint32_t words_[kMaxWords];
  size_t size_ = 0;
  bool overflowed_ = false;
};

// Everything init plans, in host memory.
struct Plan {
  uint64_t arena_bytes = 0;
  uint64_t constant_bytes = 0;
  uint64_t status_offset = 0;  // in the arena: one word, execute reads it
  bool uses_status = false;
  Array<uint64_t> input_offsets;   // per delegate input: arena offset
  Array<uint64_t> input_bytes;
  Array<uint64_t> output_offsets;  // per delegate output
  Array<uint64_t> output_bytes;
  Array<BufferRef> constant_refs;  // per value: a raw constant's upload, or bytes 0
  Array<PackJob> packs;
  bool half_weights = false;  // compile spec weights=float16
  Array<uint32_t> params;
  Array<DispatchInfo> dispatches;
};

// What an op encoder works with: the blob's values and the plan it adds to.
class Encoder {
 public:
  Encoder(const cpu::BuildContext& build, Plan* plan, const DeviceInfo& device)
      : build_(build), plan_(plan), device_(device) {}

  const cpu::BuildContext& build() const { return build_; }
  const ValueInfo& value(uint32_t id) const { return build_.values[id]; }
  const DeviceInfo& device() const { return device_; }
  void set_op(uint32_t op) { op_ = op; }

  // The device bytes of value `id` (a constant is uploaded as it is, once).
  Result<BufferRef> ref(uint32_t id);
  // `bytes` of float32 data that `fn` fills at upload from constant value
  // `id`'s data, with geometry `dims`; with `half`, stored as halves.
  Result<BufferRef> packed(uint32_t id, uint64_t bytes, PackFn fn,
                           std::initializer_list<int64_t> dims, bool half = false);
  // Whether weights are stored as halves (the program asked for it).
  bool half_weights() const { return plan_->half_weights; }
  // One dispatch of `shader` over `groups` workgroups, bindings 1.. in order;
  // the shader writes the last binding and reads the others.
  Error dispatch(Shader shader, std::initializer_list<BufferRef> bindings, const Params& params,
                 uint32_t gx, uint32_t gy = 1, uint32_t gz = 1);
  // The same where the shader writes the bindings of bitmask `writes`.
  Error dispatch_writing(uint32_t writes, Shader shader, std::initializer_list<BufferRef> bindings,
                         const Params& params, uint32_t gx, uint32_t gy = 1, uint32_t gz = 1);
  // Where an embedding reports a bad index (the status word).
  BufferRef status();

 private:
  Result<BufferRef> add_constant(uint64_t bytes);

  const cpu::BuildContext& build_;
  Plan* plan_;
  const DeviceInfo& device_;
  uint32_t op_ = 0;
};

// Element size of a value's dtype; tensors are addressed in 32-bit words.
inline uint64_t value_bytes(const ValueInfo& v) { return v.numel * cpu::element_size(v.dtype); }

// ceil(a / b) as a group count.
inline uint32_t groups_for(uint64_t items, uint64_t per_group) {
  return static_cast<uint32_t>((items + per_group - 1) / per_group);
}

// Workgroups for a grid-stride loop over `items` elements, `local` per group.
uint32_t grid_groups(const Encoder& enc, uint64_t items, uint32_t local);

}  // namespace ember::vulkan
