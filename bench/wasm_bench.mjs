// Times one program on Ember's WebAssembly runtime under Node, as ember_run
// times it natively (bench/wasm_bench.py runs both and prints the ratio):
//   node bench/wasm_bench.mjs --js build/wasm/js --pte m.pte --input x.bin \
//       --dtype float32 --dims 1,3,224,224 [--runs 20] [--warmup 3] [--threads 1] [--output y.bin]
// Prints one JSON line: the median, min and mean of the runs in ms, the load time.
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {pathToFileURL} from 'node:url';

const args = {runs: '20', warmup: '3', threads: '1'};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const ember = await import(pathToFileURL(join(args.js, 'ember.mjs')).href);
const info = await ember.init({threads: Number(args.threads) > 1 ? 'auto' : false});

const ARRAYS = {float32: Float32Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array, int8: Int8Array};
const bytes = readFileSync(args.input);
const data = new ARRAYS[args.dtype](bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
const x = new ember.Tensor(args.dtype, data, args.dims.split(',').map(Number));

let start = performance.now();
const program = await ember.Program.load(args.pte, {threads: Number(args.threads)});
program.method('forward');
const load = performance.now() - start;
let out;
for (let i = 0; i < Number(args.warmup); ++i) out = program.forward(x);
const times = [];
for (let i = 0; i < Number(args.runs); ++i) {
  start = performance.now();
  out = program.forward(x);
  times.push(performance.now() - start);
}
if (args.output) writeFileSync(args.output, new Uint8Array(out[0].data.buffer));
times.sort((a, b) => a - b);
console.log(JSON.stringify({
  median_ms: times[times.length >> 1], min_ms: times[0],
  mean_ms: times.reduce((a, b) => a + b, 0) / times.length, runs: times.length, load_ms: load,
  threads: program.threads, module: info.threads ? 'threads' : 'single',
}));
program.dispose();
await ember.shutdown();
