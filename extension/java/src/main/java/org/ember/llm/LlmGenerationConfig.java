package org.ember.llm;

/**
 * How {@link LlmModule#generate} samples, built as ExecuTorch's LlmGenerationConfig is ({@code
 * LlmGenerationConfig.create().maxNewTokens(64).temperature(0f).build()}), with Ember's sampling
 * settings added (topK, topP, repetitionPenalty, seed). Temperature 0 is greedy.
 */
public final class LlmGenerationConfig {
  private final boolean echo;
  private final int maxNewTokens;
  private final int seqLen;
  private final float temperature;
  private final int topK;
  private final float topP;
  private final float repetitionPenalty;
  private final long seed;
  private final boolean ignoreEos;

  private LlmGenerationConfig(Builder b) {
    echo = b.echo;
    maxNewTokens = b.maxNewTokens;
    seqLen = b.seqLen;
    temperature = b.temperature;
    topK = b.topK;
    topP = b.topP;
    repetitionPenalty = b.repetitionPenalty;
    seed = b.seed;
    ignoreEos = b.ignoreEos;
  }

  public static Builder create() {
    return new Builder();
  }

  /** Whether onResult gets the prompt first. */
  public boolean isEcho() {
    return echo;
  }

  /** Tokens to generate at most; -1: as seqLen allows, else 128. */
  public int getMaxNewTokens() {
    return maxNewTokens;
  }

  /** Prompt and new tokens together at most; -1: no such bound. */
  public int getSeqLen() {
    return seqLen;
  }

  public float getTemperature() {
    return temperature;
  }

  public int getTopK() {
    return topK;
  }

  public float getTopP() {
    return topP;
  }

  public float getRepetitionPenalty() {
    return repetitionPenalty;
  }

  public long getSeed() {
    return seed;
  }

  public boolean isIgnoreEos() {
    return ignoreEos;
  }

  /** The builder; every setter returns it. */
  public static final class Builder {
    private boolean echo = true;
    private int maxNewTokens = -1;
    private int seqLen = -1;
    private float temperature = 0.8f;
    private int topK = 0;
    private float topP = 1.0f;
    private float repetitionPenalty = 1.0f;
    private long seed = 0;
    private boolean ignoreEos = false;

    Builder() {}

    public Builder echo(boolean echo) {
      this.echo = echo;
      return this;
    }

    public Builder maxNewTokens(int maxNewTokens) {
      this.maxNewTokens = maxNewTokens;
      return this;
    }

    /** ExecuTorch's model warm-up: accepted for compatibility, nothing to do here. */
    public Builder warming(boolean warming) {
      return this;
    }

    public Builder seqLen(int seqLen) {
      this.seqLen = seqLen;
      return this;
    }

    public Builder temperature(float temperature) {
      this.temperature = temperature;
      return this;
    }

    public Builder topK(int topK) {
      this.topK = topK;
      return this;
    }

    public Builder topP(float topP) {
      this.topP = topP;
      return this;
    }

    public Builder repetitionPenalty(float repetitionPenalty) {
      this.repetitionPenalty = repetitionPenalty;
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** Run past end-of-sequence (benchmarks). */
    public Builder ignoreEos(boolean ignoreEos) {
      this.ignoreEos = ignoreEos;
      return this;
    }

    public LlmGenerationConfig build() {
      return new LlmGenerationConfig(this);
    }
  }
}
