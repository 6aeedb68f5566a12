package org.ember;

/**
 * What a failing call throws: the runtime's status code (the C ABI's ember_status, the same
 * numbers as ExecuTorch's Error) and its one-line message. ExecuTorch's Android API throws
 * ExecutorchRuntimeException; this carries the same two things.
 */
public class EmberException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  private final int errorCode;

  public EmberException(int errorCode, String message) {
    super(message);
    this.errorCode = errorCode;
  }

  /** The status code, e.g. 0x12 (InvalidArgument), 0x23 (InvalidProgram). */
  public int getErrorCode() {
    return errorCode;
  }

  /** The runtime's message (what getMessage() gives). */
  public String getDetailedError() {
    return getMessage();
  }
}
