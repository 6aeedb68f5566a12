// Ember's JavaScript API: run .pte programs in a browser (page or worker) or
// in Node, on Ember's runtime compiled to WebAssembly. Everything goes
// through the C ABI (include/ember/ember.h); this file only moves bytes in
// and out of the module's memory and turns statuses into exceptions.
//
//   import { Program, Tensor } from './ember.mjs';
//   const program = await Program.load('model.pte');          // a URL, a path (Node) or bytes
//   const [logits] = program.forward(new Tensor('float32', pixels, [1, 3, 224, 224]));
//   program.dispose();
//
// Conventions: loading is async (fetching and compiling the module and the
// program); running is synchronous (the module computes on the calling
// thread, its own Web Workers helping when the page allows threads). Every
// failure throws an EmberError carrying the runtime's one-line message.
// Tensors handed back own their data (copies), so they outlive the next run
// and the program.

// ---- dtypes: the ABI's numbering (PyTorch's) ----

const DTYPES = {
  uint8: {code: 0, array: Uint8Array, bytes: 1},
  int8: {code: 1, array: Int8Array, bytes: 1},
  int16: {code: 2, array: Int16Array, bytes: 2},
  int32: {code: 3, array: Int32Array, bytes: 4},
  int64: {code: 4, array: BigInt64Array, bytes: 8},
  float16: {code: 5, array: Uint16Array, bytes: 2},  // IEEE half bits
  float32: {code: 6, array: Float32Array, bytes: 4},
  float64: {code: 7, array: Float64Array, bytes: 8},
  bool: {code: 11, array: Uint8Array, bytes: 1},       // 0 or 1
  bfloat16: {code: 15, array: Uint16Array, bytes: 2},  // the top half of a float32
};
const DTYPE_BY_CODE = new Map(Object.entries(DTYPES).map(([name, d]) => [d.code, name]));

/** The dtype names Tensor takes, in the ABI's order. */
export const dtypes = Object.freeze(Object.keys(DTYPES));

const STATUS_OK = 0;
const MAX_RANK = 16;
const LOAD_BORROW_BUFFER = 2;
const LOAD_OPTIONS_BYTES = 32;

/** What every failing call throws: the runtime's message, its status code and name. */
export class EmberError extends Error {
  constructor(message, status = 0, statusName = 'Error') {
    super(message);
    this.name = 'EmberError';
    this.status = status;
    this.statusName = statusName;
  }
}

function fail(message) {
  throw new EmberError(message, 0x12, 'InvalidArgument');
}

// ---- float16 and bfloat16 to and from float32 (round half to even) ----

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);

function floatToHalfBits(value) {
  f32[0] = value;
  const x = u32[0];
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);  // inf, NaN
  let e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;                          // overflow
  if (e <= 0) {                                                 // subnormal half
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let h = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const half = 1 << (shift - 1);
    if (rem > half || (rem === half && (h & 1))) h += 1;
    return sign | h;
  }
  let h = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && (h & 1))) h += 1;      // may carry into inf: right
  return sign | h;
}

function halfBitsToFloat(h) {
  const sign = h & 0x8000 ? -1 : 1;
  const exp = (h >>> 10) & 0x1f;
  const mant = h & 0x3ff;
  if (exp === 0) return sign * mant * 2 ** -24;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (1 + mant / 1024) * 2 ** (exp - 15);
}

function floatToBfloat16Bits(value) {
  f32[0] = value;
  const x = u32[0];
  if ((x & 0x7fffffff) > 0x7f800000) return ((x >>> 16) | 0x40) & 0xffff;  // quiet NaN
  return ((x + 0x7fff + ((x >>> 16) & 1)) >>> 16) & 0xffff;
}

function bfloat16BitsToFloat(b) {
  u32[0] = b << 16;
  return f32[0];
}

// ---- tensors ----

function checkDims(dims) {
  if (!Array.isArray(dims) && !ArrayBuffer.isView(dims)) fail('dims must be an array of sizes');
  if (dims.length > MAX_RANK) fail(`rank ${dims.length} is over the limit of ${MAX_RANK}`);
  const out = [];
  for (const d of dims) {
    const n = Number(d);
    if (!Number.isInteger(n) || n < 0 || n > 0x7fffffff) fail(`dims hold ${d}, not a size`);
    out.push(n);
  }
  return out;
}

