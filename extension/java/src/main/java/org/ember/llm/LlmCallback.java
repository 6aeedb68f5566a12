package org.ember.llm;

/**
 * Receives what {@link LlmModule#generate} produces, as ExecuTorch's LlmCallback does: each piece
 * of text as it is decoded, then the statistics.
 */
public interface LlmCallback {
  /** The text a generated token completes (whole characters; may be empty). */
  void onResult(String result);

  /**
   * The generation's statistics as JSON: prompt_tokens, generated_tokens, prefill_ms,
   * first_token_ms, decode_ms, stop_reason.
   */
  default void onStats(String stats) {}

  /** A failure of generate, before it throws it as an EmberException. */
  default void onError(int errorCode, String message) {}
}
