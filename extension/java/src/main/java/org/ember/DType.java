package org.ember;

/** A tensor's element type, numbered as in PyTorch, the .pte format and Ember's C ABI. */
public enum DType {
  /** torch.uint8 */
  UINT8(0, 1),
  /** torch.int8 */
  INT8(1, 1),
  /** torch.int16 */
  INT16(2, 2),
  /** torch.int32 */
  INT32(3, 4),
  /** torch.int64 */
  INT64(4, 8),
  /** torch.float16: IEEE half bits in a short */
  HALF(5, 2),
  /** torch.float32 */
  FLOAT(6, 4),
  /** torch.float64 */
  DOUBLE(7, 8),
  /** torch.bool: a byte, 0 or 1 */
  BOOL(11, 1),
  /** torch.bfloat16: the top half of a float's bits in a short */
  BFLOAT16(15, 2);

  /** The code the native library uses (ember_dtype). */
  final int jniCode;
  /** Bytes per element. */
  final int bytes;

  DType(int jniCode, int bytes) {
    this.jniCode = jniCode;
    this.bytes = bytes;
  }

  /** Bytes per element. */
  public int elementSize() {
    return bytes;
  }

  static DType fromJniCode(int code) {
    for (DType d : values()) {
      if (d.jniCode == code) {
        return d;
      }
    }
    throw new EmberException(0x13, "dtype code " + code + " is not one this binding knows");
  }
}
