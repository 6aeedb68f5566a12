#include "tests/backend/test_backend.h"

#include <cstdint>
#include <cstring>
#include <new>
#include <thread>

#include "runtime/core/log.h"

namespace ember::testing {
namespace {

constexpr uint32_t kScalar = 0xFFFFFFFFu;
enum class Op : uint32_t { Add = 1, Mul = 2, Relu = 3 };

struct Step {
  Op op;
  uint32_t a;
  uint32_t b;
  float scalar;
  uint32_t out;
};

struct Plan {
  uint32_t num_inputs, num_outputs, num_constants, num_temps, num_steps;
  uint32_t* numel;        // per slot
  float** constant_data;  // per constant slot, owned (heap, at init)
  Step* steps;
  size_t temp_bytes;
  size_t owned_bytes;
  uint32_t num_slots() const { return num_inputs + num_constants + num_temps + num_outputs; }
};

// Reads little-endian u32/f32 fields from the blob, failing once it runs out.
struct Reader {
  const uint8_t* data;
  size_t size;
  size_t at = 0;
  bool ok = true;
  uint32_t u32() {
    uint32_t v = 0;
    if (at + 4 > size) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, data + at, 4);
    at += 4;
    return v;
  }
  float f32() {
    const uint32_t bits = u32();
    float v;
    std::memcpy(&v, &bits, 4);
    return v;
  }
};

}  // namespace

Result<DelegateHandle*> TestBackend::init(BackendInitContext& context, FreeableBuffer* processed,
                                          Span<const CompileSpec>) const {
  Reader r{static_cast<const uint8_t*>(processed->data()), processed->size()};
  EMBER_CHECK_OR_RETURN(processed->size() >= 4 && std::memcmp(r.data, "ETB1", 4) == 0,
                        Error::DelegateInvalidCompatibility, "%s: not an ETB1 blob", kName);
  r.at = 4;
  MemoryAllocator* alloc = context.method_allocator();
  Plan* plan = alloc->allocate_array<Plan>(1);
  EMBER_CHECK_OR_RETURN(plan != nullptr, Error::MemoryAllocationFailed, "%s: no memory", kName);
  *plan = Plan{};
  plan->num_inputs = r.u32();
  plan->num_outputs = r.u32();
  plan->num_constants = r.u32();
  plan->num_temps = r.u32();
  plan->num_steps = r.u32();
  const uint64_t slots = uint64_t{plan->num_inputs} + plan->num_constants + plan->num_temps +
                         plan->num_outputs;
  EMBER_CHECK_OR_RETURN(r.ok && slots < (1u << 20) && plan->num_steps < (1u << 20),
                        Error::InvalidProgram, "%s: bad header", kName);
  plan->numel = alloc->allocate_array<uint32_t>(slots);
  plan->constant_data = alloc->allocate_array<float*>(plan->num_constants);
  plan->steps = alloc->allocate_array<Step>(plan->num_steps);
  EMBER_CHECK_OR_RETURN((plan->numel || !slots) && (plan->constant_data || !plan->num_constants) &&
                            (plan->steps || !plan->num_steps),
                        Error::MemoryAllocationFailed, "%s: method allocator exhausted", kName);
  for (uint32_t i = 0; i < slots; ++i) plan->numel[i] = r.u32();
  // Constants are located now and copied only once the whole blob checks
  // out, so a malformed blob leaves nothing to free.
  const size_t constants_at = r.at;
  for (uint32_t c = 0; c < plan->num_constants; ++c) {
    const size_t bytes = size_t{plan->numel[plan->num_inputs + c]} * 4;
    EMBER_CHECK_OR_RETURN(r.ok && bytes <= r.size - r.at, Error::InvalidProgram,
                          "%s: constant %u is cut off", kName, c);
    r.at += bytes;
  }
  const uint32_t first_temp = plan->num_inputs + plan->num_constants;
  for (uint32_t t = 0; t < plan->num_temps; ++t) {
    // Each temp starts 64-byte aligned: its size rounded up, plus slack for the first.
    plan->temp_bytes += (size_t{plan->numel[first_temp + t]} * 4 + 63) / 64 * 64 + 64;
  }
  for (uint32_t s = 0; s < plan->num_steps; ++s) {
    Step& step = plan->steps[s];
    step.op = static_cast<Op>(r.u32());
    step.a = r.u32();
    step.b = r.u32();
    step.scalar = r.f32();
    step.out = r.u32();
    const bool binary = step.op == Op::Add || step.op == Op::Mul;
    EMBER_CHECK_OR_RETURN(r.ok && (binary || step.op == Op::Relu) && step.a < slots &&
                              (!binary || step.b == kScalar || step.b < slots) &&
                              step.out >= first_temp && step.out < slots,
                          Error::InvalidProgram, "%s: step %u is malformed", kName, s);
    EMBER_CHECK_OR_RETURN(plan->numel[step.a] == plan->numel[step.out] &&
                              (!binary || step.b == kScalar ||
                               plan->numel[step.b] == plan->numel[step.out]),
                          Error::InvalidProgram, "%s: step %u mixes sizes", kName, s);
    // A relu has no second operand, whatever the blob says there: execute
    // must never index the slots with it.
    if (!binary) step.b = kScalar;
  }
  EMBER_CHECK_OR_RETURN(r.ok && r.at == r.size, Error::InvalidProgram,
                        "%s: %zu bytes after the last step", kName, r.size - r.at);
  // Backend-owned copies: the blob may be freed after init.
  size_t at = constants_at;
  for (uint32_t c = 0; c < plan->num_constants; ++c) {
    const size_t n = plan->numel[plan->num_inputs + c];
    plan->constant_data[c] = new (std::nothrow) float[n > 0 ? n : 1];
    if (plan->constant_data[c] == nullptr) {
      for (uint32_t k = 0; k < c; ++k) delete[] plan->constant_data[k];
      return Error::MemoryAllocationFailed;
    }
    std::memcpy(plan->constant_data[c], r.data + at, n * 4);
    at += n * 4;
    plan->owned_bytes += n * 4;
  }
  context.request_temp_bytes(plan->temp_bytes);
  return static_cast<DelegateHandle*>(plan);
}

