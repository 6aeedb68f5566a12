package org.ember.tests;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.ember.DType;
import org.ember.EValue;
import org.ember.EmberException;
import org.ember.MethodMetadata;
import org.ember.Module;
import org.ember.NativeLibrary;
import org.ember.Tensor;
import org.ember.llm.LlmCallback;
import org.ember.llm.LlmGenerationConfig;
import org.ember.llm.LlmModule;

/**
 * The Java binding's tests, against the values PyTorch eager (or the native runtime, for int8)
 * gives on the programs tests/web/fixtures.py exports: every dtype, dynamic shapes, the CPU
 * backend's kernels, two methods, state, bad inputs and files, and LLM generation. A plain-JDK
 * runner (no JUnit): {@code java -cp ember.jar:tests.jar org.ember.tests.BindingTests FIXTURES
 * [GROUP]}, each group a ctest test; exit status 1 when a check fails.
 */
public final class BindingTests {
  private final Path fixtures;
  private final Map<String, Case> cases = new LinkedHashMap<>();
  private final Map<String, String> meta = new HashMap<>();
  private int passed;
  private final List<String> failures = new ArrayList<>();

  /** A fixture case from manifest.tsv. */
  static final class Case {
    String name;
    String program;
    String method;
    double atol;
    double rtol;
    final List<String[]> inputs = new ArrayList<>();  // {dtype, dims, file}
    final List<String[]> outputs = new ArrayList<>();
  }

  interface Check {
    void run() throws Exception;
  }

