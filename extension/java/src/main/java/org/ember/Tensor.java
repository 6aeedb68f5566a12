package org.ember;

import java.nio.Buffer;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.DoubleBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.LongBuffer;
import java.nio.ShortBuffer;
import java.util.Arrays;

/**
 * A dtype, a shape and row-major data in a direct buffer of native byte order, which the
 * runtime reads in place. The shape of ExecuTorch's Android Tensor: {@code Tensor.fromBlob(data,
 * shape)} from an array (copied) or a direct buffer (used as it is, so it can be refilled between
 * calls), {@code shape()}, {@code dtype()}, {@code getDataAs*Array()}.
 */
public final class Tensor {
  private final DType dtype;
  private final long[] shape;
  // A direct buffer: a ByteBuffer (capacity in bytes) or a typed view such
  // as a FloatBuffer (capacity in elements); the native side reads its
  // memory in place (GetDirectBufferAddress).
  private final Buffer data;
  private final int bufferElementBytes;

  private Tensor(DType dtype, long[] shape, Buffer data, int bufferElementBytes) {
    checkShape(shape);
    this.dtype = dtype;
    this.shape = shape.clone();
    this.data = data;
    this.bufferElementBytes = bufferElementBytes;
    long bytes = numel(shape) * dtype.bytes;
    if (nativeBytes() != bytes) {
      throw new IllegalArgumentException(
          "the data holds " + nativeBytes() / dtype.bytes + " elements, shape "
              + Arrays.toString(shape) + " needs " + numel(shape));
    }
  }

  private Tensor(DType dtype, long[] shape, ByteBuffer data) {
    this(dtype, shape, data, 1);
  }

  // ---- allocating direct buffers ----

  public static ByteBuffer allocateByteBuffer(int numElements) {
    return ByteBuffer.allocateDirect(numElements).order(ByteOrder.nativeOrder());
  }

  public static ShortBuffer allocateShortBuffer(int numElements) {
    return allocateByteBuffer(numElements * 2).asShortBuffer();
  }

  public static IntBuffer allocateIntBuffer(int numElements) {
    return allocateByteBuffer(numElements * 4).asIntBuffer();
  }

  public static FloatBuffer allocateFloatBuffer(int numElements) {
    return allocateByteBuffer(numElements * 4).asFloatBuffer();
  }

  public static LongBuffer allocateLongBuffer(int numElements) {
    return allocateByteBuffer(numElements * 8).asLongBuffer();
  }

  public static DoubleBuffer allocateDoubleBuffer(int numElements) {
    return allocateByteBuffer(numElements * 8).asDoubleBuffer();
  }

  // ---- from arrays (copied) ----

  /** An int8 tensor. */
  public static Tensor fromBlob(byte[] data, long[] shape) {
    return copyOf(DType.INT8, shape, checkData(data, data == null ? 0 : data.length, shape))
        .putBytes(data);
  }

  /** A uint8 tensor from bytes read as unsigned. */
  public static Tensor fromBlobUnsigned(byte[] data, long[] shape) {
    return copyOf(DType.UINT8, shape, checkData(data, data == null ? 0 : data.length, shape))
        .putBytes(data);
  }

  /** A bool tensor. */
  public static Tensor fromBlob(boolean[] data, long[] shape) {
    Tensor t = copyOf(DType.BOOL, shape, checkData(data, data == null ? 0 : data.length, shape));
    for (int i = 0; i < data.length; ++i) {
      t.bytesView().put(i, data[i] ? (byte) 1 : (byte) 0);
    }
    return t;
  }

  /** An int16 tensor. */
  public static Tensor fromBlob(short[] data, long[] shape) {
    Tensor t = copyOf(DType.INT16, shape, checkData(data, data == null ? 0 : data.length, shape));
    t.bytesView().asShortBuffer().put(data);
    return t;
  }

  /** A float16 tensor from IEEE half bits. */
  public static Tensor fromBlobHalf(short[] bits, long[] shape) {
    Tensor t = copyOf(DType.HALF, shape, checkData(bits, bits == null ? 0 : bits.length, shape));
    t.bytesView().asShortBuffer().put(bits);
    return t;
  }

  /** A bfloat16 tensor from its bits (the top half of a float's). */
  public static Tensor fromBlobBFloat16(short[] bits, long[] shape) {
    Tensor t =
        copyOf(DType.BFLOAT16, shape, checkData(bits, bits == null ? 0 : bits.length, shape));
    t.bytesView().asShortBuffer().put(bits);
    return t;
  }

  /** An int32 tensor. */
  public static Tensor fromBlob(int[] data, long[] shape) {
    Tensor t = copyOf(DType.INT32, shape, checkData(data, data == null ? 0 : data.length, shape));
    t.bytesView().asIntBuffer().put(data);
    return t;
  }

  /** A float32 tensor. */
  public static Tensor fromBlob(float[] data, long[] shape) {
    Tensor t = copyOf(DType.FLOAT, shape, checkData(data, data == null ? 0 : data.length, shape));
    t.bytesView().asFloatBuffer().put(data);
    return t;
  }

