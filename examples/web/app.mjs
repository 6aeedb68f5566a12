// The page: photographs to pick, the model to use, the top-5 and the
// latency. Inference runs in a Web Worker (worker.mjs) so that the page
// stays responsive; the pixels are prepared here, on a canvas, as the model
// was trained to see them: shorter side to 256, a 224x224 centre crop,
// (pixel - 127) / 128, channels first.
//
// ?auto=1 classifies every photograph with both models and publishes the
// results in window.emberResults (tests/web/test_browser.py reads them).

const SIZE = 224;
const $ = (id) => document.getElementById(id);

const [labels, photos] = await Promise.all([
  fetch('labels.json').then((r) => r.json()),
  fetch('photos.json').then((r) => r.json()),
]);

const worker = new Worker(new URL('worker.mjs', import.meta.url), {type: 'module'});
let nextId = 0;
const pending = new Map();
worker.onmessage = ({data}) => {
  if (data.type === 'ready') {
    if (data.error) return fail(new Error(`the runtime did not load: ${data.error}`));
    $('runtime').textContent = `Ember ${data.info.version} (C ABI ${data.info.abi}), WebAssembly SIMD128, ` +
        (data.info.threads ? `${data.info.maxThreads} threads (cross-origin isolated page)` : 'one thread');
    return;
  }
  const {resolve, reject} = pending.get(data.id);
  pending.delete(data.id);
  if (data.error) reject(new Error(data.error));
  else resolve(data);
};
function ask(message) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, {resolve, reject});
    worker.postMessage({...message, id});
  });
}

function loadImage(src) {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error(`cannot load ${src}`));
    img.src = src;
  });
}

// The model's input: [1, 3, 224, 224] float32.
function prepare(img) {
  const canvas = $('input');
  const ctx = canvas.getContext('2d', {willReadFrequently: true});
  const scale = Math.round(SIZE / 0.875) / Math.min(img.naturalWidth, img.naturalHeight);
  const crop = SIZE / scale;  // the centre crop, in the photograph's pixels
  const sx = (img.naturalWidth - crop) / 2;
  const sy = (img.naturalHeight - crop) / 2;
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(img, sx, sy, crop, crop, 0, 0, SIZE, SIZE);
  const rgba = ctx.getImageData(0, 0, SIZE, SIZE).data;
  const x = new Float32Array(3 * SIZE * SIZE);
  for (let i = 0; i < SIZE * SIZE; ++i) {
    for (let c = 0; c < 3; ++c) x[c * SIZE * SIZE + i] = (rgba[4 * i + c] - 127) / 128;
  }
  return x;
}

function top5(logits) {
  const max = Math.max(...logits);
  const exp = logits.map((v) => Math.exp(v - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return [...exp.keys()].sort((a, b) => exp[b] - exp[a]).slice(0, 5)
      .map((k) => ({index: k, label: labels[k], p: exp[k] / sum}));
}

function show(best, timing) {
  $('top5').innerHTML = best.map((b) =>
    `<tr><td>${b.label}</td><td class="p">${(100 * b.p).toFixed(1)}%</td>` +
    `<td style="width:160px"><div class="bar" style="width:${Math.max(1, 160 * b.p)}px"></div></td></tr>`).join('');
  $('latency').textContent = `latency: ${timing.median.toFixed(1)} ms (median of ${timing.runs} runs; ` +
      `first run ${timing.first.toFixed(1)} ms, program load ${timing.load.toFixed(0)} ms)`;
}

async function classify(photo, model) {
  $('status').textContent = `classifying ${photo.name} with the ${model} model…`;
  const img = await loadImage(photo.file);
  const input = prepare(img);
  const result = await ask({type: 'classify', model, input});
  const best = top5(Array.from(result.logits));
  show(best, result.timing);
  $('status').textContent = `${photo.name}: ${best[0].label}`;
  return {photo: photo.name, model, top5: best, timing: result.timing, input};
}

let selected = photos[0];
for (const photo of photos) {
  const fig = document.createElement('figure');
  fig.innerHTML = `<img src="${photo.file}" alt="${photo.name}"><figcaption>${photo.name}</figcaption>`;
  fig.onclick = async () => {
    document.querySelectorAll('#photos figure').forEach((f) => f.classList.remove('selected'));
    fig.classList.add('selected');
    selected = photo;
    await classify(photo, $('model').value).catch(fail);
  };
  $('photos').append(fig);
}
$('model').onchange = () => classify(selected, $('model').value).catch(fail);

function fail(e) {
  $('status').textContent = String(e.message ?? e);
  $('status').className = 'error';
  window.emberError = String(e.message ?? e);
}

if (new URLSearchParams(location.search).has('auto')) {
  try {
    const results = [];
    for (const model of ['float', 'int8']) {
      $('model').value = model;
      for (const photo of photos) results.push(await classify(photo, model));
    }
    // Shown at the end: the first photograph with the float model.
    document.querySelector('#photos figure')?.classList.add('selected');
    $('model').value = 'float';
    show(results[0].top5, results[0].timing);
    prepare(await loadImage(photos[0].file));
    window.emberResults = results;
  } catch (e) {
    fail(e);
  }
} else {
  document.querySelector('#photos figure')?.classList.add('selected');
  classify(selected, 'float').catch(fail);
}
