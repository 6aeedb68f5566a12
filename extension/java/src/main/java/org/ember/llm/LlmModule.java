package org.ember.llm;

import java.nio.charset.StandardCharsets;
import org.ember.EmberException;
import org.ember.NativeLibrary;

/**
 * Text generation with an LLM program from {@code ember llm export} and its tokenizer, the shape
 * of ExecuTorch's LlmModule: {@code new LlmModule(modelPath, tokenizerPath, temperature)}, {@code
 * generate(prompt, config, callback)}, {@code stop()}, {@code resetContext()}. The KV caches keep
 * earlier calls' tokens until resetContext(). Failures throw {@link EmberException}.
 */
public class LlmModule implements AutoCloseable {
  static {
    NativeLibrary.load();
  }

  private static final int DEFAULT_MAX_NEW_TOKENS = 128;

  private long llm;
  private final float temperature;
  private volatile boolean stopRequested;

  /** The program and its tokenizer (null: the one beside it), a thread per core. */
  public LlmModule(String modulePath, String tokenizerPath, float temperature) {
    this(modulePath, tokenizerPath, temperature, 0);
  }

  /** numThreads: threads the kernels use, the caller's included; 0 for one per core. */
  public LlmModule(String modulePath, String tokenizerPath, float temperature, int numThreads) {
    if (modulePath == null) {
      throw new IllegalArgumentException("modulePath is null");
    }
    if (numThreads < 0) {
      throw new IllegalArgumentException("numThreads is " + numThreads);
    }
    this.temperature = temperature;
    this.llm = nativeLoad(modulePath, tokenizerPath, numThreads);
  }

  /** Generates up to 128 tokens after the prompt, echoing it first. */
  public int generate(String prompt, LlmCallback callback) {
    return generate(prompt, -1, callback, true);
  }

  public int generate(String prompt, int seqLen, LlmCallback callback) {
    return generate(prompt, seqLen, callback, true);
  }

  public int generate(String prompt, LlmCallback callback, boolean echo) {
    return generate(prompt, -1, callback, echo);
  }

  /** seqLen: tokens to generate at most (-1: 128); echo: the prompt goes to onResult first. */
  public int generate(String prompt, int seqLen, LlmCallback callback, boolean echo) {
    return generate(prompt,
        LlmGenerationConfig.create().seqLen(seqLen).echo(echo).temperature(temperature).build(),
        callback);
  }

  /**
   * Continues the prompt from the current position, calling back with each piece of text, then
   * the statistics. Returns 0; a failure throws (after callback.onError).
   */
  public int generate(String prompt, LlmGenerationConfig config, LlmCallback callback) {
    return run(false, prompt, null, config, callback);
  }

  /**
   * One chat turn: `message` as the user's in the model's chat template (with `system`, which may
   * be null, before the first turn), then the reply. Ember's addition.
   */
  public int chat(String message, String system, LlmGenerationConfig config, LlmCallback callback) {
    return run(true, message, system, config, callback);
  }

  /** Stops the generate() running on another thread after its current token. */
  public void stop() {
    stopRequested = true;
  }

  /** Empties the caches: a new conversation. */
  public void resetContext() {
    nativeReset(live());
  }

  /** Loaded at construction already: returns 0, as ExecuTorch's load() on success. */
  public int load() {
    live();
    return 0;
  }

  /** Tokens in the caches now. */
  public long getPosition() {
    return nativeGet(live(), 5);
  }

  /** The caches' capacity in tokens. */
  public long getMaxContext() {
    return nativeGet(live(), 1);
  }

  public long getVocabSize() {
    return nativeGet(live(), 0);
  }

  /** Frees the model now; later calls throw IllegalStateException. */
  public synchronized void resetNative() {
    if (llm != 0) {
      nativeDestroy(llm);
      llm = 0;
    }
  }

  @Override
  public void close() {
    resetNative();
  }

  private synchronized int run(boolean chat, String text, String system,
      LlmGenerationConfig config, LlmCallback callback) {
    if (text == null || config == null || callback == null) {
      throw new IllegalArgumentException("prompt, config and callback must not be null");
    }
    long handle = live();
    stopRequested = false;
    if (config.isEcho() && !chat) {
      callback.onResult(text);
    }
    int maxNew = config.getMaxNewTokens() > 0 ? config.getMaxNewTokens()
        : config.getSeqLen() > 0 ? config.getSeqLen() : DEFAULT_MAX_NEW_TOKENS;
    Trampoline trampoline = new Trampoline(callback);
    double[] stats = new double[6];
    try {
      nativeGenerate(handle, chat, text, system, maxNew, config.getTemperature(),
          config.getTopK(), config.getTopP(), config.getRepetitionPenalty(), config.getSeed(),
          config.isIgnoreEos(), trampoline, stats);
    } catch (EmberException e) {
      callback.onError(e.getErrorCode(), e.getMessage());
      throw e;
    }
    if (trampoline.failure != null) {
      throw trampoline.failure;
    }
    String[] reasons = {"end_of_sequence", "max_tokens", "context_full", "stopped"};
    int reason = (int) stats[0];
    callback.onStats(String.format(java.util.Locale.ROOT,
        "{\"prompt_tokens\":%d,\"generated_tokens\":%d,\"prefill_ms\":%.3f,"
            + "\"first_token_ms\":%.3f,\"decode_ms\":%.3f,\"stop_reason\":\"%s\"}",
        (long) stats[1], (long) stats[2], stats[3], stats[4], stats[5],
        reason >= 0 && reason < reasons.length ? reasons[reason] : "unknown"));
    return 0;
  }

  private long live() {
    if (llm == 0) {
      throw new IllegalStateException("the LlmModule was destroyed");
    }
    return llm;
  }

  /** What the native token callback calls: decodes the bytes, forwards them, says stop or go. */
  private final class Trampoline {
    final LlmCallback callback;
    RuntimeException failure;

    Trampoline(LlmCallback callback) {
      this.callback = callback;
    }

    boolean onToken(int token, byte[] text) {
      try {
        if (text != null && text.length > 0) {
          callback.onResult(new String(text, StandardCharsets.UTF_8));
        }
      } catch (RuntimeException e) {
        failure = e;  // thrown by generate once the native call returns
        return true;
      }
      return stopRequested;
    }
  }

  private static native long nativeLoad(String program, String tokenizer, int threads);

  private static native void nativeDestroy(long llm);

  private static native void nativeReset(long llm);

  private static native long nativeGet(long llm, int key);

  /** stats: {stop_reason, prompt_tokens, generated_tokens, prefill_ms, first_token_ms, decode_ms}. */
  private static native void nativeGenerate(long llm, boolean chat, String text, String system,
      int maxNewTokens, float temperature, int topK, float topP, float repetitionPenalty,
      long seed, boolean ignoreEos, Object trampoline, double[] stats);
}
