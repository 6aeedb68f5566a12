// What the executor of a build can do. Every feature is in by default; a
// selective build (docs/size.md) leaves out what its programs do not use
// (delegate calls, control flow, tensors in other dim orders) and a size build
// may leave out the event tracer and the application's limits, so that none
// of them costs bytes where it is not used. A program or a MethodConfig that
// asks for a feature the build left out is refused at load, naming it.
#pragma once

#ifndef EMBER_FEATURE_DELEGATES
#define EMBER_FEATURE_DELEGATES 1
#endif
#ifndef EMBER_FEATURE_CONTROL_FLOW
#define EMBER_FEATURE_CONTROL_FLOW 1
#endif
#ifndef EMBER_FEATURE_DIM_ORDERS
#define EMBER_FEATURE_DIM_ORDERS 1
#endif
#ifndef EMBER_FEATURE_EVENT_TRACER
#define EMBER_FEATURE_EVENT_TRACER 1
#endif
#ifndef EMBER_FEATURE_LIMITS
#define EMBER_FEATURE_LIMITS 1
#endif

namespace ember::features {

// DelegateCall instructions and the backends they call.
constexpr bool kDelegates = EMBER_FEATURE_DELEGATES;
// MoveCall and JumpFalseCall instructions (torch.cond, while_loop).
constexpr bool kControlFlow = EMBER_FEATURE_CONTROL_FLOW;
// Row-major twins of tensors in other dim orders for kernels that index
// row-major (channels-last programs).
constexpr bool kDimOrders = EMBER_FEATURE_DIM_ORDERS;
// MethodConfig::event_tracer (profiling, intermediate outputs).
constexpr bool kEventTracer = EMBER_FEATURE_EVENT_TRACER;
// MethodConfig::max_memory_bytes and max_instructions.
constexpr bool kLimits = EMBER_FEATURE_LIMITS;

}  // namespace ember::features
