// EmberTestBackend: a small delegate that proves the whole delegate path
// (partition, preprocess, .pte segment, init with contexts, execute on the
// thread pool). It runs float32 add, mul and relu steps that its Python side
// (tests/python/ember_test_backend.py) writes into a blob:
//
//   "ETB1", u32 num_inputs, num_outputs, num_constants, num_temps, num_steps
//   u32 numel per slot (slots: inputs, constants, temps, outputs, in order)
//   f32 data of each constant slot
//   per step: u32 op (1 add, 2 mul, 3 relu), u32 a, u32 b (kScalar: use
//             `scalar`), f32 scalar, u32 out
//
// Constants are copied into memory the backend owns (reported as owned
// bytes); temps live in the method's temp memory, requested at init.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "runtime/backend/backend.h"

namespace ember::testing {

class TestBackend final : public BackendInterface {
 public:
  static constexpr const char* kName = "EmberTestBackend";

  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override;
  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override;
  void destroy(DelegateHandle* handle) const override;
  size_t num_outputs(DelegateHandle* handle) const override;
  size_t owned_bytes(DelegateHandle* handle) const override;

  // Element chunks that ran on a thread other than the one calling execute,
  // and the pool the last execute was handed: the work goes through the
  // method's thread pool (whose workers take chunks when they are awake).
  mutable std::atomic<size_t> chunks_on_workers{0};
  mutable std::atomic<const ThreadPool*> last_pool{nullptr};
  mutable std::atomic<size_t> executions{0};
};

// The process's test backend, registered under kName on first call.
TestBackend& register_test_backend();

// Builds ETB1 blobs in C++ tests, field by field as the format lists them.
class BlobWriter {
 public:
  BlobWriter() { bytes_ = {'E', 'T', 'B', '1'}; }
  BlobWriter& u32(uint32_t v) { return put(&v, 4); }
  BlobWriter& f32(float v) { return put(&v, 4); }
  BlobWriter& u32s(std::initializer_list<uint32_t> vs) {
    for (uint32_t v : vs) u32(v);
    return *this;
  }
  // One step: op (1 add, 2 mul, 3 relu), operand slots (b = kScalar for a number).
  BlobWriter& step(uint32_t op, uint32_t a, uint32_t b, float scalar, uint32_t out) {
    return u32(op).u32(a).u32(b).f32(scalar).u32(out);
  }
  std::vector<uint8_t> bytes() const { return bytes_; }

  static constexpr uint32_t kScalar = 0xFFFFFFFFu;

 private:
  BlobWriter& put(const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
    return *this;
  }
  std::vector<uint8_t> bytes_;
};

// out = in + scalar over `numel` floats: one input, one output, one step.
inline std::vector<uint8_t> add_scalar_blob(uint32_t numel, float scalar) {
  return BlobWriter()
      .u32s({1, 1, 0, 0, 1})
      .u32s({numel, numel})
      .step(1, 0, BlobWriter::kScalar, scalar, 1)
      .bytes();
}

}  // namespace ember::testing
