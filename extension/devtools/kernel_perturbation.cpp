#include "extension/devtools/kernel_perturbation.h"

#include "runtime/core/log.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember {
namespace {

// The registry keeps pointers to entries that outlive it: the planted one
// lives here, and a restore re-registers the library's own entry (never a
// copy, which the next perturbation would overwrite under the registry).
const KernelEntry* g_original = nullptr;
KernelEntry g_planted_entry;
bool g_planted = false;
float g_delta = 0.0f;

void perturbed(KernelContext& ctx, Span<EValue*> args) {
  g_original->fn(ctx, args);
  // The outs only: the returns after them are the same tensors again.
  for (size_t k = 0; k < args.size() && k < g_original->num_params && k < 64; ++k) {
    if ((g_original->out_args >> k & 1) == 0 || !args[k]->is_tensor()) continue;
    Tensor& t = args[k]->to_tensor();
    if (t.scalar_type() != ScalarType::Float) continue;
    float* data = t.mutable_data_ptr<float>();
    for (int64_t i = 0; i < t.numel(); ++i) data[i] += g_delta;
  }
}

}  // namespace

Error perturb_kernel(const char* name, float delta) {
  if (g_planted) {
    EMBER_LOG(Error, "a perturbed kernel (%s) is planted already", g_original->name);
    return Error::InvalidState;
  }
  const KernelEntry* entry = find_kernel(name);
  if (entry == nullptr) {
    EMBER_LOG(Error, "no kernel named %s to perturb", name);
    return Error::NotFound;
  }
  g_original = entry;
  g_delta = delta;
  g_planted_entry = *entry;
  g_planted_entry.fn = perturbed;
  const Error err = register_kernel(g_planted_entry);  // equal rank: the later wins
  g_planted = err == Error::Ok;
  return err;
}

void restore_perturbed_kernel() {
  if (!g_planted) return;
  register_kernel(*g_original);
  g_planted = false;
}

}  // namespace ember
