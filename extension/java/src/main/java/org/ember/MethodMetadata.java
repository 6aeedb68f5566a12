package org.ember;

import java.util.Arrays;

/**
 * What a method takes and returns: its name and, per input and output, the dtype and the largest
 * shape (dynamic dims at their upper bound), as the program declares them. A value that is not a
 * tensor has a null dtype and shape.
 */
public final class MethodMetadata {
  /** One input or output. */
  public static final class ValueInfo {
    private final String name;
    private final DType dtype;
    private final long[] shape;
    private final int dynamicDims;

    ValueInfo(String name, DType dtype, long[] shape, int dynamicDims) {
      this.name = name;
      this.dtype = dtype;
      this.shape = shape;
      this.dynamicDims = dynamicDims;
    }

    /** The input's name in the model's forward ("" when unknown, and for outputs). */
    public String getName() {
      return name;
    }

    public DType getDtype() {
      return dtype;
    }

    /** The largest shape: dynamic dims at their upper bound. */
    public long[] getShape() {
      return shape == null ? null : shape.clone();
    }

    /** Inputs: whether dim `dim` may be smaller than getShape() says (a dynamic dim). */
    public boolean isDynamic(int dim) {
      return (dynamicDims >>> dim & 1) != 0;
    }

    public boolean isTensor() {
      return dtype != null;
    }

    @Override
    public String toString() {
      return (name.isEmpty() ? "" : name + ": ")
          + (dtype == null ? "not a tensor" : dtype + " " + Arrays.toString(shape));
    }
  }

  private final String name;
  private final ValueInfo[] inputs;
  private final ValueInfo[] outputs;

  MethodMetadata(String name, ValueInfo[] inputs, ValueInfo[] outputs) {
    this.name = name;
    this.inputs = inputs;
    this.outputs = outputs;
  }

  public String getName() {
    return name;
  }

  public ValueInfo[] getInputs() {
    return inputs.clone();
  }

  public ValueInfo[] getOutputs() {
    return outputs.clone();
  }

  public int getNumInputs() {
    return inputs.length;
  }

  public int getNumOutputs() {
    return outputs.length;
  }
}