/**
 * A dtype, a shape and data in a typed array (row-major). float16 and
 * bfloat16 hold their bits in a Uint16Array; build them from numbers with
 * Tensor.fromFloat32 and read them with toFloat32(). int64 data is a
 * BigInt64Array, bool a Uint8Array of 0 and 1.
 */
export class Tensor {
  constructor(dtype, data, dims) {
    const d = DTYPES[dtype];
    if (d === undefined) fail(`'${dtype}' is not a dtype (one of ${dtypes.join(', ')})`);
    this.dtype = dtype;
    this.dims = checkDims(dims ?? [data?.length ?? 0]);
    const size = this.dims.reduce((a, b) => a * b, 1);
    if (Array.isArray(data)) {
      data = dtype === 'int64' ? BigInt64Array.from(data, BigInt) : d.array.from(data);
    }
    if (!(data instanceof d.array)) {
      const got = data?.constructor?.name ?? typeof data;
      fail(`a ${dtype} tensor takes a ${d.array.name}, not a ${got}`);
    }
    if (data.length !== size) {
      fail(`data has ${data.length} elements, dims [${this.dims}] need ${size}`);
    }
    this.data = data;
  }

  /** Elements: the product of the dims. */
  get size() { return this.data.length; }

  /** A tensor of zeros. */
  static zeros(dtype, dims) {
    const d = DTYPES[dtype];
    if (d === undefined) fail(`'${dtype}' is not a dtype (one of ${dtypes.join(', ')})`);
    const shape = checkDims(dims);
    return new Tensor(dtype, new d.array(shape.reduce((a, b) => a * b, 1)), shape);
  }

  /** A float16, bfloat16, float32 or float64 tensor from numbers, rounded half to even. */
  static fromFloat32(dtype, values, dims) {
    if (dtype === 'float16' || dtype === 'bfloat16') {
      const bits = new Uint16Array(values.length);
      const convert = dtype === 'float16' ? floatToHalfBits : floatToBfloat16Bits;
      for (let i = 0; i < values.length; ++i) bits[i] = convert(values[i]);
      return new Tensor(dtype, bits, dims);
    }
    if (dtype === 'float32' || dtype === 'float64') {
      return new Tensor(dtype, DTYPES[dtype].array.from(values), dims);
    }
    return fail(`fromFloat32 makes floating-point tensors, not ${dtype}`);
  }

  /** The values as a Float32Array (int64 through Number). */
  toFloat32() {
    if (this.dtype === 'float16') return Float32Array.from(this.data, halfBitsToFloat);
    if (this.dtype === 'bfloat16') return Float32Array.from(this.data, bfloat16BitsToFloat);
    if (this.dtype === 'int64') return Float32Array.from(this.data, Number);
    return Float32Array.from(this.data);
  }
}

// ---- the WebAssembly module: one per page (or Node process), loaded once ----

const IS_NODE = typeof process === 'object' && typeof process.versions?.node === 'string';
let runtimePromise = null;

async function readBytesNode(url) {
  const {readFile} = await import('fs/promises');
  return new Uint8Array(await readFile(url));
}

async function instantiate(name, baseUrl) {
  const url = new URL(`${name}.mjs`, baseUrl);
  const {default: factory} = await import(url.href);
  const config = {
    // The module's own messages (the runtime's log, at EMBER_LOG_ERROR) go
    // to the console; every failure also reaches the caller as an EmberError.
    print: (text) => console.log(text),
    printErr: (text) => console.warn(text),
  };
  if (IS_NODE && url.protocol === 'file:') {
    // Emscripten 3.1.6 would fetch() a file path, which Node's fetch cannot.
    config.wasmBinary = await readBytesNode(new URL(`${name}.wasm`, baseUrl));
  } else {
    config.locateFile = (file) => new URL(file, baseUrl).href;
    config.mainScriptUrlOrBlob = url.href;
  }
  return factory(config);
}

function threadsAllowed() {
  if (typeof SharedArrayBuffer === 'undefined') return false;
  // Node: Emscripten 3.1.6's pthread worker (ember-wasm-threads.worker.js)
  // cannot load an ES module there (it reaches for require), so Node runs
  // the single-threaded module; browsers run the threaded one.
  return !IS_NODE && globalThis.crossOriginIsolated === true;
}

