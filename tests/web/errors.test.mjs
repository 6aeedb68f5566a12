// Bad files and bad inputs: each is an EmberError with the runtime's
// message, never a crash, and the module keeps working afterwards.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {test} from 'node:test';

import {caseNamed, ember, fixturePath, runCase} from './helpers.mjs';

const {Program, Tensor, EmberError} = ember;
await ember.init({threads: false});

function rejectsWith(promise, statusName, pattern) {
  return assert.rejects(promise, (e) => {
    assert.ok(e instanceof EmberError, `not an EmberError: ${e}`);
    assert.equal(e.statusName, statusName, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

function throwsWith(fn, statusName, pattern) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof EmberError, `not an EmberError: ${e}`);
    assert.equal(e.statusName, statusName, e.message);
    if (pattern) assert.match(e.message, pattern);
    return true;
  });
}

test('bad files are refused with the loader\'s reason', async () => {
  const good = readFileSync(fixturePath('cnn.pte'));
  const random = new Uint8Array(4096).map((_, i) => (i * 2654435761) >>> 24);
  const corrupt = new Uint8Array(good);
  for (let i = 64; i < corrupt.length; i += 97) corrupt[i] ^= 0x5a;
  const cases = [
    [new Uint8Array(0), 'empty'],
    [random, 'random bytes'],
    [new TextEncoder().encode('not a program at all, just text\n'.repeat(20)), 'text'],
    [good.subarray(0, good.length >> 1), 'truncated'],
    [good.subarray(0, 16), 'a header only'],
  ];
  for (const [bytes, what] of cases) {
    await assert.rejects(Program.load(bytes), (e) => {
      assert.ok(e instanceof EmberError, `${what}: ${e}`);
      assert.ok(['InvalidProgram', 'InvalidArgument', 'NotSupported'].includes(e.statusName),
                `${what}: ${e.statusName}: ${e.message}`);
      assert.match(e.message, /ember_program_load_buffer/, what);
      return true;
    });
  }
  // Corrupted weights or tables: refused at load or at the method, or run
  // to some output, but never a crash.
  try {
    const p = await Program.load(corrupt);
    try {
      p.forward(Tensor.zeros('float32', [1, 3, 32, 32]));
    } catch (e) {
      assert.ok(e instanceof EmberError, String(e));
    } finally {
      p.dispose();
    }
  } catch (e) {
    assert.ok(e instanceof EmberError, String(e));
  }
  await rejectsWith(Program.load(fixturePath('no-such-file.pte')), 'AccessFailed', /no-such-file/);
  await runCase(caseNamed('cnn'));  // the module still works
});

test('bad inputs are refused with the runtime\'s message', async () => {
  const program = await Program.load(fixturePath('cnn.pte'));
  try {
    const ok = Tensor.zeros('float32', [1, 3, 32, 32]);
    throwsWith(() => program.forward(Tensor.zeros('int32', [1, 3, 32, 32])), 'InvalidType',
               /input 0 of 'forward' is Float, the tensor is Int/);
    throwsWith(() => program.forward(Tensor.zeros('float32', [1, 3, 32, 31])), 'InvalidArgument',
               /dim 3 is 31, the method takes 32/);
    throwsWith(() => program.forward(Tensor.zeros('float32', [3, 32, 32])), 'InvalidArgument',
               /has 4 dims, the tensor 3/);
    throwsWith(() => program.forward(Tensor.zeros('float32', [2, 3, 32, 32])), 'InvalidArgument');
    throwsWith(() => program.forward([ok, ok]), 'InvalidArgument', /takes 1 input, got 2/);
    throwsWith(() => program.forward([]), 'InvalidArgument', /takes 1 input, got 0/);
    throwsWith(() => program.forward(['x']), 'InvalidArgument', /not a Tensor/);
    throwsWith(() => program.forward({nope: ok}), 'InvalidArgument', /missing/);
    throwsWith(() => program.method('backward'), 'NotFound', /no method named 'backward'/);
    // Still runs afterwards.
    await runCase(caseNamed('cnn'), program);
  } finally {
    program.dispose();
  }
  throwsWith(() => program.forward(Tensor.zeros('float32', [1, 3, 32, 32])), 'InvalidState', /disposed/);
  program.dispose();  // twice is harmless
});

test('bad tensors are refused before they reach the runtime', () => {
  throwsWith(() => new Tensor('float32', new Float32Array(5), [2, 3]), 'InvalidArgument', /5 elements/);
  throwsWith(() => new Tensor('float32', new Float64Array(6), [2, 3]), 'InvalidArgument', /Float32Array/);
  throwsWith(() => new Tensor('complex64', new Float32Array(2), [2]), 'InvalidArgument', /not a dtype/);
  throwsWith(() => new Tensor('int8', new Int8Array(1), [-1]), 'InvalidArgument', /not a size/);
  throwsWith(() => Tensor.zeros('float32', new Array(17).fill(1)), 'InvalidArgument', /rank 17/);
});

test('load options are checked and limits enforced', async () => {
  await assert.rejects(Program.load(fixturePath('cnn.pte'), {threads: 0}), /threads/);
  const limited = await Program.load(fixturePath('cnn.pte'), {maxMemoryBytes: 1024});
  try {
    throwsWith(() => limited.method(), 'MemoryAllocationFailed');
  } finally {
    limited.dispose();
  }
  // x * 3 + 1 on int32: two portable kernels, more than a limit of one
  // (the CPU backend's programs are one delegate call).
  const c = caseNamed('dtype_int32');
  const short = await Program.load(fixturePath(c.program), {maxInstructions: 1});
  try {
    throwsWith(() => short.forward(Tensor.zeros('int32', c.inputs[0].dims)), 'InvalidState',
               /instructions, more than the limit of 1/);
  } finally {
    short.dispose();
  }
  const enough = await Program.load(fixturePath(c.program), {maxInstructions: 16});
  try {
    await runCase(c, enough);
  } finally {
    enough.dispose();
  }
});
