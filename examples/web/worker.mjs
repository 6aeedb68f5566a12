// The Web Worker that runs the models with Ember's JavaScript API: each
// program loaded once, then a run per request, timed (the first run, and
// the median of a few more, as a benchmark would).
import {init, Program, Tensor} from './ember/ember.mjs';

const RUNS = 5;
// The threaded module where the page is cross-origin isolated. Not awaited
// at the top level: a module worker that is still evaluating drops the
// messages it receives, so the handler is installed first and waits.
const ready = init();
ready.then((info) => postMessage({type: 'ready', info}),
           (e) => postMessage({type: 'ready', error: `${e.name}: ${e.message}`}));

const programs = new Map();
async function program(model) {
  if (!programs.has(model)) {
    const start = performance.now();
    const p = await Program.load(`models/efficientnet_lite0_${model}.pte`);
    p.method('forward');  // memory, kernels, packed weights: part of the load
    programs.set(model, {program: p, load: performance.now() - start});
  }
  return programs.get(model);
}

onmessage = async ({data}) => {
  try {
    await ready;
    const {program: p, load} = await program(data.model);
    const x = new Tensor('float32', data.input, [1, 3, 224, 224]);
    let start = performance.now();
    const [logits] = p.forward(x);
    const first = performance.now() - start;
    const times = [];
    for (let i = 0; i < RUNS; ++i) {
      start = performance.now();
      p.forward(x);
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    postMessage({id: data.id, logits: logits.data,
                 timing: {first, median: times[RUNS >> 1], runs: RUNS, load}}, [logits.data.buffer]);
  } catch (e) {
    postMessage({id: data.id, error: `${e.name}: ${e.message}`});
  }
};