/**
 * Loads the WebAssembly module (Program.load does it on first use).
 * options.threads: 'auto' (the threaded build where it was built and the
 * page is cross-origin isolated, so SharedArrayBuffer works), or false.
 * options.baseUrl: where the module's files lie (default: beside this file).
 * Resolves to a description: {threads, maxThreads, version, abi}.
 */
export function init(options = {}) {
  if (runtimePromise === null) runtimePromise = loadRuntime(options);
  return runtimePromise.then((rt) => rt.info);
}

async function loadRuntime(options) {
  const baseUrl = options.baseUrl ? new URL(options.baseUrl, import.meta.url) : new URL('./', import.meta.url);
  let wasm = null;
  if (options.threads !== false && threadsAllowed()) {
    try {
      wasm = await instantiate('ember-wasm-threads', baseUrl);
    } catch (e) {
      wasm = null;  // not built, or refused: the single-threaded module
    }
  }
  if (wasm === null) wasm = await instantiate('ember-wasm', baseUrl);
  return new Runtime(wasm);
}

async function runtime() {
  if (runtimePromise === null) runtimePromise = loadRuntime({});
  return runtimePromise;
}

// Terminates the module's Web Workers (threaded build), so that Node can
// exit; the module cannot run programs afterwards.
export async function shutdown() {
  if (runtimePromise === null) return;
  const rt = await runtimePromise;
  rt.wasm.PThread?.terminateAllThreads();
  runtimePromise = null;
}

class Runtime {
  constructor(wasm) {
    this.wasm = wasm;
    this.u8 = null;
    const abi = wasm._ember_abi_version() >>> 0;
    if (abi >>> 16 !== 1) throw new EmberError(`the module speaks ABI ${abi >>> 16}, this file 1`);
    this.info = Object.freeze({
      threads: wasm._ember_wasm_max_threads() > 1,
      maxThreads: wasm._ember_wasm_max_threads(),
      version: wasm.UTF8ToString(wasm._ember_version()),
      abi: `${abi >>> 16}.${abi & 0xffff}`,
    });
    // Scratch words for out-parameters, kept for the module's life.
    this.scratch = this.malloc(256);  // ember_tensor_dims writes up to 16 int64
    // Errors go to the caller as exceptions; the log keeps to errors only.
    wasm._ember_set_log_level(2);
  }

  // The module's memory now. The threaded module's is a shared
  // WebAssembly.Memory (its buffer changes as another thread grows it); the
  // other one's views are renewed by Emscripten when it grows, on the
  // calling thread.
  buffer() {
    return this.wasm.wasmMemory ? this.wasm.wasmMemory.buffer : this.wasm.HEAPU8.buffer;
  }

  // Views of the memory, made again after it grows (a grown buffer is a new
  // object; a non-shared one detaches the old).
  bytes() {
    const buffer = this.buffer();
    if (this.u8 === null || this.u8.buffer !== buffer) {
      this.u8 = new Uint8Array(buffer);
      this.dv = new DataView(buffer);
    }
    return this.u8;
  }
  view() { this.bytes(); return this.dv; }

  malloc(bytes) {
    const p = this.wasm._malloc(Math.max(bytes, 1));
    if (p === 0) throw new EmberError(`out of memory: ${bytes} bytes`, 0x21, 'MemoryAllocationFailed');
    return p;
  }
  free(p) { if (p) this.wasm._free(p); }

  string(p) { return this.wasm.UTF8ToString(p); }
  cstring(text) {
    const n = this.wasm.lengthBytesUTF8(text) + 1;
    const p = this.malloc(n);
    this.wasm.stringToUTF8(text, p, n);
    return p;
  }

  check(status) {
    if (status === STATUS_OK) return;
    const message = this.string(this.wasm._ember_last_error());
    const name = this.string(this.wasm._ember_status_name(status));
    throw new EmberError(message || name, status, name);
  }

  u32(offset) { return this.view().getUint32(this.scratch + offset, true); }
  ptr(offset) { return this.u32(offset); }
}

// ---- programs and methods ----

const registry = typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry(({rt, handle, bytes, buffers}) => {
      // A program nobody disposed: its memory goes back when it is collected.
      for (const p of buffers) rt.free(p);
      rt.wasm._ember_program_destroy(handle);
      rt.free(bytes);
    })
    : null;

