// The threaded module (pthreads on SharedArrayBuffer, Web Workers): where it
// was built, the same programs give the same results on several threads.
// Skipped when the package folder holds only the single-threaded module.
import assert from 'node:assert/strict';
import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {after, test} from 'node:test';

import {caseNamed, ember, fixturePath, JS_DIR, runCase} from './helpers.mjs';

const built = existsSync(join(JS_DIR, 'ember-wasm-threads.wasm'));
const info = await ember.init();  // 'auto': the threaded module where there is one
after(() => ember.shutdown());  // its workers would keep Node alive

test('the threaded module loads where it was built', {skip: !built && 'not built'}, () => {
  assert.equal(info.threads, true);
  assert.ok(info.maxThreads >= 2, `maxThreads ${info.maxThreads}`);
});

for (const name of ['cnn', 'transformer', 'cnn_int8', 'mlp_dynamic.2']) {
  test(`${name} on ${info.maxThreads} threads`, {skip: !built && 'not built'}, async () => {
    const c = caseNamed(name);
    const program = await ember.Program.load(fixturePath(c.program), {threads: info.maxThreads});
    try {
      assert.equal(program.threads, info.maxThreads);
      for (let i = 0; i < 20; ++i) await runCase(c, program);
    } finally {
      program.dispose();
    }
  });
}

test('more threads than the module has are clamped, not a hang', {skip: !built && 'not built'}, async () => {
  const program = await ember.Program.load(fixturePath('cnn.pte'), {threads: 64});
  try {
    assert.equal(program.threads, info.maxThreads);
    await runCase(caseNamed('cnn'), program);
  } finally {
    program.dispose();
  }
});
