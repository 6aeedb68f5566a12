// out[i, :] = table[index[i], :], an invocation per output element. An
// index outside [0, rows) gives a row of zeros and sets bit 0 of the status
// word, which execute turns into an error (as the CPU backend fails the
// call).
// Params: outputs, width, rows, wide (int64 indices, else int32).
// Bindings: 1 indices (32-bit words), 2 table, 3 out, 4 status.
#version 450
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 256) in;
#include "common.glsl"

layout(std430, set = 0, binding = 1) restrict readonly buffer Index { uint index_words[]; };
layout(std430, set = 0, binding = 2) restrict readonly buffer Table { float table[]; };
layout(std430, set = 0, binding = 3) restrict writeonly buffer O { float o[]; };
layout(std430, set = 0, binding = 4) buffer Status { uint status[]; };

void main() {
  const uint n = pu(0), width = pu(1), rows = pu(2);
  const bool wide = pu(3) != 0u;
  GRID_LOOP(i, n, 256u) {
    const uint slot = i / width, col = i % width;
    uint row;
    bool ok;
    if (wide) {
      // Little-endian int64: in range only with a zero high word.
      row = index_words[pc.off[0] + 2u * slot];
      ok = index_words[pc.off[0] + 2u * slot + 1u] == 0u && row < rows;
    } else {
      row = index_words[pc.off[0] + slot];
      ok = row < rows;  // a negative int32 is a large uint
    }
    o[pc.off[2] + i] = ok ? table[pc.off[1] + row * width + col] : 0.0;
    if (!ok && col == 0u) atomicOr(status[pc.off[3]], 1u);
  }
}