function tensorMeta(rt, tensorPtr) {
  const w = rt.wasm;
  const s = rt.scratch;
  rt.check(w._ember_tensor_dtype(tensorPtr, s));
  const code = rt.view().getInt32(s, true);
  rt.check(w._ember_tensor_rank(tensorPtr, s));
  const rank = rt.u32(0);
  rt.check(w._ember_tensor_dims(tensorPtr, s, MAX_RANK));
  const dv = rt.view();
  const shape = [];
  for (let d = 0; d < rank; ++d) shape.push(Number(dv.getBigInt64(s + 8 * d, true)));
  const dtype = DTYPE_BY_CODE.get(code);
  if (dtype === undefined) throw new EmberError(`dtype code ${code} is not one this file knows`);
  return {dtype, shape};
}

/** One method of a program: its inputs' and outputs' metadata, and run(). */
export class Method {
  constructor(program, name, handle) {
    this.program = program;
    this.name = name;
    this.handle = handle;
    const rt = program.rt;
    const w = rt.wasm;
    rt.check(w._ember_method_num_inputs(handle, rt.scratch));
    const numInputs = rt.u32(0);
    rt.check(w._ember_method_num_outputs(handle, rt.scratch));
    const numOutputs = rt.u32(0);
    // inputs[i]: {name, dtype, shape (dynamic dims at their upper bound),
    // dynamic (per dim: may it be smaller)}, or {name, dtype: null} for a
    // value that is not a tensor.
    this.inputs = [];
    for (let i = 0; i < numInputs; ++i) {
      rt.check(w._ember_method_input_name(handle, i, rt.scratch));
      const inputName = rt.string(rt.ptr(0));
      if (w._ember_method_input_meta(handle, i, rt.scratch) !== STATUS_OK) {
        this.inputs.push({name: inputName, dtype: null, shape: null});
        continue;
      }
      const meta = tensorMeta(rt, rt.ptr(0));
      rt.check(w._ember_method_input_dynamic_dims(handle, i, rt.scratch));
      const mask = rt.u32(0);
      this.inputs.push({name: inputName, ...meta, dynamic: meta.shape.map((_, d) => (mask >>> d & 1) === 1)});
    }
    this.outputs = [];
    for (let i = 0; i < numOutputs; ++i) {
      if (w._ember_method_output_meta(handle, i, rt.scratch) !== STATUS_OK) {
        this.outputs.push({dtype: null, shape: null});
        continue;
      }
      this.outputs.push(tensorMeta(rt, rt.ptr(0)));
    }
    // Buffers in the module's memory, sized for the largest shapes, made once:
    // every run copies into and out of them (no allocation per run).
    this.inputBuffers = this.inputs.map((m) => (m.dtype ? rt.malloc(bytesOf(m)) : 0));
    this.outputBuffers = this.outputs.map((m) => (m.dtype ? rt.malloc(bytesOf(m)) : 0));
    program.buffers.push(...this.inputBuffers, ...this.outputBuffers);
    this.dims = rt.malloc(8 * MAX_RANK);
    program.buffers.push(this.dims);
  }

  /** Bytes the loaded method took in the module (arenas, tables, delegate memory). */
  get memoryBytes() {
    const rt = this.program.live();
    rt.check(rt.wasm._ember_method_memory_bytes(this.handle, rt.scratch));
    return rt.u32(0);
  }

  /**
   * Runs the method on `inputs` (Tensors, one per input, in order; or an
   * object keyed by input name) and returns its outputs: a Tensor per tensor
   * output, a number (or BigInt past 2^53) per integer output.
   */
  run(inputs) {
    const rt = this.program.live();
    const w = rt.wasm;
    const list = this.orderInputs(inputs);
    for (let i = 0; i < list.length; ++i) this.bind(rt, i, list[i]);
    rt.check(w._ember_method_execute(this.handle));
    const outputs = [];
    for (let i = 0; i < this.outputs.length; ++i) outputs.push(this.output(rt, i));
    return outputs;
  }

