// The kernel registry: operator name ("aten::add.out") -> kernel. Kernels are
// plain functions with typed parameters; registration wraps them in an unboxer
// that checks each argument's tag at method init and unpacks it at run time.
#pragma once

#include <cstddef>
#include <cstdio>
#include <optional>
#include <type_traits>
#include <utility>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/format.h"
#include "runtime/core/span.h"
#include "runtime/kernel/dtype_mask.h"
#include "runtime/kernel/kernel_context.h"
#include "runtime/kernel/kernel_selection.h"

namespace ember {

// Boxed entry point: args are the instruction's values, in schema order.
using BoxedKernelFn = void (*)(KernelContext& ctx, Span<EValue*> args);
// Load-time check of a call's arguments; writes why into `why` on failure.
using KernelArgCheckFn = bool (*)(Span<EValue* const> args, char* why, size_t why_size);
// Load-time: the scratch bytes one call needs (KernelContext::allocate_temp)
// for these arguments at their planned (largest) sizes. The method asks for
// the most any of its calls needs, so a kernel never runs short at run time.
using KernelTempBytesFn = size_t (*)(Span<EValue* const> args);

// Which implementation of an operator wins when several libraries register
// one: a higher rank replaces a lower one whatever the static-init order.
enum class KernelRank : uint8_t {
  Portable = 0,   // kernels/portable: the reference for every op
  Optimized = 1,  // kernels/optimized: SIMD variants that fall back to portable
};

// Every member has a default so that the registry's static array of entries
// is constant-initialized: a dynamic initializer for it would run in some
// unknown order with the kernel libraries' registrations and could wipe them.
struct KernelEntry {
  const char* name = nullptr;
  BoxedKernelFn fn = nullptr;
  KernelArgCheckFn check_args = nullptr;
  // The dtypes the kernel's first tensor input ("self") may have, and which
  // argument that is (-1: the kernel takes no tensor input).
  DtypeMask self_dtypes = 0;
  int self_index = -1;
  // The dtypes every tensor argument, outs included, may have: the element
  // types the kernel library is built for.
  DtypeMask tensor_dtypes = 0;
  // How many of a call's values the kernel takes (the rest are the call's
  // returns), and which of those are outs (bit i: argument i is a Tensor&).
  uint32_t num_params = 0;
  uint64_t out_args = 0;
  // Whether the kernel reads and writes through strides, so tensors in any
  // dim order will do. The executor gives other kernels row-major twins of
  // tensors in other dim orders (channels-last), copying in and out.
  bool strided = false;
  KernelRank rank = KernelRank::Portable;
  KernelTempBytesFn temp_bytes = nullptr;
};

// The dtypes a kernel's tensors may have unless it says otherwise: every real
// type and Bool, and the complex types too when self may be complex (a kernel
// for complex self takes complex operands and outs).
constexpr DtypeMask default_tensor_dtypes(DtypeMask self_dtypes) {
  return kAllTypes | ((self_dtypes & kComplexTypes) != 0 ? kComplexTypes : DtypeMask{0});
}

// Load-time check that a call's self dtype, and every tensor's dtype, are ones
// the kernel declares; writes why, naming the op and the dtype, into `why` on
// failure. Assumes the argument kinds passed check_args.
bool check_kernel_dtypes(const KernelEntry& entry, Span<EValue* const> args, char* why,
                         size_t why_size);

// Adds a kernel. For a name already registered, an entry of higher or equal
// rank replaces the existing one (equal rank: the later wins, so a test can
// plant its own kernel) and one of lower rank is ignored, so an optimized
// library overrides portable kernels whichever static initializer runs first.
// The registry keeps a pointer to `entry`, which must outlive every lookup (a
// static); fails when the registry, sized for the build's selection, is full.
Error register_kernel(const KernelEntry& entry);
// Null when no kernel has that name.
const KernelEntry* find_kernel(const char* name);
size_t num_registered_kernels();
const KernelEntry* registered_kernel(size_t index);

// Argument types a kernel may take. Scalars, lists and optionals are views
// into the method's values, valid for the duration of the call.
using IntArrayRef = Span<const int64_t>;
using TensorList = Span<Tensor* const>;
// Items may be null (None).
struct OptionalTensorList {
  Span<Tensor* const> items;
};
// A Scalar argument (Python number): int, double or bool; or a complex
// number, which the .pte has no scalar type for and carries as a
// one-element ComplexFloat/ComplexDouble tensor (read as its real part by
// to_double and to_int).
struct Scalar {
  const EValue* value;
  bool is_integral() const { return value->is_int() || value->is_bool(); }
  bool is_floating() const { return value->is_double(); }
  bool is_bool() const { return value->is_bool(); }
  bool is_complex() const { return value->is_tensor(); }
  double to_double() const { return is_complex() ? complex_part(0) : value->scalar_to_double(); }
  int64_t to_int() const {
    return is_complex() ? static_cast<int64_t>(complex_part(0)) : value->scalar_to_int();
  }
  // Part 0 (real) or 1 (imaginary) of a complex Scalar.
  double complex_part(int part) const {
    const Tensor& t = value->to_tensor();
    return t.scalar_type() == ScalarType::ComplexFloat
               ? static_cast<double>(t.const_data_ptr<float>()[part])
               : t.const_data_ptr<double>()[part];
  }
};

// Whether `v` can be a Scalar argument: a number, or a complex number's tensor.
inline bool is_scalar_argument(const EValue& v) {
  if (v.is_scalar()) return true;
  if (!v.is_tensor()) return false;
  const Tensor& t = v.to_tensor();
  return t.numel() == 1 && (t.scalar_type() == ScalarType::ComplexFloat ||
                            t.scalar_type() == ScalarType::ComplexDouble);
}
using StringView = Span<const char>;

namespace detail {

template <typename T>
struct Unbox;

#define EMBER_UNBOX_(type, what, accepts, expr)                \
  template <>                                                  \
  struct Unbox<type> {                                         \
    static constexpr const char* kName = what;                 \
    static bool accepts_value(const EValue& v) { return accepts; } \
    static type get(EValue& v) { return expr; }                \
  };

EMBER_UNBOX_(const Tensor&, "Tensor", v.is_tensor(), v.to_tensor())
EMBER_UNBOX_(Tensor&, "Tensor", v.is_tensor(), v.to_tensor())
EMBER_UNBOX_(int64_t, "int", v.is_int() || v.is_bool(), v.scalar_to_int())
EMBER_UNBOX_(double, "float", v.is_double() || v.is_int(), v.scalar_to_double())
EMBER_UNBOX_(bool, "bool", v.is_bool(), v.to_bool())
EMBER_UNBOX_(Scalar, "Scalar", is_scalar_argument(v), Scalar{&v})
EMBER_UNBOX_(IntArrayRef, "int[]", v.is_int_list(), v.to_int_list())
EMBER_UNBOX_(Span<const double>, "float[]", v.is_double_list(), v.to_double_list())
EMBER_UNBOX_(Span<const bool>, "bool[]", v.is_bool_list(), v.to_bool_list())
EMBER_UNBOX_(TensorList, "Tensor[]", v.is_tensor_list(), v.to_tensor_list())
EMBER_UNBOX_(OptionalTensorList, "Tensor?[]",
             v.is_optional_tensor_list() || v.is_tensor_list(),
             OptionalTensorList{v.to_tensor_list()})
EMBER_UNBOX_(StringView, "str", v.is_string(), v.to_string())
// An optional tensor is a pointer: null for None.
EMBER_UNBOX_(const Tensor*, "Tensor?", v.is_none() || v.is_tensor(),
             v.is_none() ? nullptr : &v.to_tensor())
#undef EMBER_UNBOX_

template <typename T>
struct Unbox<std::optional<T>> {
  static constexpr const char* kName = "optional";
  static bool accepts_value(const EValue& v) { return v.is_none() || Unbox<T>::accepts_value(v); }
  static std::optional<T> get(EValue& v) {
    if (v.is_none()) {
      return std::nullopt;
    }
    return Unbox<T>::get(v);
  }
};

// Tensor inputs, as opposed to outs (Tensor&) and non-tensor arguments.
template <typename T>
constexpr bool is_tensor_input =
    std::is_same_v<T, const Tensor&> || std::is_same_v<T, const Tensor*> ||
    std::is_same_v<T, TensorList> || std::is_same_v<T, OptionalTensorList>;

template <typename... Args>
constexpr int first_tensor_input() {
  constexpr bool inputs[] = {is_tensor_input<Args>..., false};
  for (int i = 0; i < static_cast<int>(sizeof...(Args)); ++i) {
    if (inputs[i]) return i;
  }
  return -1;
}

template <typename... Args>
constexpr uint64_t out_arg_bits() {
  constexpr bool outs[] = {std::is_same_v<Args, Tensor&>..., false};
  static_assert(sizeof...(Args) <= 64, "a kernel takes at most 64 arguments");
  uint64_t bits = 0;
  for (size_t i = 0; i < sizeof...(Args); ++i) {
    if (outs[i]) bits |= uint64_t{1} << i;
  }
  return bits;
}

template <typename F, F fn>
struct KernelWrapper;

template <typename... Args, void (*fn)(KernelContext&, Args...)>
struct KernelWrapper<void (*)(KernelContext&, Args...), fn> {
  static constexpr size_t kNumArgs = sizeof...(Args);
  static constexpr int kSelfIndex = detail::first_tensor_input<Args...>();
  static constexpr uint64_t kOutArgs = detail::out_arg_bits<Args...>();

