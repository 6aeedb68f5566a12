// The JavaScript API against PyTorch eager (and, for int8, the native
// runtime): every dtype, dynamic shapes, the CPU backend's kernel families,
// two methods in a program, state across calls, metadata.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

import {assertClose, caseNamed, ember, fixturePath, manifest, readTensor, runCase} from './helpers.mjs';

const {Program, Tensor, EmberError} = ember;
await ember.init({threads: false});

test('the module reports its version and ABI', async () => {
  const info = await ember.init();
  assert.match(info.version, /^\d+\.\d+\.\d+/);
  assert.match(info.abi, /^1\.\d+$/);
  assert.equal(info.threads, false);
  assert.equal(info.maxThreads, 1);
});

for (const dtype of ember.dtypes) {
  test(`a ${dtype} program runs on ${dtype} typed arrays`, async () => {
    const c = caseNamed(`dtype_${dtype}`);
    const program = await Program.load(fixturePath(c.program));
    try {
      const m = program.method('forward');
      assert.deepEqual(m.inputs.map((i) => [i.dtype, i.shape]), [[dtype, c.inputs[0].dims]]);
      assert.deepEqual(m.outputs.map((o) => [o.dtype, o.shape]), [[dtype, c.outputs[0].dims]]);
      const [out] = await runCase(c, program);
      assert.ok(out.data instanceof readTensor(c.outputs[0]).data.constructor);
    } finally {
      program.dispose();
    }
  });
}

test('dynamic shapes: any batch up to the bound, refused past it', async () => {
  const program = await Program.load(fixturePath('mlp_dynamic.pte'));
  try {
    const m = program.method();
    assert.deepEqual(m.inputs[0].shape, [8, 16], 'metadata gives the upper bound');
    assert.deepEqual(m.inputs[0].dynamic, [true, false], 'and which dims are dynamic');
    for (const c of manifest.cases.filter((x) => x.name.startsWith('mlp_dynamic.'))) {
      await runCase(c, program);
    }
    const tooBig = Tensor.zeros('float32', [9, 16]);
    assert.throws(() => program.forward(tooBig), (e) => e instanceof EmberError && /8/.test(e.message));
    // A refused call leaves the method usable.
    await runCase(caseNamed('mlp_dynamic.0'), program);
  } finally {
    program.dispose();
  }
});

for (const name of ['cnn', 'transformer', 'cnn_int8']) {
  test(`${name} matches ${name.endsWith('int8') ? 'the native runtime' : 'PyTorch eager'}`, async () => {
    await runCase(caseNamed(name));
  });
}

test('two methods: names, metadata, each runs', async () => {
  const program = await Program.load(fixturePath('two_methods.pte'));
  try {
    assert.deepEqual([...program.methodNames].sort(), ['forward', 'triple']);
    const triple = program.method('triple');
    assert.equal(triple.inputs[0].dtype, 'int64');
    assert.deepEqual(triple.inputs[0].shape, [8]);
    assert.deepEqual(triple.inputs[0].dynamic, [true]);
    assert.deepEqual(program.method('forward').inputs[0].dynamic, [false, false]);
    await runCase(caseNamed('two_methods'), program);
    await runCase(caseNamed('two_methods_triple'), program);
    assert.ok(triple.memoryBytes > 0);
  } finally {
    program.dispose();
  }
});

test('inputs by name, and forward with one tensor per argument', async () => {
  const c = caseNamed('cnn');
  const program = await Program.load(fixturePath(c.program));
  try {
    const x = readTensor(c.inputs[0]);
    const name = program.method().inputs[0].name;
    const want = readTensor(c.outputs[0]);
    if (name) assertClose(program.forward({[name]: x})[0], want, c.atol, c.rtol, 'by name');
    assertClose(program.forward(x)[0], want, c.atol, c.rtol, 'one argument');
    assertClose(program.forward([x])[0], want, c.atol, c.rtol, 'an array');
  } finally {
    program.dispose();
  }
});

test('state persists across calls until resetState', async () => {
  const program = await Program.load(fixturePath('accumulate.pte'));
  try {
    await runCase(caseNamed('accumulate.0'), program);
    await runCase(caseNamed('accumulate.1'), program);
    program.resetState();
    await runCase(caseNamed('accumulate.0'), program);
  } finally {
    program.dispose();
  }
});

test('a program loads from an ArrayBuffer, a Uint8Array and a file URL', async () => {
  const bytes = readFileSync(fixturePath('cnn.pte'));
  const c = caseNamed('cnn');
  for (const source of [bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
                        new Uint8Array(bytes), new URL(`file://${fixturePath('cnn.pte')}`)]) {
    const program = await Program.load(source);
    try {
      await runCase(c, program);
    } finally {
      program.dispose();
    }
  }
});

test('outputs own their data: they survive the next run and dispose', async () => {
  const c = caseNamed('mlp_dynamic.1');
  const program = await Program.load(fixturePath(c.program));
  const [first] = await runCase(c, program);
  const kept = Float32Array.from(first.data);
  program.forward(Tensor.zeros('float32', [5, 16]));
  program.dispose();
  assert.deepEqual(Array.from(first.data), Array.from(kept));
});

test('float16 and bfloat16 convert from and to numbers as IEEE says', () => {
  // Values exactly representable, and a tie that rounds to even.
  const half = Tensor.fromFloat32('float16', [1, -2, 0.5, 65504, 2 ** -24, 1 + 2 ** -11], [6]);
  assert.deepEqual(Array.from(half.data), [0x3c00, 0xc000, 0x3800, 0x7bff, 0x0001, 0x3c00]);
  assert.deepEqual(Array.from(half.toFloat32()), [1, -2, 0.5, 65504, 2 ** -24, 1]);
  const bf = Tensor.fromFloat32('bfloat16', [1, -2, 3.140625, 1 + 2 ** -8], [4]);
  assert.deepEqual(Array.from(bf.data), [0x3f80, 0xc000, 0x4049, 0x3f80]);
  // The fixtures' half values are PyTorch's: they go round the trip unchanged.
  for (const dtype of ['float16', 'bfloat16']) {
    const t = readTensor(caseNamed(`dtype_${dtype}`).inputs[0]);
    assert.deepEqual(Array.from(Tensor.fromFloat32(dtype, t.toFloat32(), t.dims).data), Array.from(t.data));
  }
});
