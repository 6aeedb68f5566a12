// Ember's CPU backend: runs the subgraphs python/ember/backends/cpu claims,
// with packed weights, channels-last convolution chains and the optimized
// kernel families, on the method's thread pool.
#pragma once

#include "runtime/backend/backend.h"

namespace ember::cpu {

class CpuBackend final : public BackendInterface {
 public:
  static constexpr const char* kName = "EmberCpuBackend";

  bool is_available() const override { return true; }
  Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                               Span<const CompileSpec> compile_specs) const override;
  Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                Span<EValue*> args) const override;
  void destroy(DelegateHandle* handle) const override;
  size_t num_outputs(DelegateHandle* handle) const override;
  size_t owned_bytes(DelegateHandle* handle) const override;
};

// Registers the CPU backend (once; later calls do nothing).
Error register_cpu_backend();

}  // namespace ember::cpu
