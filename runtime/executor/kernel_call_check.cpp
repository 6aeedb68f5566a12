#include "runtime/executor/kernel_call_check.h"


#include "runtime/core/format.h"

namespace ember {
namespace {

constexpr size_t kMaxOuts = 64;

}  // namespace

bool is_out_param(const KernelEntry& kernel, Span<EValue* const> args, size_t i) {
  if (i < 64 && (kernel.out_args >> i & 1) != 0) return true;
  return kernel.out_args == 0 && i + 1 == kernel.num_params && i < args.size() &&
         args[i]->is_tensor_list();
}

bool check_kernel_returns(const KernelEntry& kernel, Span<EValue* const> args, char* why,
                          size_t why_size) {
  const size_t num_params = kernel.num_params;
  // Boxed kernels (the prim ops) declare no parameters and check their own count.
  if (num_params == 0 || args.size() <= num_params) {
    return true;
  }
  const size_t extra = args.size() - num_params;
  // The outs, in parameter order.
  const Tensor* outs[kMaxOuts];
  size_t num_outs = 0;
  const EValue* list_out = nullptr;
  for (size_t i = 0; i < num_params; ++i) {
    if (!is_out_param(kernel, args, i)) continue;
    if (args[i]->is_tensor()) {
      if (num_outs < kMaxOuts) outs[num_outs++] = &args[i]->to_tensor();
    } else {
      list_out = args[i];
      for (const Tensor* t : args[i]->to_tensor_list()) {
        if (num_outs < kMaxOuts) outs[num_outs++] = t;
      }
    }
  }
  const EValue& first = *args[num_params];
  if (extra == 1) {
    if (list_out != nullptr && &first == list_out) return true;
    if (num_outs == 1 && first.is_tensor() && &first.to_tensor() == outs[0]) return true;
    if (first.is_tensor_list() && first.to_tensor_list().size() == num_outs) {
      bool same = true;
      for (size_t k = 0; k < num_outs; ++k) same = same && first.to_tensor_list()[k] == outs[k];
      if (same) return true;
    }
  }
  if (extra == num_outs) {
    bool same = true;
    for (size_t k = 0; k < num_outs; ++k) {
      const EValue& ret = *args[num_params + k];
      same = same && ret.is_tensor() && &ret.to_tensor() == outs[k];
    }
    if (same) return true;
  }
  format(why, why_size,
                "takes %zu arguments and returns its %zu out%s, but the program passes %zu values: "
                "the %zu after the arguments are not its outs",
                num_params, num_outs, num_outs == 1 ? "" : "s", args.size(), extra);
  return false;
}

}  // namespace ember