Error TestBackend::execute(BackendExecutionContext& context, DelegateHandle* handle,
                           Span<EValue*> args) const {
  const Plan& plan = *static_cast<const Plan*>(handle);
  if (args.size() != plan.num_inputs + plan.num_outputs) {
    EMBER_LOG(Error, "%s: called with %zu values, expects %u", kName, args.size(),
              plan.num_inputs + plan.num_outputs);
    return Error::InvalidArgument;
  }
  // Every slot's data pointer, resolved once per call (on the stack: no heap).
  constexpr uint32_t kMaxSlots = 256;
  if (plan.num_slots() > kMaxSlots) return Error::NotSupported;
  float* slot[kMaxSlots];
  const uint32_t first_temp = plan.num_inputs + plan.num_constants;
  const uint32_t first_output = first_temp + plan.num_temps;
  for (uint32_t i = 0; i < plan.num_inputs + plan.num_outputs; ++i) {
    const uint32_t s = i < plan.num_inputs ? i : first_output + (i - plan.num_inputs);
    if (!args[i]->is_tensor() || args[i]->to_tensor().scalar_type() != ScalarType::Float ||
        static_cast<uint64_t>(args[i]->to_tensor().numel()) != plan.numel[s]) {
      EMBER_LOG(Error, "%s: argument %u is not a float tensor of %u elements", kName, i,
                plan.numel[s]);
      return Error::InvalidArgument;
    }
    slot[s] = args[i]->to_tensor().mutable_data_ptr<float>();
  }
  for (uint32_t c = 0; c < plan.num_constants; ++c) slot[plan.num_inputs + c] = plan.constant_data[c];
  for (uint32_t t = 0; t < plan.num_temps; ++t) {
    slot[first_temp + t] = static_cast<float*>(
        context.allocate_temp(size_t{plan.numel[first_temp + t]} * 4, 64));
    if (slot[first_temp + t] == nullptr) return Error::MemoryAllocationFailed;
  }
  last_pool.store(context.thread_pool());
  const std::thread::id caller = std::this_thread::get_id();
  for (uint32_t s = 0; s < plan.num_steps; ++s) {
    const Step& step = plan.steps[s];
    const float* a = slot[step.a];
    const float* b = step.b == kScalar ? nullptr : slot[step.b];
    float* out = slot[step.out];
    parallel_for(context.thread_pool(), plan.numel[step.out], 1024, [&](int64_t begin, int64_t end) {
      if (std::this_thread::get_id() != caller) chunks_on_workers.fetch_add(1);
      for (int64_t i = begin; i < end; ++i) {
        const float y = b != nullptr ? b[i] : step.scalar;
        switch (step.op) {
          case Op::Add: out[i] = a[i] + y; break;
          case Op::Mul: out[i] = a[i] * y; break;
          case Op::Relu: out[i] = a[i] > 0.0f || a[i] != a[i] ? a[i] : 0.0f; break;
        }
      }
    });
  }
  executions.fetch_add(1);
  return Error::Ok;
}

void TestBackend::destroy(DelegateHandle* handle) const {
  Plan* plan = static_cast<Plan*>(handle);
  for (uint32_t c = 0; c < plan->num_constants; ++c) delete[] plan->constant_data[c];
}

size_t TestBackend::num_outputs(DelegateHandle* handle) const {
  return static_cast<const Plan*>(handle)->num_outputs;
}

size_t TestBackend::owned_bytes(DelegateHandle* handle) const {
  return static_cast<const Plan*>(handle)->owned_bytes;
}

TestBackend& register_test_backend() {
  static TestBackend backend;
  static const Error registered = register_backend(TestBackend::kName, &backend);
  (void)registered;
  return backend;
}

}  // namespace ember::testing