  static void call(KernelContext& ctx, Span<EValue*> args) {
    call_impl(ctx, args, std::index_sequence_for<Args...>{});
  }

  // A call carries the schema's arguments and then its returns, so it has at
  // least as many values as the kernel has parameters.
  static bool check_args(Span<EValue* const> args, char* why, size_t why_size) {
    if (args.size() < kNumArgs) {
      format(why, why_size, "expects %zu arguments, the program passes %zu", kNumArgs,
               args.size());
      return false;
    }
    return check_impl(args, why, why_size, std::index_sequence_for<Args...>{});
  }

 private:
  template <size_t... I>
  static void call_impl(KernelContext& ctx, Span<EValue*> args, std::index_sequence<I...>) {
    fn(ctx, Unbox<Args>::get(*args[I])...);
  }

  template <size_t... I>
  static bool check_impl(Span<EValue* const> args, char* why, size_t why_size,
                         std::index_sequence<I...>) {
    size_t bad = kNumArgs;
    const char* want = "";
    const bool ok = ((Unbox<Args>::accepts_value(*args[I]) ||
                      (bad = I, want = Unbox<Args>::kName, false)) &&
                     ...);
    if (!ok) {
      format(why, why_size, "argument %zu should be %s, the program passes %s", bad, want,
               args[bad]->tag_name());
    }
    return ok;
  }
};

}  // namespace detail

// Builds the registry entry for a typed kernel function.
template <typename F, F fn>
constexpr KernelEntry make_kernel_entry(const char* name, DtypeMask self_dtypes, bool strided,
                                        DtypeMask tensor_dtypes = kAllTypes,
                                        KernelRank rank = KernelRank::Portable,
                                        KernelTempBytesFn temp_bytes = nullptr) {
  using Wrapper = detail::KernelWrapper<F, fn>;
  return KernelEntry{name, &Wrapper::call, &Wrapper::check_args, self_dtypes,
                     Wrapper::kSelfIndex, tensor_dtypes, Wrapper::kNumArgs, Wrapper::kOutArgs,
                     strided, rank, temp_bytes};
}

}  // namespace ember