  /** An int64 tensor. */
  public static Tensor fromBlob(long[] data, long[] shape) {
    Tensor t = copyOf(DType.INT64, shape, checkData(data, data == null ? 0 : data.length, shape));
    t.bytesView().asLongBuffer().put(data);
    return t;
  }

  /** A float64 tensor. */
  public static Tensor fromBlob(double[] data, long[] shape) {
    Tensor t = copyOf(DType.DOUBLE, shape, checkData(data, data == null ? 0 : data.length, shape));
    t.bytesView().asDoubleBuffer().put(data);
    return t;
  }

  // ---- from direct buffers (used in place) ----

  /** An int8 tensor over a direct buffer of native order, not copied. */
  public static Tensor fromBlob(ByteBuffer data, long[] shape) {
    return new Tensor(DType.INT8, shape, (ByteBuffer) direct(data));
  }

  /** A uint8 tensor over a direct buffer of native order, not copied. */
  public static Tensor fromBlobUnsigned(ByteBuffer data, long[] shape) {
    return new Tensor(DType.UINT8, shape, (ByteBuffer) direct(data));
  }

  public static Tensor fromBlob(ShortBuffer data, long[] shape) {
    return new Tensor(DType.INT16, shape, direct(data), 2);
  }

  public static Tensor fromBlob(IntBuffer data, long[] shape) {
    return new Tensor(DType.INT32, shape, direct(data), 4);
  }

  public static Tensor fromBlob(FloatBuffer data, long[] shape) {
    return new Tensor(DType.FLOAT, shape, direct(data), 4);
  }

  public static Tensor fromBlob(LongBuffer data, long[] shape) {
    return new Tensor(DType.INT64, shape, direct(data), 8);
  }

  public static Tensor fromBlob(DoubleBuffer data, long[] shape) {
    return new Tensor(DType.DOUBLE, shape, direct(data), 8);
  }

  /** Any dtype over raw bytes (a direct buffer of native order), not copied. */
  public static Tensor fromBytes(DType dtype, ByteBuffer data, long[] shape) {
    if (dtype == null) {
      throw new IllegalArgumentException("dtype is null");
    }
    return new Tensor(dtype, shape, (ByteBuffer) direct(data));
  }

  // ---- what a tensor is ----

  public DType dtype() {
    return dtype;
  }

  /** The shape (a copy). */
  public long[] shape() {
    return shape.clone();
  }

  public long numel() {
    return numel(shape);
  }

  public static long numel(long[] shape) {
    checkShape(shape);
    long n = 1;
    for (long d : shape) {
      n *= d;
    }
    return n;
  }

  /** The data buffer itself (direct, native order), not a copy. */
  public Buffer getDataBuffer() {
    return data;
  }

  public byte[] getDataAsByteArray() {
    expect(DType.INT8, DType.BOOL);
    return bytes();
  }

  public byte[] getDataAsUnsignedByteArray() {
    expect(DType.UINT8);
    return bytes();
  }

  public boolean[] getDataAsBooleanArray() {
    expect(DType.BOOL);
    byte[] raw = bytes();
    boolean[] out = new boolean[raw.length];
    for (int i = 0; i < out.length; ++i) {
      out[i] = raw[i] != 0;
    }
    return out;
  }

  /** int16 values, or the bits of float16 and bfloat16 ones. */
  public short[] getDataAsShortArray() {
    expect(DType.INT16, DType.HALF, DType.BFLOAT16);
    short[] out = new short[(int) numel()];
    if (data instanceof ShortBuffer) {
      ShortBuffer view = ((ShortBuffer) data).duplicate();
      view.clear();  // from the start, whatever the caller's position
      view.get(out);
    } else {
      bytesView().asShortBuffer().get(out);
    }
    return out;
  }

  public int[] getDataAsIntArray() {
    expect(DType.INT32);
    int[] out = new int[(int) numel()];
    if (data instanceof IntBuffer) {
      IntBuffer view = ((IntBuffer) data).duplicate();
      view.clear();  // from the start, whatever the caller's position
      view.get(out);
    } else {
      bytesView().asIntBuffer().get(out);
    }
    return out;
  }

  /** float32 values, or float16 and bfloat16 ones widened to float. */
  public float[] getDataAsFloatArray() {
    if (dtype == DType.HALF || dtype == DType.BFLOAT16) {
      short[] bits = getDataAsShortArray();
      float[] out = new float[bits.length];
      for (int i = 0; i < bits.length; ++i) {
        out[i] = dtype == DType.HALF ? halfToFloat(bits[i]) : Float.intBitsToFloat(bits[i] << 16);
      }
      return out;
    }
    expect(DType.FLOAT);
    float[] out = new float[(int) numel()];
    if (data instanceof FloatBuffer) {
      FloatBuffer view = ((FloatBuffer) data).duplicate();
      view.clear();  // from the start, whatever the caller's position
      view.get(out);
    } else {
      bytesView().asFloatBuffer().get(out);
    }
    return out;
  }

