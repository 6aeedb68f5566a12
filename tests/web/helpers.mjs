// What the Node tests share: where the JavaScript package and the fixtures
// are (environment, set by tests/web/run_node_tests.py), reading a fixture
// case's tensors, and comparing outputs with their tolerance.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

export const JS_DIR = process.env.EMBER_JS_DIR;
export const FIXTURES = process.env.EMBER_FIXTURES;
if (!JS_DIR || !FIXTURES) {
  throw new Error('EMBER_JS_DIR and EMBER_FIXTURES must be set (tests/web/run_node_tests.py sets them)');
}

export const ember = await import(pathToFileURL(join(JS_DIR, 'ember.mjs')).href);
export const manifest = JSON.parse(readFileSync(join(FIXTURES, 'manifest.json'), 'utf8'));

export function fixturePath(name) { return join(FIXTURES, name); }

const ARRAYS = {
  uint8: Uint8Array, int8: Int8Array, int16: Int16Array, int32: Int32Array,
  int64: BigInt64Array, float16: Uint16Array, float32: Float32Array, float64: Float64Array,
  bool: Uint8Array, bfloat16: Uint16Array,
};

export function readTensor(t) {
  const bytes = readFileSync(join(FIXTURES, t.file));
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  const data = new ARRAYS[t.dtype](copy.buffer);
  return new ember.Tensor(t.dtype, data, t.dims);
}

export function caseNamed(name) {
  const c = manifest.cases.find((x) => x.name === name);
  assert.ok(c, `no fixture case ${name}`);
  return c;
}

// Compares an output with the expected tensor: dtype and dims exactly,
// integers and bools exactly, floats within atol + rtol * |want| (the
// case's), float16 and bfloat16 within one unit in their last place too.
export function assertClose(got, want, atol, rtol, what) {
  assert.equal(got.dtype, want.dtype, `${what}: dtype`);
  assert.deepEqual(got.dims, want.dims, `${what}: dims`);
  const floating = ['float16', 'bfloat16', 'float32', 'float64'].includes(want.dtype);
  if (!floating) {
    assert.deepEqual(Array.from(got.data), Array.from(want.data), `${what}: values`);
    return;
  }
  const g = got.toFloat32();
  const w = want.toFloat32();
  const ulp = want.dtype === 'float16' ? 2 ** -10 : want.dtype === 'bfloat16' ? 2 ** -7 : 0;
  let worst = 0;
  let at = -1;
  for (let i = 0; i < w.length; ++i) {
    const err = Math.abs(g[i] - w[i]);
    const tol = atol + (rtol + ulp) * Math.abs(w[i]);
    if (!(err <= tol) && err - tol > worst) {
      worst = err - tol;
      at = i;
    }
    if (Number.isNaN(w[i]) !== Number.isNaN(g[i])) assert.fail(`${what}[${i}]: ${g[i]} vs ${w[i]}`);
  }
  assert.equal(at, -1, `${what}[${at}] = ${g[at]}, want ${w[at]} (atol ${atol}, rtol ${rtol})`);
}

// Runs a fixture case on `program` (loaded from its file when not given).
export async function runCase(c, program) {
  const own = program === undefined;
  if (own) program = await ember.Program.load(fixturePath(c.program), {threads: 1});
  try {
    const outputs = program.run(c.method, c.inputs.map(readTensor));
    assert.equal(outputs.length, c.outputs.length, `${c.name}: outputs`);
    c.outputs.forEach((want, i) => assertClose(outputs[i], readTensor(want), c.atol, c.rtol, `${c.name} output ${i}`));
    return outputs;
  } finally {
    if (own) program.dispose();
  }
}
