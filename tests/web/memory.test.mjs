// Memory does not grow with use: 10,000 calls of a method, and programs
// loaded and disposed again and again, leave the module's malloc heap where
// it was (ember_wasm_heap_in_use) and its memory at the same size.
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {caseNamed, ember, fixturePath, readTensor} from './helpers.mjs';

const {Program} = ember;
await ember.init({threads: false});

// The module, reached the way the tests may: through a program's runtime.
function heap(program) {
  const wasm = program.rt.wasm;
  return {inUse: wasm._ember_wasm_heap_in_use() >>> 0, memory: program.rt.buffer().byteLength};
}

test('10,000 calls leave the heap as it was', async () => {
  const c = caseNamed('mlp_dynamic.1');
  const program = await Program.load(fixturePath(c.program));
  try {
    const x = readTensor(c.inputs[0]);
    for (let i = 0; i < 10; ++i) program.forward(x);  // warm: every buffer made
    const before = heap(program);
    for (let i = 0; i < 10000; ++i) program.forward(x);
    const after = heap(program);
    assert.equal(after.inUse, before.inUse, `heap in use: ${before.inUse} -> ${after.inUse}`);
    assert.equal(after.memory, before.memory);
  } finally {
    program.dispose();
  }
});

test('refused calls leak nothing either', async () => {
  const program = await Program.load(fixturePath('cnn.pte'));
  try {
    const bad = ember.Tensor.zeros('int32', [1, 3, 32, 32]);
    program.method();  // loaded before measuring: its memory stays until dispose
    const before = heap(program);
    for (let i = 0; i < 1000; ++i) assert.throws(() => program.forward(bad));
    assert.equal(heap(program).inUse, before.inUse);
  } finally {
    program.dispose();
  }
});

test('loading and disposing 200 programs returns their memory', async () => {
  const first = await Program.load(fixturePath('transformer.pte'));
  first.method();
  first.dispose();
  const probe = await Program.load(fixturePath('dtype_float32.pte'));
  const before = heap(probe);
  for (let i = 0; i < 200; ++i) {
    const p = await Program.load(fixturePath('transformer.pte'));
    p.forward(readTensor(caseNamed('transformer').inputs[0]));
    p.dispose();
  }
  assert.equal(heap(probe).inUse, before.inUse);
  probe.dispose();
});