  public long[] getDataAsLongArray() {
    expect(DType.INT64);
    long[] out = new long[(int) numel()];
    if (data instanceof LongBuffer) {
      LongBuffer view = ((LongBuffer) data).duplicate();
      view.clear();  // from the start, whatever the caller's position
      view.get(out);
    } else {
      bytesView().asLongBuffer().get(out);
    }
    return out;
  }

  public double[] getDataAsDoubleArray() {
    expect(DType.DOUBLE);
    double[] out = new double[(int) numel()];
    if (data instanceof DoubleBuffer) {
      DoubleBuffer view = ((DoubleBuffer) data).duplicate();
      view.clear();  // from the start, whatever the caller's position
      view.get(out);
    } else {
      bytesView().asDoubleBuffer().get(out);
    }
    return out;
  }

  @Override
  public String toString() {
    return "Tensor(" + dtype + ", " + Arrays.toString(shape) + ")";
  }

  // ---- for the native calls (Module) ----

  Buffer nativeData() {
    return data;
  }

  long nativeBytes() {
    return (long) data.capacity() * bufferElementBytes;
  }

  long[] nativeShape() {
    return shape;
  }

  static Tensor wrap(DType dtype, long[] shape, ByteBuffer data) {
    return new Tensor(dtype, shape, data);
  }

  // ---- helpers ----

  /** IEEE half bits to float (exactly: every half is a float). */
  public static float halfToFloat(short bits) {
    int h = bits & 0xffff;
    int sign = (h & 0x8000) << 16;
    int exp = (h >>> 10) & 0x1f;
    int mant = h & 0x3ff;
    if (exp == 0) {
      float v = mant * 0x1p-24f;
      return sign != 0 ? -v : v;
    }
    if (exp == 0x1f) {
      return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
    }
    return Float.intBitsToFloat(sign | ((exp + 112) << 23) | (mant << 13));
  }

  private Tensor putBytes(byte[] values) {
    bytesView().put(values);
    return this;
  }

  private byte[] bytes() {
    byte[] out = new byte[(int) numel()];
    bytesView().get(out);
    return out;
  }

  // The data as bytes from its start; only for tensors over a ByteBuffer
  // (from arrays, from bytes, outputs), which the typed readers check first.
  private ByteBuffer bytesView() {
    ByteBuffer b = ((ByteBuffer) data).duplicate().order(ByteOrder.nativeOrder());
    b.clear();
    return b;
  }

  private void expect(DType... allowed) {
    for (DType d : allowed) {
      if (d == dtype) {
        return;
      }
    }
    throw new IllegalStateException(
        "a " + dtype + " tensor cannot give its data as " + Arrays.toString(allowed));
  }

  private static Tensor copyOf(DType dtype, long[] shape, int elements) {
    return new Tensor(dtype, shape, allocateByteBuffer(elements * dtype.bytes));
  }

  private static int checkData(Object data, int length, long[] shape) {
    if (data == null) {
      throw new IllegalArgumentException("data is null");
    }
    long n = numel(shape);
    if (n != length) {
      throw new IllegalArgumentException(
          "data has " + length + " elements, shape " + Arrays.toString(shape) + " needs " + n);
    }
    return length;
  }

  private static Buffer direct(Buffer buffer) {
    if (buffer == null) {
      throw new IllegalArgumentException("data buffer is null");
    }
    if (!buffer.isDirect()) {
      throw new IllegalArgumentException("the data buffer must be direct (allocateDirect)");
    }
    if (buffer instanceof ByteBuffer) {
      if (((ByteBuffer) buffer).order() != ByteOrder.nativeOrder()) {
        throw new IllegalArgumentException("the data buffer must have native byte order");
      }
      return buffer;
    }
    boolean nativeOrder =
        buffer instanceof FloatBuffer ? ((FloatBuffer) buffer).order() == ByteOrder.nativeOrder()
        : buffer instanceof IntBuffer ? ((IntBuffer) buffer).order() == ByteOrder.nativeOrder()
        : buffer instanceof LongBuffer ? ((LongBuffer) buffer).order() == ByteOrder.nativeOrder()
        : buffer instanceof ShortBuffer ? ((ShortBuffer) buffer).order() == ByteOrder.nativeOrder()
        : ((DoubleBuffer) buffer).order() == ByteOrder.nativeOrder();
    if (!nativeOrder) {
      throw new IllegalArgumentException("the data buffer must have native byte order");
    }
    return buffer;
  }

  private static void checkShape(long[] shape) {
    if (shape == null) {
      throw new IllegalArgumentException("shape is null");
    }
    if (shape.length > 16) {
      throw new IllegalArgumentException("rank " + shape.length + " is over the limit of 16");
    }
    for (long d : shape) {
      if (d < 0 || d > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("shape " + Arrays.toString(shape) + " holds " + d);
      }
    }
  }
}