namespace ember::detail {

// Registers `entry` at static init when the build selects it. The entry
// lives in read-only memory; an operator the build leaves out registers
// nothing, so neither its entry nor its kernel is referenced and the linker
// drops both.
template <bool kSelected>
struct KernelRegistration {
  static Error add(const KernelEntry& entry) { return register_kernel(entry); }
};
template <>
struct KernelRegistration<false> {
  static Error add(const KernelEntry&) { return Error::Ok; }
};

// A kernel's entry with its declared dtypes narrowed to the ones a selective
// build chose for its operator, so that a program calling it with another
// dtype is refused at load.
constexpr KernelEntry narrowed_to_selection(KernelEntry entry) {
  entry.self_dtypes &= selection::op_dtypes(entry.name);
  entry.tensor_dtypes &= selection::op_dtypes(entry.name);
  return entry;
}

}  // namespace ember::detail

#define EMBER_REGISTER_ENTRY_(name, entry_expr)                                               \
  static constexpr ::ember::KernelEntry EMBER_CONCAT_(ember_kernel_entry_, __LINE__) =         \
      ::ember::selection::op_selected(name) ? (entry_expr) : ::ember::KernelEntry{};             \
  static const ::ember::Error EMBER_CONCAT_(ember_kernel_reg_, __LINE__) =                    \
      ::ember::detail::KernelRegistration<::ember::selection::op_selected(name)>::add(          \
          EMBER_CONCAT_(ember_kernel_entry_, __LINE__))