  private BindingTests(Path fixtures) throws IOException {
    this.fixtures = fixtures;
    Case current = null;
    for (String line : Files.readAllLines(fixtures.resolve("manifest.tsv"))) {
      String[] f = line.split("\t");
      switch (f[0]) {
        case "meta":
          meta.put(f[1], f[2]);
          break;
        case "case":
          current = new Case();
          current.name = f[1];
          current.program = f[2];
          current.method = f[3];
          current.atol = Double.parseDouble(f[4]);
          current.rtol = Double.parseDouble(f[5]);
          cases.put(current.name, current);
          break;
        case "input":
          current.inputs.add(new String[] {f[1], f[2], f[3]});
          break;
        case "output":
          current.outputs.add(new String[] {f[1], f[2], f[3]});
          break;
        default:
          throw new IOException("manifest.tsv: " + line);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 1) {
      System.err.println("usage: BindingTests FIXTURES_DIR [GROUP]");
      System.exit(2);
    }
    BindingTests t = new BindingTests(Paths.get(args[0]));
    String group = args.length > 1 ? args[1] : "";
    Map<String, Check> all = new LinkedHashMap<>();
    all.put("module.version", t::version);
    all.put("dtypes.every_dtype", t::everyDtype);
    all.put("dtypes.buffers_in_place", t::directBuffers);
    all.put("module.dynamic_shapes", t::dynamicShapes);
    all.put("module.kernels_against_eager", t::kernels);
    all.put("module.two_methods_and_metadata", t::twoMethods);
    all.put("module.state", t::state);
    all.put("module.load_modes_and_bytes", t::loadModes);
    all.put("errors.bad_inputs", t::badInputs);
    all.put("errors.bad_files", t::badFiles);
    all.put("errors.closed", t::closed);
    all.put("memory.many_calls", t::manyCalls);
    all.put("llm.generate", t::llmGenerate);
    all.put("llm.stop_and_errors", t::llmStop);
    for (Map.Entry<String, Check> e : all.entrySet()) {
      if (!e.getKey().startsWith(group)) {
        continue;
      }
      try {
        e.getValue().run();
        t.passed++;
        System.out.println("ok   " + e.getKey());
      } catch (Throwable failure) {
        t.failures.add(e.getKey());
        System.out.println("FAIL " + e.getKey() + ": " + failure);
        failure.printStackTrace(System.out);
      }
    }
    System.out.println(t.passed + " passed, " + t.failures.size() + " failed"
        + (t.failures.isEmpty() ? "" : ": " + t.failures) + " (libember " + NativeLibrary.version()
        + ")");
    System.exit(t.failures.isEmpty() && t.passed > 0 ? 0 : 1);
  }

  // ---- helpers ----

  static void check(boolean condition, String what) {
    if (!condition) {
      throw new AssertionError(what);
    }
  }

  static <T extends Throwable> T expect(Class<T> type, Check body, String pattern) {
    try {
      body.run();
    } catch (Throwable e) {
      if (!type.isInstance(e)) {
        throw new AssertionError("expected " + type.getSimpleName() + ", got " + e, e);
      }
      if (pattern != null && (e.getMessage() == null || !e.getMessage().contains(pattern))) {
        throw new AssertionError("message '" + e.getMessage() + "' lacks '" + pattern + "'");
      }
      return type.cast(e);
    }
    throw new AssertionError("expected " + type.getSimpleName() + ", nothing was thrown");
  }

  String path(String file) {
    return fixtures.resolve(file).toString();
  }

  Case named(String name) {
    Case c = cases.get(name);
    check(c != null, "no fixture case " + name);
    return c;
  }

  static long[] dims(String text) {
    if (text.equals("-")) {
      return new long[0];
    }
    return Arrays.stream(text.split(",")).mapToLong(Long::parseLong).toArray();
  }

  Tensor read(String[] spec) throws IOException {
    DType dtype = dtypeNamed(spec[0]);
    byte[] bytes = Files.readAllBytes(fixtures.resolve(spec[2]));
    ByteBuffer direct = Tensor.allocateByteBuffer(bytes.length);
    direct.put(bytes);  // the fixtures are little-endian, as every platform Ember runs on
    return Tensor.fromBytes(dtype, direct, dims(spec[1]));
  }

  static DType dtypeNamed(String name) {
    switch (name) {
      case "uint8": return DType.UINT8;
      case "int8": return DType.INT8;
      case "int16": return DType.INT16;
      case "int32": return DType.INT32;
      case "int64": return DType.INT64;
      case "float16": return DType.HALF;
      case "float32": return DType.FLOAT;
      case "float64": return DType.DOUBLE;
      case "bool": return DType.BOOL;
      case "bfloat16": return DType.BFLOAT16;
      default: throw new AssertionError("dtype " + name);
    }
  }

  /** Values as doubles, whatever the dtype. */
  static double[] values(Tensor t) {
    switch (t.dtype()) {
      case FLOAT:
      case HALF:
      case BFLOAT16: {
        float[] f = t.getDataAsFloatArray();
        double[] d = new double[f.length];
        for (int i = 0; i < f.length; ++i) {
          d[i] = f[i];
        }
        return d;
      }
      case DOUBLE: return t.getDataAsDoubleArray();
      case INT64: return Arrays.stream(t.getDataAsLongArray()).asDoubleStream().toArray();
      case INT32: return Arrays.stream(t.getDataAsIntArray()).asDoubleStream().toArray();
      default: {
        ByteBuffer raw = ((ByteBuffer) t.getDataBuffer()).duplicate().order(ByteOrder.nativeOrder());
        raw.clear();
        int n = (int) t.numel();
        double[] d = new double[n];
        for (int i = 0; i < n; ++i) {
          d[i] = t.dtype() == DType.INT16 ? raw.getShort(2 * i)
              : t.dtype() == DType.UINT8 ? raw.get(i) & 0xff : raw.get(i);
        }
        return d;
      }
    }
  }

  static void assertClose(Tensor got, Tensor want, double atol, double rtol, String what) {
    check(got.dtype() == want.dtype(), what + ": dtype " + got.dtype() + " vs " + want.dtype());
    check(Arrays.equals(got.shape(), want.shape()),
        what + ": shape " + Arrays.toString(got.shape()) + " vs " + Arrays.toString(want.shape()));
    double[] g = values(got);
    double[] w = values(want);
    double ulp = want.dtype() == DType.HALF ? 0x1p-10 : want.dtype() == DType.BFLOAT16 ? 0x1p-7 : 0;
    for (int i = 0; i < w.length; ++i) {
      double tol = atol + (rtol + ulp) * Math.abs(w[i]);
      check(Math.abs(g[i] - w[i]) <= tol || (Double.isNaN(g[i]) && Double.isNaN(w[i])),
          what + "[" + i + "] = " + g[i] + ", want " + w[i]);
    }
  }

  EValue[] runCase(Module m, Case c) throws IOException {
    EValue[] in = new EValue[c.inputs.size()];
    for (int i = 0; i < in.length; ++i) {
      in[i] = EValue.from(read(c.inputs.get(i)));
    }
    EValue[] out = m.execute(c.method, in);
    check(out.length == c.outputs.size(), c.name + ": " + out.length + " outputs");
    for (int i = 0; i < out.length; ++i) {
      assertClose(out[i].toTensor(), read(c.outputs.get(i)), c.atol, c.rtol, c.name + " output " + i);
    }
    return out;
  }

  void runCase(Case c) throws IOException {
    try (Module m = Module.load(path(c.program), Module.LOAD_MODE_MMAP, 1)) {
      runCase(m, c);
    }
  }

  // ---- the checks ----

  void version() {
    check(NativeLibrary.version().matches("\\d+\\.\\d+\\.\\d+.*"), NativeLibrary.version());
    check(NativeLibrary.abiVersion() >> 16 == 1, "ABI " + NativeLibrary.abiVersion());
  }

  void everyDtype() throws IOException {
    for (String name : new String[] {"uint8", "int8", "int16", "int32", "int64", "float16",
        "float32", "float64", "bool", "bfloat16"}) {
      Case c = named("dtype_" + name);
      try (Module m = Module.load(path(c.program))) {
        MethodMetadata meta = m.getMethodMetadata("forward");
        check(meta.getInputs()[0].getDtype() == dtypeNamed(name), name + ": input dtype");
        check(Arrays.equals(meta.getOutputs()[0].getShape(), dims(c.outputs.get(0)[1])),
            name + ": output shape");
        runCase(m, c);
      }
    }
    // Arrays of each Java type make the dtype they should.
    long[] shape = {2};
    check(Tensor.fromBlob(new float[] {1, 2}, shape).dtype() == DType.FLOAT, "float[]");
    check(Tensor.fromBlob(new int[] {1, 2}, shape).dtype() == DType.INT32, "int[]");
    check(Tensor.fromBlob(new long[] {1, 2}, shape).dtype() == DType.INT64, "long[]");
    check(Tensor.fromBlob(new double[] {1, 2}, shape).dtype() == DType.DOUBLE, "double[]");
    check(Tensor.fromBlob(new byte[] {1, 2}, shape).dtype() == DType.INT8, "byte[]");
    check(Tensor.fromBlobUnsigned(new byte[] {1, 2}, shape).dtype() == DType.UINT8, "unsigned");
    check(Tensor.fromBlob(new boolean[] {true, false}, shape).dtype() == DType.BOOL, "boolean[]");
    check(Tensor.fromBlob(new short[] {1, 2}, shape).dtype() == DType.INT16, "short[]");
    check(Tensor.fromBlobHalf(new short[] {0x3c00, (short) 0xc000}, shape).getDataAsFloatArray()[1]
        == -2.0f, "half bits");
  }

  void directBuffers() throws IOException {
    // A direct FloatBuffer is read in place: refilled between calls, no new Tensor.
    Case c = named("mlp_dynamic.1");
    Tensor x = read(c.inputs.get(0));
    FloatBuffer buffer = Tensor.allocateFloatBuffer((int) x.numel());
    Tensor tensor = Tensor.fromBlob(buffer, x.shape());
    try (Module m = Module.load(path(c.program), Module.LOAD_MODE_FILE, 2)) {
      buffer.put(x.getDataAsFloatArray());
      Tensor want = read(c.outputs.get(0));
      assertClose(m.forward(EValue.from(tensor))[0].toTensor(), want, c.atol, c.rtol, "in place");
      buffer.clear();
      buffer.put(new float[(int) x.numel()]);
      Tensor zeros = m.forward(EValue.from(tensor))[0].toTensor();
      check(!Arrays.equals(zeros.getDataAsFloatArray(), want.getDataAsFloatArray()),
          "the refilled buffer was not read");
    }
  }

  void dynamicShapes() throws IOException {
    try (Module m = Module.load(path("mlp_dynamic.pte"))) {
      MethodMetadata.ValueInfo x = m.getMethodMetadata("forward").getInputs()[0];
      check(Arrays.equals(x.getShape(), new long[] {8, 16}), "upper bound");
      check(x.isDynamic(0) && !x.isDynamic(1), "dynamic dims");
      for (int run = 0; run < 3; ++run) {
        runCase(m, named("mlp_dynamic." + run));
      }
      EmberException e = expect(EmberException.class,
          () -> m.forward(EValue.from(Tensor.fromBlob(new float[9 * 16], new long[] {9, 16}))),
          "upper bound is 8");
      check(e.getErrorCode() == 0x12, "code " + e.getErrorCode());
      runCase(m, named("mlp_dynamic.0"));
    }
  }

  void kernels() throws IOException {
    for (String name : new String[] {"cnn", "transformer", "cnn_int8"}) {
      runCase(named(name));
    }
  }

  void twoMethods() throws IOException {
    try (Module m = Module.load(path("two_methods.pte"))) {
      String[] names = m.getMethods();
      Arrays.sort(names);
      check(Arrays.equals(names, new String[] {"forward", "triple"}), Arrays.toString(names));
      check(m.loadMethod("triple") == 0, "loadMethod");
      MethodMetadata triple = m.getMethodMetadata("triple");
      check(triple.getInputs()[0].getDtype() == DType.INT64, "triple's dtype");
      check(Arrays.equals(triple.getInputs()[0].getShape(), new long[] {8}), "triple's bound");
      runCase(m, named("two_methods"));
      runCase(m, named("two_methods_triple"));
      check(m.getMethodMemoryBytes("forward") > 0, "memory bytes");
    }
  }

  void state() throws IOException {
    try (Module m = Module.load(path("accumulate.pte"))) {
      runCase(m, named("accumulate.0"));
      runCase(m, named("accumulate.1"));
      m.resetState();
      runCase(m, named("accumulate.0"));
    }
  }

  void loadModes() throws IOException {
    Case c = named("cnn");
    for (int mode = Module.LOAD_MODE_FILE; mode <= Module.LOAD_MODE_MMAP_USE_MLOCK_IGNORE_ERRORS; ++mode) {
      try (Module m = Module.load(path(c.program), mode, 2)) {
        check(m.getNumThreads() == 2, "threads " + m.getNumThreads());
        runCase(m, c);
      }
    }
    try (Module m = Module.load(Files.readAllBytes(fixtures.resolve(c.program)), 1)) {
      runCase(m, c);
    }
  }

  void badInputs() throws IOException {
    try (Module m = Module.load(path("cnn.pte"))) {
      EValue ok = EValue.from(Tensor.fromBlob(new float[3 * 32 * 32], new long[] {1, 3, 32, 32}));
      EmberException e = expect(EmberException.class,
          () -> m.forward(EValue.from(Tensor.fromBlob(new int[3 * 32 * 32], new long[] {1, 3, 32, 32}))),
          "input 0 of 'forward' is Float, the tensor is Int");
      check(e.getErrorCode() == 0x13, "InvalidType: " + e.getErrorCode());
      expect(EmberException.class,
          () -> m.forward(EValue.from(Tensor.fromBlob(new float[3 * 32 * 31], new long[] {1, 3, 32, 31}))),
          "dim 3 is 31, the method takes 32");
      expect(EmberException.class, () -> m.forward(ok, ok), "takes 1 input, got 2");
      expect(EmberException.class, () -> m.forward(EValue.from(3L)), "tensors only");
      expect(EmberException.class, () -> m.execute("backward", ok), "no method named 'backward'");
      expect(IllegalArgumentException.class,
          () -> Tensor.fromBlob(new float[5], new long[] {2, 3}), "needs 6");
      expect(IllegalArgumentException.class,
          () -> Tensor.fromBlob(FloatBuffer.allocate(6), new long[] {2, 3}), "direct");
      runCase(m, named("cnn"));  // still works
    }
  }

  void badFiles() throws IOException {
    EmberException missing = expect(EmberException.class,
        () -> Module.load(path("no-such-file.pte")), "no-such-file.pte");
    check(missing.getErrorCode() == 0x22, "AccessFailed: " + missing.getErrorCode());
    byte[] good = Files.readAllBytes(fixtures.resolve("cnn.pte"));
    byte[][] bad = {new byte[0], Arrays.copyOf(good, good.length / 2), Arrays.copyOf(good, 16),
        "not a program\n".repeat(40).getBytes(StandardCharsets.UTF_8)};
    for (byte[] b : bad) {
      expect(EmberException.class, () -> Module.load(b, 1), "ember_program_load_buffer");
    }
    Path text = Files.createTempFile("ember", ".pte");
    try {
      Files.write(text, "hello".getBytes(StandardCharsets.UTF_8));
      expect(EmberException.class, () -> Module.load(text.toString()), "cannot load");
    } finally {
      Files.delete(text);
    }
    runCase(named("cnn"));  // the library still works
  }

  void closed() throws IOException {
    Module m = Module.load(path("cnn.pte"));
    m.destroy();
    m.destroy();  // twice is harmless
    expect(IllegalStateException.class, () -> m.forward(), "destroyed");
    expect(IllegalStateException.class, m::getMethods, "destroyed");
  }

  void manyCalls() throws IOException {
    Case c = named("mlp_dynamic.1");
    try (Module m = Module.load(path(c.program), Module.LOAD_MODE_MMAP, 1)) {
      EValue x = EValue.from(read(c.inputs.get(0)));
      Tensor want = read(c.outputs.get(0));
      for (int i = 0; i < 10000; ++i) {
        Tensor out = m.forward(x)[0].toTensor();
        if (i % 2500 == 0) {
          assertClose(out, want, c.atol, c.rtol, "call " + i);
        }
      }
    }
  }

  void llmGenerate() throws IOException {
    String prompt = meta.get("llm.prompt");
    String expected = new String(Files.readAllBytes(fixtures.resolve("llm_expected.txt")),
        StandardCharsets.UTF_8);
    int steps = Integer.parseInt(meta.get("llm.steps"));
    try (LlmModule llm = new LlmModule(path("llm.pte"), path("llm.tokenizer"), 0.0f, 1)) {
      check(llm.getVocabSize() == 264, "vocab " + llm.getVocabSize());
      StringBuilder text = new StringBuilder();
      String[] stats = new String[1];
      LlmGenerationConfig config =
          LlmGenerationConfig.create().maxNewTokens(steps).temperature(0.0f).echo(false).build();
      check(llm.generate(prompt, config, new LlmCallback() {
        @Override
        public void onResult(String result) {
          text.append(result);
        }

        @Override
        public void onStats(String json) {
          stats[0] = json;
        }
      }) == 0, "generate");
      check(text.toString().equals(expected), "'" + text + "' vs eager's '" + expected + "'");
      check(stats[0] != null && stats[0].contains("\"generated_tokens\":" + steps), stats[0]);
      check(llm.getPosition() > 0, "position");
      // Greedy again after a reset: the same text. Echo puts the prompt first.
      llm.resetContext();
      StringBuilder again = new StringBuilder();
      llm.generate(prompt, LlmGenerationConfig.create().maxNewTokens(steps).temperature(0.0f).build(),
          again::append);
      check(again.toString().equals(prompt + expected), "echo: '" + again + "'");
    }
  }

  void llmStop() throws IOException {
    try (LlmModule llm = new LlmModule(path("llm.pte"), path("llm.tokenizer"), 0.0f, 1)) {
      int[] calls = {0};
      String[] reason = new String[1];
      llm.generate("hello", LlmGenerationConfig.create().maxNewTokens(50).temperature(0.0f)
          .echo(false).build(), new LlmCallback() {
            @Override
            public void onResult(String result) {
              if (++calls[0] == 2) {
                llm.stop();
              }
            }

            @Override
            public void onStats(String json) {
              reason[0] = json;
            }
          });
      check(reason[0] != null && reason[0].contains("\"stop_reason\":\"stopped\""), reason[0]);
      // A callback that throws ends generate with its exception.
      llm.resetContext();
      expect(IllegalStateException.class, () -> llm.generate("hello", LlmGenerationConfig.create()
          .temperature(0.0f).echo(false).build(), r -> {
            throw new IllegalStateException("from the callback");
          }), "from the callback");
    }
    expect(EmberException.class, () -> new LlmModule(path("cnn.pte"), path("llm.tokenizer"), 0f),
        "cnn.pte");
  }
}
