// The web demo's selective module (make efficientnet-web: only what
// EfficientNet-Lite0 float and int8 use, no LLM runner): a program that needs
// a kernel it left out is refused by name, as an EmberError, and the module
// keeps working. Run by tests/web/run_node_tests.py --selective against that
// module's folder; the complete module's runs skip it.
import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import {join} from 'node:path';
import {test} from 'node:test';
import {pathToFileURL} from 'node:url';

import {caseNamed, ember, fixturePath, JS_DIR, runCase} from './helpers.mjs';

const selective = process.env.EMBER_SELECTIVE === '1';
const {Program, EmberError} = ember;
if (selective) await ember.init({threads: false});

// The refusal comes when the method is prepared (load_method), so either
// step may report it.
async function refused(name) {
  let program;
  try {
    program = await Program.load(fixturePath(name), {threads: 1});
    program.method('forward');
  } catch (e) {
    return e;
  } finally {
    program?.dispose();
  }
  return null;
}

test('a program needing a kernel the build left out is refused by name', {skip: !selective}, async () => {
  // Affine over int64 and over float64: portable kernels the demo never uses.
  for (const name of ['dtype_int64.pte', 'dtype_float64.pte']) {
    const e = await refused(name);
    assert.ok(e instanceof EmberError, `${name}: not refused with an EmberError: ${e}`);
    assert.match(e.message, /no kernel for operator|has no kernel for dtype/, `${name}: ${e.message}`);
  }
});

test('after a refusal the module still runs what it was built for', {skip: !selective}, async () => {
  await refused('dtype_int64.pte');
  // The CNN fixture is all on the CPU backend's ops the demo keeps (Conv2d,
  // Linear, ...): it must still load and match eager.
  await runCase(caseNamed('cnn'));
});

test('the C ABI\'s LLM functions say the build left the runner out', {skip: !selective}, async () => {
  // The JavaScript API has no LLM calls: ask the module itself.
  const {default: createEmberWasm} = await import(pathToFileURL(join(JS_DIR, 'ember-wasm.mjs')).href);
  // Emscripten 3.1.6 would fetch() the .wasm, which Node cannot: hand it the bytes.
  const m = await createEmberWasm({wasmBinary: readFileSync(join(JS_DIR, 'ember-wasm.wasm'))});
  const path = m._malloc(64);
  m.stringToUTF8('model.pte', path, 64);
  const out = m._malloc(4);
  const status = m._ember_llm_load(path, 0, 0, out);
  assert.equal(m.UTF8ToString(m._ember_status_name(status)), 'NotSupported');
  assert.match(m.UTF8ToString(m._ember_last_error()), /ember_llm_load: .*without the LLM runner/);
  assert.equal(m.HEAPU32[out >> 2], 0);
  m._free(path);
  m._free(out);
});