// The registration macros' common part: a kernel entry, narrowed to the
// selection's dtypes.
#define EMBER_REGISTER_SELECTED_(name, entry_expr) \
  EMBER_REGISTER_ENTRY_(name, ::ember::detail::narrowed_to_selection(entry_expr))

// Registers `fn` under `name` when the program starts, for a self (first
// tensor input) of the dtypes in `self_dtypes`. Kernel libraries are linked
// whole-archive so that these initializers are kept.
#define EMBER_REGISTER_KERNEL(name, fn, self_dtypes)                                 \
  EMBER_REGISTER_SELECTED_(name, (::ember::make_kernel_entry<decltype(&fn), &fn>(     \
                                     name, (self_dtypes), false,                      \
                                     ::ember::default_tensor_dtypes(self_dtypes))))

// The same for a kernel that works through strides, so any dim order will do.
#define EMBER_REGISTER_STRIDED_KERNEL(name, fn, self_dtypes)                         \
  EMBER_REGISTER_SELECTED_(name, (::ember::make_kernel_entry<decltype(&fn), &fn>(     \
                                     name, (self_dtypes), true,                       \
                                     ::ember::default_tensor_dtypes(self_dtypes))))

// A kernel whose tensors other than self may have the dtypes in
// `tensor_dtypes` (a real self with a complex out: view_as_complex, _fft_r2c).
#define EMBER_REGISTER_KERNEL_DTYPES(name, fn, self_dtypes, tensor_dtypes)           \
  EMBER_REGISTER_SELECTED_(name, (::ember::make_kernel_entry<decltype(&fn), &fn>(     \
                                     name, (self_dtypes), false, (tensor_dtypes))))

// A kernel that needs scratch memory: `temp_bytes(args)` says how much, at load.
#define EMBER_REGISTER_KERNEL_WITH_TEMP(name, fn, self_dtypes, tensor_dtypes, temp_bytes) \
  EMBER_REGISTER_SELECTED_(name, (::ember::make_kernel_entry<decltype(&fn), &fn>(          \
                                     name, (self_dtypes), false, (tensor_dtypes),          \
                                     ::ember::KernelRank::Portable, (temp_bytes))))

// Registers an optimized kernel: it outranks the portable kernel of the same
// name, so it is the one found whatever order the libraries initialize in. It
// must declare the same dtypes as the portable kernel it replaces (calling
// that kernel for the cases it does not speed up), so that load-time dtype
// checks do not depend on which libraries are linked.
#define EMBER_REGISTER_OPTIMIZED_KERNEL(name, fn, self_dtypes)                       \
  EMBER_REGISTER_SELECTED_(name, (::ember::make_kernel_entry<decltype(&fn), &fn>(     \
                                     name, (self_dtypes), false,                      \
                                     ::ember::default_tensor_dtypes(self_dtypes),     \
                                     ::ember::KernelRank::Optimized)))