  orderInputs(inputs) {
    if (inputs instanceof Tensor) inputs = [inputs];
    if (!Array.isArray(inputs)) {
      if (inputs === null || typeof inputs !== 'object') {
        fail(`'${this.name}' takes an array of Tensors or an object of them by input name`);
      }
      const byName = inputs;
      inputs = this.inputs.map((m, i) => {
        if (!(m.name in byName)) fail(`'${this.name}' input ${i} ('${m.name}') is missing`);
        return byName[m.name];
      });
    }
    if (inputs.length !== this.inputs.length) {
      fail(`'${this.name}' takes ${this.inputs.length} input${this.inputs.length === 1 ? '' : 's'}, got ${inputs.length}`);
    }
    return inputs;
  }

  bind(rt, i, tensor) {
    const meta = this.inputs[i];
    if (!(tensor instanceof Tensor)) fail(`'${this.name}' input ${i} is not a Tensor`);
    if (meta.dtype === null) fail(`'${this.name}' input ${i} is not a tensor input; this API passes tensors only`);
    // dtype and shape are checked by the runtime (ember_method_set_input),
    // whose message names the method, the input and the bound; the size
    // check here keeps the copy inside the buffer first.
    const bytes = tensor.data.byteLength;
    if (tensor.dtype === meta.dtype && bytes > bytesOf(meta)) {
      fail(`'${this.name}' input ${i}: ${tensor.size} elements, more than its largest shape [${meta.shape}] holds`);
    }
    const w = rt.wasm;
    const dv = rt.view();
    tensor.dims.forEach((d, k) => dv.setBigInt64(this.dims + 8 * k, BigInt(d), true));
    const fits = tensor.dtype === meta.dtype;
    const ptr = fits ? this.inputBuffers[i] : rt.malloc(bytes);
    try {
      rt.bytes().set(new Uint8Array(tensor.data.buffer, tensor.data.byteOffset, bytes), ptr);
      rt.check(w._ember_tensor_create(DTYPES[tensor.dtype].code, this.dims, tensor.dims.length,
                                      ptr, bytes, rt.scratch));
      const handle = rt.ptr(0);
      try {
        rt.check(w._ember_method_set_input(this.handle, i, handle));
      } finally {
        w._ember_tensor_destroy(handle);
      }
    } finally {
      if (!fits) rt.free(ptr);  // only reached on the way to the runtime's refusal
    }
  }

  output(rt, i) {
    const w = rt.wasm;
    if (this.outputs[i].dtype === null) {
      rt.check(w._ember_method_get_output_int(this.handle, i, rt.scratch));
      const v = rt.view().getBigInt64(rt.scratch, true);
      return v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
    }
    rt.check(w._ember_method_get_output(this.handle, i, rt.scratch));
    const handle = rt.ptr(0);
    const {dtype, shape} = tensorMeta(rt, handle);
    rt.check(w._ember_tensor_size(handle, rt.scratch));
    const bytes = rt.u32(0);
    const ptr = this.outputBuffers[i];
    rt.check(w._ember_tensor_copy_to(handle, ptr, bytes));
    const d = DTYPES[dtype];
    const data = new d.array(bytes / d.bytes);
    new Uint8Array(data.buffer).set(rt.bytes().subarray(ptr, ptr + bytes));
    return new Tensor(dtype, data, shape);
  }
}

function bytesOf(meta) {
  return meta.shape.reduce((a, b) => a * b, 1) * DTYPES[meta.dtype].bytes;
}

async function readSource(source) {
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  if (typeof source === 'string' || source instanceof URL) {
    let url;
    try {
      url = new URL(source);
    } catch {
      if (!IS_NODE) url = new URL(source, globalThis.location?.href);
    }
    if (IS_NODE && (url === undefined || url.protocol === 'file:')) {
      try {
        return await readBytesNode(url ?? source);
      } catch (e) {
        throw new EmberError(`cannot read ${source}: ${e.message}`, 0x22, 'AccessFailed');
      }
    }
    const response = await fetch(url);
    if (!response.ok) {
      throw new EmberError(`cannot fetch ${url}: HTTP ${response.status}`, 0x22, 'AccessFailed');
    }
    return new Uint8Array(await response.arrayBuffer());
  }
  return fail('a program is loaded from a URL, a path (Node), an ArrayBuffer or a Uint8Array');
}

