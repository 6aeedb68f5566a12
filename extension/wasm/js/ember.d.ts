// TypeScript declarations for ember.mjs, Ember's JavaScript API over its
// WebAssembly runtime.

/** The dtypes a Tensor may have, numbered as in PyTorch and the .pte format. */
export type DType =
  | 'uint8' | 'int8' | 'int16' | 'int32' | 'int64'
  | 'float16' | 'float32' | 'float64' | 'bool' | 'bfloat16';

/** The typed array each dtype's data lives in. */
export interface DataTypes {
  uint8: Uint8Array;
  int8: Int8Array;
  int16: Int16Array;
  int32: Int32Array;
  int64: BigInt64Array;
  float16: Uint16Array;   // IEEE half bits
  float32: Float32Array;
  float64: Float64Array;
  bool: Uint8Array;       // 0 or 1
  bfloat16: Uint16Array;  // the top half of a float32
}

export const dtypes: readonly DType[];

/** What every failure throws: the runtime's message, its status code and name. */
export class EmberError extends Error {
  readonly name: 'EmberError';
  /** The C ABI's ember_status (e.g. 0x12 InvalidArgument, 0x23 InvalidProgram). */
  readonly status: number;
  /** The status's name, e.g. "InvalidArgument". */
  readonly statusName: string;
}

/** A dtype, a shape and row-major data. */
export class Tensor<T extends DType = DType> {
  constructor(dtype: T, data: DataTypes[T] | number[] | bigint[], dims?: readonly number[]);
  readonly dtype: T;
  readonly dims: number[];
  readonly data: DataTypes[T];
  /** Elements: the product of the dims. */
  readonly size: number;
  static zeros<T extends DType>(dtype: T, dims: readonly number[]): Tensor<T>;
  /** A floating-point tensor from numbers (float16 and bfloat16 rounded half to even). */
  static fromFloat32<T extends 'float16' | 'bfloat16' | 'float32' | 'float64'>(
      dtype: T, values: ArrayLike<number>, dims?: readonly number[]): Tensor<T>;
  /** The values as float32. */
  toFloat32(): Float32Array;
}

/** An input or output of a method as the program declares it. */
export interface ValueInfo {
  /** The input's name in the model's forward ("" when the program does not say; outputs: absent). */
  name?: string;
  /** null for a value that is not a tensor (an integer output). */
  dtype: DType | null;
  /** The largest shape: dynamic dims at their upper bound. */
  shape: number[] | null;
  /** Inputs: per dim, whether it may be smaller than shape says (a dynamic dim). */
  dynamic?: boolean[];
}

/** What a method returns: a Tensor per tensor output, a number (or bigint) per integer output. */
export type Output = Tensor | number | bigint;

export class Method {
  readonly name: string;
  readonly inputs: ValueInfo[];
  readonly outputs: ValueInfo[];
  /** Bytes the loaded method took in the module's memory. */
  readonly memoryBytes: number;
  /** Tensors in input order, or an object of them by input name. */
  run(inputs: Tensor | Tensor[] | Record<string, Tensor>): Output[];
}

export interface LoadOptions {
  /** Threads the kernels use, the caller's included (default: the cores, up to the module's maxThreads). */
  threads?: number;
  /** The most memory one method may take; 0: no limit. */
  maxMemoryBytes?: number;
  /** The most instructions one run may execute; 0: no limit. */
  maxInstructions?: number;
}

export class Program {
  /** From a URL, a file path (Node), an ArrayBuffer or a Uint8Array. */
  static load(source: string | URL | ArrayBuffer | ArrayBufferView, options?: LoadOptions): Promise<Program>;
  readonly methodNames: string[];
  /** Threads the program's kernels run on. */
  readonly threads: number;
  /** The named method (default 'forward'), loaded on first use. */
  method(name?: string): Method;
  run(name: string, inputs: Tensor | Tensor[] | Record<string, Tensor>): Output[];
  forward(...inputs: Tensor[]): Output[];
  forward(inputs: Tensor[] | Record<string, Tensor>): Output[];
  /** Mutable buffers (KV caches) back to their initial data. */
  resetState(): void;
  /** Frees the program in the module's memory; later calls throw. */
  dispose(): void;
}

export function load(source: string | URL | ArrayBuffer | ArrayBufferView, options?: LoadOptions): Promise<Program>;

export interface InitOptions {
  /** false: the single-threaded module even where threads could run. */
  threads?: 'auto' | false;
  /** Where ember-wasm*.{mjs,wasm} lie (default: beside ember.mjs). */
  baseUrl?: string | URL;
}

export interface RuntimeInfo {
  /** Whether the threaded module loaded (SharedArrayBuffer, cross-origin isolation). */
  threads: boolean;
  /** The most threads a program may use: the module's Web Workers, 1 without threads. */
  maxThreads: number;
  /** Ember's release. */
  version: string;
  /** The C ABI's version, "major.minor". */
  abi: string;
}

/** Loads the WebAssembly module (Program.load does it on first use). */
export function init(options?: InitOptions): Promise<RuntimeInfo>;
/** Ends the module's Web Workers (so that Node can exit); no program runs afterwards. */
export function shutdown(): Promise<void>;
