package org.ember;

/**
 * A value a method takes or returns: a tensor, an integer, a double, a bool, or none. The shape
 * of ExecuTorch's EValue ({@code EValue.from(tensor)}, {@code toTensor()}, {@code isInt()}...).
 */
public final class EValue {
  private enum Tag {
    NONE,
    TENSOR,
    INT,
    DOUBLE,
    BOOL
  }

  private final Tag tag;
  private final Object value;

  private EValue(Tag tag, Object value) {
    this.tag = tag;
    this.value = value;
  }

  public static EValue from(Tensor tensor) {
    if (tensor == null) {
      throw new IllegalArgumentException("tensor is null");
    }
    return new EValue(Tag.TENSOR, tensor);
  }

  public static EValue from(long value) {
    return new EValue(Tag.INT, value);
  }

  public static EValue from(double value) {
    return new EValue(Tag.DOUBLE, value);
  }

  public static EValue from(boolean value) {
    return new EValue(Tag.BOOL, value);
  }

  public static EValue optionalNone() {
    return new EValue(Tag.NONE, null);
  }

  public boolean isNone() {
    return tag == Tag.NONE;
  }

  public boolean isTensor() {
    return tag == Tag.TENSOR;
  }

  public boolean isInt() {
    return tag == Tag.INT;
  }

  public boolean isDouble() {
    return tag == Tag.DOUBLE;
  }

  public boolean isBool() {
    return tag == Tag.BOOL;
  }

  public Tensor toTensor() {
    return (Tensor) as(Tag.TENSOR);
  }

  public long toInt() {
    return (Long) as(Tag.INT);
  }

  public double toDouble() {
    return (Double) as(Tag.DOUBLE);
  }

  public boolean toBool() {
    return (Boolean) as(Tag.BOOL);
  }

  private Object as(Tag want) {
    if (tag != want) {
      throw new IllegalStateException("this EValue is " + tag + ", not " + want);
    }
    return value;
  }

  @Override
  public String toString() {
    return "EValue(" + tag + (value == null ? "" : ": " + value) + ")";
  }
}
