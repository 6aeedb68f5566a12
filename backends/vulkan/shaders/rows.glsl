// Workgroup-wide sums and maxima for the shaders that give a row of a value
// to one workgroup of ROW_THREADS invocations (softmax, norms, reductions).
// Every invocation must call them (they synchronise the group).

shared float row_scratch[ROW_THREADS];

float group_sum(float v) {
  const uint t = gl_LocalInvocationID.x;
  row_scratch[t] = v;
  barrier();
  for (uint s = ROW_THREADS / 2u; s > 0u; s >>= 1u) {
    if (t < s) row_scratch[t] += row_scratch[t + s];
    barrier();
  }
  const float result = row_scratch[0];
  barrier();
  return result;
}

// NaN wins, as torch's max and softmax propagate it.
float nan_max(float x, float y) { return (isnan(x) || x > y) ? x : y; }

float group_max(float v) {
  const uint t = gl_LocalInvocationID.x;
  row_scratch[t] = v;
  barrier();
  for (uint s = ROW_THREADS / 2u; s > 0u; s >>= 1u) {
    if (t < s) row_scratch[t] = nan_max(row_scratch[t], row_scratch[t + s]);
    barrier();
  }
  const float result = row_scratch[0];
  barrier();
  return result;
}
