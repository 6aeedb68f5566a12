package org.ember;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A loaded .pte program, the shape of ExecuTorch's Android Module so that an app can switch:
 * {@code Module.load(path, loadMode, numThreads)}, {@code forward(EValue...)}, {@code
 * execute(method, EValue...)}, {@code getMethods()}, {@code getMethodMetadata(name)}, {@code
 * destroy()}; and AutoCloseable, for try-with-resources. Calls on one module are serialised (a
 * lock, as ExecuTorch's); modules are independent. Every failure is an {@link EmberException}
 * with the runtime's message.
 */
public class Module implements AutoCloseable {
  /** Read the whole file into memory. */
  public static final int LOAD_MODE_FILE = 0;
  /** Map the file (the default): pages come in as the runtime reads them. */
  public static final int LOAD_MODE_MMAP = 1;
  /** ExecuTorch's mlock modes: mapped, as LOAD_MODE_MMAP (Ember does not lock pages). */
  public static final int LOAD_MODE_MMAP_USE_MLOCK = 2;
  public static final int LOAD_MODE_MMAP_USE_MLOCK_IGNORE_ERRORS = 3;

  static {
    NativeLibrary.load();
  }

  private final ReentrantLock lock = new ReentrantLock();
  private final Map<String, Long> methods = new HashMap<>();
  private final Map<String, MethodMetadata> metadata = new HashMap<>();
  private long program;

  private Module(long program) {
    this.program = program;
  }

  /** Loads a program from a file, mapped, with a thread per core. */
  public static Module load(String modelPath) {
    return load(modelPath, LOAD_MODE_MMAP, 0);
  }

  public static Module load(String modelPath, int loadMode) {
    return load(modelPath, loadMode, 0);
  }

  /**
   * Loads and verifies a program from a file. numThreads: threads the kernels use, the caller's
   * included; 0 for one per core.
   */
  public static Module load(String modelPath, int loadMode, int numThreads) {
    if (modelPath == null) {
      throw new IllegalArgumentException("modelPath is null");
    }
    if (loadMode < LOAD_MODE_FILE || loadMode > LOAD_MODE_MMAP_USE_MLOCK_IGNORE_ERRORS) {
      throw new IllegalArgumentException("loadMode " + loadMode + " is not a LOAD_MODE_*");
    }
    if (numThreads < 0) {
      throw new IllegalArgumentException("numThreads is " + numThreads);
    }
    return new Module(nativeLoadFile(modelPath, loadMode == LOAD_MODE_FILE, numThreads));
  }

  /** Loads a program from bytes in memory (copied), e.g. an Android asset. */
  public static Module load(byte[] program, int numThreads) {
    if (program == null) {
      throw new IllegalArgumentException("program is null");
    }
    ByteBuffer direct = ByteBuffer.allocateDirect(program.length);
    direct.put(program);
    return new Module(nativeLoadBuffer(direct, program.length, numThreads));
  }

  /** Runs method 'forward'. */
  public EValue[] forward(EValue... inputs) {
    return execute("forward", inputs);
  }

  /** Runs the named method on the inputs, one per method input, tensors only. */
  public EValue[] execute(String methodName, EValue... inputs) {
    lock.lock();
    try {
      long method = method(methodName);
      int count = nativeNumInputs(method);
      if (inputs == null || inputs.length != count) {
        throw new EmberException(0x12, "'" + methodName + "' takes " + count + " input"
            + (count == 1 ? "" : "s") + ", got " + (inputs == null ? 0 : inputs.length));
      }
      Object[] data = new Object[count];
      int[] dtypes = new int[count];
      long[][] shapes = new long[count][];
      long[] bytes = new long[count];
      for (int i = 0; i < count; ++i) {
        if (inputs[i] == null || !inputs[i].isTensor()) {
          throw new EmberException(0x13, "input " + i + " of '" + methodName + "' is "
              + (inputs[i] == null ? "null" : inputs[i]) + "; this binding passes tensors only");
        }
        Tensor t = inputs[i].toTensor();
        data[i] = t.nativeData();
        dtypes[i] = t.dtype().jniCode;
        shapes[i] = t.nativeShape();
        bytes[i] = t.nativeBytes();
      }
      nativeExecute(method, data, dtypes, shapes, bytes);
      int outputs = nativeNumOutputs(method);
      EValue[] out = new EValue[outputs];
      for (int i = 0; i < outputs; ++i) {
        long[] info = nativeOutputInfo(method, i);
        if (info == null) {
          out[i] = EValue.from(nativeOutputInt(method, i));
          continue;
        }
        DType dtype = DType.fromJniCode((int) info[0]);
        long[] shape = new long[info.length - 1];
        System.arraycopy(info, 1, shape, 0, shape.length);
        ByteBuffer buffer = Tensor.allocateByteBuffer((int) (Tensor.numel(shape) * dtype.bytes));
        nativeOutputCopy(method, i, buffer, buffer.capacity());
        out[i] = EValue.from(Tensor.wrap(dtype, shape, buffer));
      }
      return out;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Loads the named method now (otherwise the first execute does): its memory, kernels and
   * delegates. Returns 0, as ExecuTorch's does on success; failures throw.
   */
  public int loadMethod(String methodName) {
    lock.lock();
    try {
      method(methodName);
      return 0;
    } finally {
      lock.unlock();
    }
  }

  /** The program's method names. */
  public String[] getMethods() {
    lock.lock();
    try {
      return nativeMethodNames(live());
    } finally {
      lock.unlock();
    }
  }

  /** What the named method takes and returns (the method is loaded). */
  public MethodMetadata getMethodMetadata(String name) {
    lock.lock();
    try {
      MethodMetadata m = metadata.get(name);
      if (m != null) {
        return m;
      }
      long method = method(name);
      MethodMetadata.ValueInfo[] in = new MethodMetadata.ValueInfo[nativeNumInputs(method)];
      for (int i = 0; i < in.length; ++i) {
        long[] meta = nativeValueMeta(method, i, true);
        in[i] = info(nativeInputName(method, i), meta,
            meta == null ? 0 : nativeInputDynamicDims(method, i));
      }
      MethodMetadata.ValueInfo[] out = new MethodMetadata.ValueInfo[nativeNumOutputs(method)];
      for (int i = 0; i < out.length; ++i) {
        out[i] = info("", nativeValueMeta(method, i, false), 0);
      }
      m = new MethodMetadata(name, in, out);
      metadata.put(name, m);
      return m;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes the named method took (arenas, tables, delegate memory). */
  public long getMethodMemoryBytes(String name) {
    lock.lock();
    try {
      return nativeMemoryBytes(method(name));
    } finally {
      lock.unlock();
    }
  }

  /** Threads the program's kernels run on. */
  public int getNumThreads() {
    lock.lock();
    try {
      return nativeNumThreads(live());
    } finally {
      lock.unlock();
    }
  }

  /** Mutable buffers (KV caches) of every loaded method back to their initial data. */
  public void resetState() {
    lock.lock();
    try {
      nativeResetState(live());
    } finally {
      lock.unlock();
    }
  }

  /** Frees the program now. Later calls throw IllegalStateException; twice is harmless. */
  public void destroy() {
    lock.lock();
    try {
      if (program != 0) {
        nativeDestroy(program);
        program = 0;
        methods.clear();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() {
    destroy();
  }

  private long live() {
    if (program == 0) {
      throw new IllegalStateException("the module was destroyed");
    }
    return program;
  }

  private long method(String name) {
    if (name == null) {
      throw new IllegalArgumentException("method name is null");
    }
    long p = live();
    Long m = methods.get(name);
    if (m == null) {
      m = nativeGetMethod(p, name);
      methods.put(name, m);
    }
    return m;
  }

  private static MethodMetadata.ValueInfo info(String name, long[] meta, int dynamicDims) {
    if (meta == null) {
      return new MethodMetadata.ValueInfo(name, null, null, 0);
    }
    long[] shape = new long[meta.length - 1];
    System.arraycopy(meta, 1, shape, 0, shape.length);
    return new MethodMetadata.ValueInfo(name, DType.fromJniCode((int) meta[0]), shape, dynamicDims);
  }

  // ---- native (extension/java/jni/ember_jni.c), each over the C ABI ----

  private static native long nativeLoadFile(String path, boolean noMmap, int threads);

  private static native long nativeLoadBuffer(ByteBuffer bytes, int size, int threads);

  private static native void nativeDestroy(long program);

  private static native String[] nativeMethodNames(long program);

  private static native long nativeGetMethod(long program, String name);

  private static native int nativeNumThreads(long program);

  private static native void nativeResetState(long program);

  private static native int nativeNumInputs(long method);

  private static native int nativeNumOutputs(long method);

  private static native String nativeInputName(long method, int index);

  /** {dtype, dims...} of input or output `index`, or null for a value that is not a tensor. */
  private static native long[] nativeValueMeta(long method, int index, boolean input);

  /** Bit d: dim d of input `index` is dynamic (ABI 1.1). */
  private static native int nativeInputDynamicDims(long method, int index);

  private static native long nativeMemoryBytes(long method);

  private static native void nativeExecute(
      long method, Object[] buffers, int[] dtypes, long[][] shapes, long[] bytes);

  /** {dtype, dims...} of output `index` of the last execute, null for an integer output. */
  private static native long[] nativeOutputInfo(long method, int index);

  private static native void nativeOutputCopy(long method, int index, ByteBuffer dst, int size);

  private static native long nativeOutputInt(long method, int index);
}