/** A loaded, verified .pte program. */
export class Program {
  constructor(rt, handle, bytes, threads) {
    this.rt = rt;
    this.handle = handle;
    this.bytesPtr = bytes;
    this.buffers = [];
    this.methods = new Map();
    this.threads = threads;
    const w = rt.wasm;
    rt.check(w._ember_program_num_methods(handle, rt.scratch));
    const count = rt.u32(0);
    this.methodNames = [];
    for (let i = 0; i < count; ++i) {
      rt.check(w._ember_program_method_name(handle, i, rt.scratch));
      this.methodNames.push(rt.string(rt.ptr(0)));
    }
    this.token = {};
    registry?.register(this, {rt, handle, bytes, buffers: this.buffers}, this.token);
  }

  /**
   * Loads a program from a URL, a file path (Node), an ArrayBuffer or a
   * Uint8Array. options: threads (kernels' threads, the caller's included;
   * default: as many as the module allows, up to the cores), maxMemoryBytes
   * and maxInstructions (0: no limit).
   */
  static async load(source, options = {}) {
    const [rt, bytes] = await Promise.all([runtime(), readSource(source)]);
    const w = rt.wasm;
    const max = w._ember_wasm_max_threads();
    const cores = IS_NODE ? (await import('os')).cpus().length : (globalThis.navigator?.hardwareConcurrency ?? 1);
    let threads = options.threads ?? Math.min(cores, max);
    if (!Number.isInteger(threads) || threads < 1) fail(`threads must be a count of 1 or more, not ${threads}`);
    threads = Math.min(threads, max);
    // The program keeps its bytes in the module's memory and reads them in
    // place (EMBER_LOAD_BORROW_BUFFER): one copy of the weights, not two.
    // 64-byte aligned, as the ABI asks (malloc gives 8 here).
    const block = rt.malloc(bytes.length + 64);
    const data = block + ((64 - (block % 64)) % 64);
    rt.bytes().set(bytes, data);
    const opts = rt.malloc(LOAD_OPTIONS_BYTES);
    try {
      const dv = rt.view();
      for (let i = 0; i < LOAD_OPTIONS_BYTES; i += 4) dv.setUint32(opts + i, 0, true);
      dv.setUint32(opts, LOAD_OPTIONS_BYTES, true);
      dv.setUint32(opts + 4, threads, true);
      dv.setBigUint64(opts + 8, BigInt(options.maxMemoryBytes ?? 0), true);
      dv.setBigUint64(opts + 16, BigInt(options.maxInstructions ?? 0), true);
      dv.setUint32(opts + 24, LOAD_BORROW_BUFFER, true);
      rt.check(w._ember_program_load_buffer(data, bytes.length, opts, rt.scratch));
    } catch (e) {
      rt.free(block);
      throw e;
    } finally {
      rt.free(opts);
    }
    return new Program(rt, rt.ptr(0), block, threads);
  }

  live() {
    if (this.handle === 0) throw new EmberError('the program was disposed', 0x02, 'InvalidState');
    return this.rt;
  }

  /** The named method, loaded on first use (its memory, kernels and delegates). */
  method(name = 'forward') {
    const rt = this.live();
    let m = this.methods.get(name);
    if (m !== undefined) return m;
    if (typeof name !== 'string') fail('a method name is a string');
    const p = rt.cstring(name);
    try {
      rt.check(rt.wasm._ember_program_get_method(this.handle, p, rt.scratch));
    } finally {
      rt.free(p);
    }
    m = new Method(this, name, rt.ptr(0));
    this.methods.set(name, m);
    return m;
  }

  /** Runs method `name` (see Method.run). */
  run(name, inputs) { return this.method(name).run(inputs); }

  /** Runs 'forward' on the given Tensors (an array, or one per argument). */
  forward(...inputs) {
    return this.method('forward').run(inputs.length === 1 && !(inputs[0] instanceof Tensor) ? inputs[0] : inputs);
  }

  /** Mutable buffers (KV caches) of every loaded method back to their initial data. */
  resetState() {
    const rt = this.live();
    rt.check(rt.wasm._ember_program_reset_state(this.handle));
  }

  /** Frees the program and everything of it in the module's memory. */
  dispose() {
    if (this.handle === 0) return;
    const rt = this.rt;
    registry?.unregister(this.token);
    for (const p of this.buffers) rt.free(p);
    rt.wasm._ember_program_destroy(this.handle);
    rt.free(this.bytesPtr);
    this.handle = 0;
    this.methods.clear();
  }
}

/** Loads a program: Program.load. */
export function load(source, options) { return Program.load(source, options); }
