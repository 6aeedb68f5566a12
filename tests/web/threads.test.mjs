// Threads under Node: Emscripten 3.1.6's threaded module cannot start its
// workers there (the pthread worker script is not an ES module), so 'auto'
// must give the single-threaded module, and a program asking for threads
// gets one and the right answers. The threaded module itself runs in the
// browser test (tests/web/test_browser.py: a cross-origin isolated page, 4
// threads, checked against the native runtime).
import assert from 'node:assert/strict';
import {test} from 'node:test';

import {caseNamed, ember, fixturePath, runCase} from './helpers.mjs';

const info = await ember.init();  // 'auto'
test('Node gets the single-threaded module', () => {
  assert.equal(info.threads, false);
  assert.equal(info.maxThreads, 1);
});

for (const name of ['cnn', 'transformer', 'cnn_int8', 'mlp_dynamic.2']) {
  test(`${name}: threads past the module's are clamped, not a hang`, async () => {
    const c = caseNamed(name);
    const program = await ember.Program.load(fixturePath(c.program), {threads: 64});
    try {
      assert.equal(program.threads, info.maxThreads);
      for (let i = 0; i < 5; ++i) await runCase(c, program);
    } finally {
      program.dispose();
    }
  });
}
