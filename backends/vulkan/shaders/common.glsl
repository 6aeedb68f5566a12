// What every shader shares: the parameter words of its op (binding 0, from
// word pc.params on), the first element of each tensor binding (pc.off: a
// binding starts at an aligned offset, the value a few elements later), and
// the activations and clamp an op applies on the way out. Included after
// #version and the extensions.

layout(push_constant) uniform PushConstants {
  uint params;
  uint off[5];
} pc;

layout(std430, set = 0, binding = 0) readonly buffer ParamWords { uint P[]; };

uint pu(uint i) { return P[pc.params + i]; }
int pi(uint i) { return int(P[pc.params + i]); }
float pf(uint i) { return uintBitsToFloat(P[pc.params + i]); }

// Grid-stride loops: a dispatch has at most 65535 groups along x.
#define GRID_LOOP(i, n, local)                                               \
  for (uint i = gl_GlobalInvocationID.x; i < (n); i += gl_NumWorkGroups.x * (local))

#define kNaN uintBitsToFloat(0x7fc00000u)
#define kInf uintBitsToFloat(0x7f800000u)
const uint kNoActivation = 0xffffffffu;

// NaN passes through, as torch.clamp lets it.
float clamp_keep_nan(float v, float lo, float hi) { return v < lo ? lo : (v > hi ? hi : v); }

// erf to 1.5e-7 (Abramowitz and Stegun 7.1.26): GLSL has none.
float erf_approx(float x) {
  float a = abs(x);
  float t = 1.0 / (1.0 + 0.3275911 * a);
  float y = 1.0 - (((((1.061405429 * t - 1.453152027) * t) + 1.421413741) * t - 0.284496736) * t +
                   0.254829592) * t * exp(-a * a);
  return x < 0.0 ? -y : y;
}

// tanh without the inf / inf of a large |x| that some drivers' tanh give.
float tanh_safe(float x) { return abs(x) < 10.0 ? tanh(x) : sign(x); }

float sigmoid(float x) { return 1.0 / (1.0 + exp(-x)); }

// The blob's UnaryOp codes (cpu_delegate.fbs): Relu 0, Clamp 1, Gelu 2,
// GeluTanh 3, Silu 4, Sigmoid 5, Tanh 6, HardSwish 7, HardSigmoid 8, Exp 9,
// Neg 10, Sqrt 11, Rsqrt 12, Abs 13. Relu and Clamp are the clamp alone
// (the caller's bounds, relu's low bound raised to 0).
float activate(uint op, float x) {
  switch (op) {
    case 2u: return 0.5 * x * (1.0 + erf_approx(x * 0.70710678118654752));
    case 3u: return 0.5 * x * (1.0 + tanh_safe(0.79788456080286536 * (x + 0.044715 * x * x * x)));
    case 4u: return x * sigmoid(x);
    case 5u: return sigmoid(x);
    case 6u: return tanh_safe(x);
    case 7u: return x * clamp(x + 3.0, 0.0, 6.0) / 6.0;
    case 8u: return clamp(x + 3.0, 0.0, 6.0) / 6.0;
    case 9u: return exp(x);
    case 10u: return -x;
    case 11u: return sqrt(x);
    case 12u: return inversesqrt(x);
    case 13u: return abs(x);
    default: return x;
  }
}
