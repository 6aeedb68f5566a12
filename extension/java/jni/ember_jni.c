/* The JNI layer of the Java binding (org.ember.*): each native method is a
 * thin call into the C ABI (include/ember/ember.h). A failing status becomes
 * an org.ember.EmberException with ember_last_error()'s message; JNI's own
 * failures (out of memory making a Java object) leave Java's exception
 * pending. Strings cross as real UTF-8 (String.getBytes / new String with
 * UTF_8), not JNI's modified UTF-8, so that paths and prompts may hold any
 * character. C, not C++: it needs nothing the ABI does not give. */
#include <jni.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <ember/ember.h>

/* ---- errors and strings ---- */

static void throw_ember(JNIEnv* env, ember_status status, const char* message) {
  jclass cls = (*env)->FindClass(env, "org/ember/EmberException");
  if (cls == NULL) return;
  jmethodID ctor = (*env)->GetMethodID(env, cls, "<init>", "(ILjava/lang/String;)V");
  if (ctor == NULL) return;
  jstring text = (*env)->NewStringUTF(env, message);  /* the runtime's messages are ASCII */
  if (text == NULL) return;
  jobject e = (*env)->NewObject(env, cls, ctor, (jint)status, text);
  if (e != NULL) (*env)->Throw(env, (jthrowable)e);
}

/* 1 (and an exception pending) when `status` is a failure. */
static int failed(JNIEnv* env, ember_status status) {
  if (status == EMBER_OK) return 0;
  throw_ember(env, status, ember_last_error());
  return 1;
}

static jobject utf8_charset(JNIEnv* env) {
  jclass cls = (*env)->FindClass(env, "java/nio/charset/StandardCharsets");
  if (cls == NULL) return NULL;
  jfieldID f = (*env)->GetStaticFieldID(env, cls, "UTF_8", "Ljava/nio/charset/Charset;");
  return f == NULL ? NULL : (*env)->GetStaticObjectField(env, cls, f);
}

/* A malloc'd, NUL-terminated UTF-8 copy of `s` (NULL for a null string, or
 * on failure with an exception pending: *ok is then 0). */
static char* utf8_of(JNIEnv* env, jstring s, int* ok) {
  *ok = 1;
  if (s == NULL) return NULL;
  *ok = 0;
  jobject charset = utf8_charset(env);
  if (charset == NULL) return NULL;
  jclass cls = (*env)->GetObjectClass(env, s);
  jmethodID get_bytes = (*env)->GetMethodID(env, cls, "getBytes", "(Ljava/nio/charset/Charset;)[B");
  if (get_bytes == NULL) return NULL;
  jbyteArray bytes = (jbyteArray)(*env)->CallObjectMethod(env, s, get_bytes, charset);
  if ((*env)->ExceptionCheck(env) || bytes == NULL) return NULL;
  jsize n = (*env)->GetArrayLength(env, bytes);
  char* out = (char*)malloc((size_t)n + 1);
  if (out == NULL) {
    throw_ember(env, EMBER_ERROR_MEMORY_ALLOCATION_FAILED, "out of memory");
    return NULL;
  }
  (*env)->GetByteArrayRegion(env, bytes, 0, n, (jbyte*)out);
  out[n] = '\0';
  *ok = 1;
  return out;
}

static jstring string_of(JNIEnv* env, const char* text) {
  size_t n = strlen(text);
  jbyteArray bytes = (*env)->NewByteArray(env, (jsize)n);
  if (bytes == NULL) return NULL;
  (*env)->SetByteArrayRegion(env, bytes, 0, (jsize)n, (const jbyte*)text);
  jobject charset = utf8_charset(env);
  jclass cls = (*env)->FindClass(env, "java/lang/String");
  if (charset == NULL || cls == NULL) return NULL;
  jmethodID ctor = (*env)->GetMethodID(env, cls, "<init>", "([BLjava/nio/charset/Charset;)V");
  return ctor == NULL ? NULL : (jstring)(*env)->NewObject(env, cls, ctor, bytes, charset);
}

#define PTR(type, handle) ((type*)(intptr_t)(handle))
#define HANDLE(p) ((jlong)(intptr_t)(p))

/* ---- org.ember.NativeLibrary ---- */

JNIEXPORT jstring JNICALL Java_org_ember_NativeLibrary_nativeVersion(JNIEnv* env, jclass cls) {
  (void)cls;
  return string_of(env, ember_version());
}

JNIEXPORT jint JNICALL Java_org_ember_NativeLibrary_nativeAbiVersion(JNIEnv* env, jclass cls) {
  (void)env;
  (void)cls;
  return (jint)ember_abi_version();
}

/* ---- org.ember.Module ---- */

JNIEXPORT jlong JNICALL Java_org_ember_Module_nativeLoadFile(JNIEnv* env, jclass cls, jstring path,
                                                            jboolean no_mmap, jint threads) {
  (void)cls;
  int ok;
  char* p = utf8_of(env, path, &ok);
  if (!ok) return 0;
  ember_load_options options = EMBER_LOAD_OPTIONS_INIT;
  options.num_threads = (uint32_t)threads;
  options.flags = no_mmap ? EMBER_LOAD_NO_MMAP : 0;
  ember_program* program = NULL;
  ember_status status = ember_program_load_file(p, &options, &program);
  free(p);
  return failed(env, status) ? 0 : HANDLE(program);
}

JNIEXPORT jlong JNICALL Java_org_ember_Module_nativeLoadBuffer(JNIEnv* env, jclass cls,
                                                              jobject bytes, jint size,
                                                              jint threads) {
  (void)cls;
  void* data = (*env)->GetDirectBufferAddress(env, bytes);
  if (data == NULL && size > 0) {
    throw_ember(env, EMBER_ERROR_INVALID_ARGUMENT, "the program's bytes are not a direct buffer");
    return 0;
  }
  static const uint8_t kEmpty[1] = {0};
  ember_load_options options = EMBER_LOAD_OPTIONS_INIT;
  options.num_threads = (uint32_t)threads;
  ember_program* program = NULL;
  /* Copied (no EMBER_LOAD_BORROW_BUFFER): the Java buffer may be collected. */
  if (failed(env, ember_program_load_buffer(data != NULL ? data : kEmpty, (size_t)size, &options,
                                            &program))) {
    return 0;
  }
  return HANDLE(program);
}

JNIEXPORT void JNICALL Java_org_ember_Module_nativeDestroy(JNIEnv* env, jclass cls, jlong program) {
  (void)env;
  (void)cls;
  ember_program_destroy(PTR(ember_program, program));
}

JNIEXPORT jobjectArray JNICALL Java_org_ember_Module_nativeMethodNames(JNIEnv* env, jclass cls,
                                                                      jlong handle) {
  (void)cls;
  const ember_program* program = PTR(const ember_program, handle);
  size_t count = 0;
  if (failed(env, ember_program_num_methods(program, &count))) return NULL;
  jclass string = (*env)->FindClass(env, "java/lang/String");
  if (string == NULL) return NULL;
  jobjectArray out = (*env)->NewObjectArray(env, (jsize)count, string, NULL);
  for (size_t i = 0; out != NULL && i < count; ++i) {
    const char* name = NULL;
    if (failed(env, ember_program_method_name(program, i, &name))) return NULL;
    jstring s = string_of(env, name);
    if (s == NULL) return NULL;
    (*env)->SetObjectArrayElement(env, out, (jsize)i, s);
    (*env)->DeleteLocalRef(env, s);
  }
  return out;
}

JNIEXPORT jlong JNICALL Java_org_ember_Module_nativeGetMethod(JNIEnv* env, jclass cls,
                                                             jlong program, jstring name) {
  (void)cls;
  int ok;
  char* n = utf8_of(env, name, &ok);
  if (!ok) return 0;
  ember_method* method = NULL;
  ember_status status = ember_program_get_method(PTR(ember_program, program), n, &method);
  free(n);
  return failed(env, status) ? 0 : HANDLE(method);
}

JNIEXPORT jint JNICALL Java_org_ember_Module_nativeNumThreads(JNIEnv* env, jclass cls,
                                                             jlong program) {
  (void)cls;
  size_t n = 0;
  return failed(env, ember_program_num_threads(PTR(const ember_program, program), &n)) ? 0 : (jint)n;
}

JNIEXPORT void JNICALL Java_org_ember_Module_nativeResetState(JNIEnv* env, jclass cls,
                                                             jlong program) {
  (void)cls;
  failed(env, ember_program_reset_state(PTR(ember_program, program)));
}

JNIEXPORT jint JNICALL Java_org_ember_Module_nativeNumInputs(JNIEnv* env, jclass cls,
                                                            jlong method) {
  (void)cls;
  size_t n = 0;
  return failed(env, ember_method_num_inputs(PTR(const ember_method, method), &n)) ? 0 : (jint)n;
}

JNIEXPORT jint JNICALL Java_org_ember_Module_nativeNumOutputs(JNIEnv* env, jclass cls,
                                                             jlong method) {
  (void)cls;
  size_t n = 0;
  return failed(env, ember_method_num_outputs(PTR(const ember_method, method), &n)) ? 0 : (jint)n;
}

JNIEXPORT jstring JNICALL Java_org_ember_Module_nativeInputName(JNIEnv* env, jclass cls,
                                                               jlong method, jint index) {
  (void)cls;
  const char* name = NULL;
  if (failed(env, ember_method_input_name(PTR(const ember_method, method), (size_t)index, &name))) {
    return NULL;
  }
  return string_of(env, name);
}

/* {dtype, dims...} of a tensor handle as a long[]. */
static jlongArray describe(JNIEnv* env, const ember_tensor* t) {
  ember_dtype dtype = 0;
  size_t rank = 0;
  int64_t dims[EMBER_MAX_RANK];
  if (failed(env, ember_tensor_dtype(t, &dtype)) || failed(env, ember_tensor_rank(t, &rank)) ||
      failed(env, ember_tensor_dims(t, dims, EMBER_MAX_RANK))) {
    return NULL;
  }
  jlong values[EMBER_MAX_RANK + 1];
  values[0] = dtype;
  for (size_t d = 0; d < rank; ++d) values[d + 1] = (jlong)dims[d];
  jlongArray out = (*env)->NewLongArray(env, (jsize)(rank + 1));
  if (out != NULL) (*env)->SetLongArrayRegion(env, out, 0, (jsize)(rank + 1), values);
  return out;
}

JNIEXPORT jlongArray JNICALL Java_org_ember_Module_nativeValueMeta(JNIEnv* env, jclass cls,
                                                                  jlong handle, jint index,
                                                                  jboolean input) {
  (void)cls;
  const ember_method* method = PTR(const ember_method, handle);
  const ember_tensor* meta = NULL;
  ember_status status = input ? ember_method_input_meta(method, (size_t)index, &meta)
                              : ember_method_output_meta(method, (size_t)index, &meta);
  if (status == EMBER_ERROR_INVALID_TYPE) return NULL; /* not a tensor */
  if (failed(env, status)) return NULL;
  return describe(env, meta);
}

JNIEXPORT jint JNICALL Java_org_ember_Module_nativeInputDynamicDims(JNIEnv* env, jclass cls,
                                                                   jlong method, jint index) {
  (void)cls;
  uint32_t mask = 0;
  if (failed(env, ember_method_input_dynamic_dims(PTR(const ember_method, method), (size_t)index,
                                                  &mask))) {
    return 0;
  }
  return (jint)mask;
}

JNIEXPORT jlong JNICALL Java_org_ember_Module_nativeMemoryBytes(JNIEnv* env, jclass cls,
                                                               jlong method) {
  (void)cls;
  size_t n = 0;
  return failed(env, ember_method_memory_bytes(PTR(const ember_method, method), &n)) ? 0 : (jlong)n;
}

JNIEXPORT void JNICALL Java_org_ember_Module_nativeExecute(JNIEnv* env, jclass cls, jlong handle,
                                                          jobjectArray buffers, jintArray dtypes,
                                                          jobjectArray shapes, jlongArray bytes) {
  (void)cls;
  ember_method* method = PTR(ember_method, handle);
  jsize count = (*env)->GetArrayLength(env, buffers);
  for (jsize i = 0; i < count; ++i) {
    jobject buffer = (*env)->GetObjectArrayElement(env, buffers, i);
    jlongArray shape = (jlongArray)(*env)->GetObjectArrayElement(env, shapes, i);
    jint dtype = 0;
    jlong size = 0;
    (*env)->GetIntArrayRegion(env, dtypes, i, 1, &dtype);
    (*env)->GetLongArrayRegion(env, bytes, i, 1, &size);
    jsize rank = (*env)->GetArrayLength(env, shape);
    if (rank > EMBER_MAX_RANK) {
      throw_ember(env, EMBER_ERROR_INVALID_ARGUMENT, "a tensor's rank is over 16");
      return;
    }
    jlong dims64[EMBER_MAX_RANK];
    int64_t dims[EMBER_MAX_RANK];
    (*env)->GetLongArrayRegion(env, shape, 0, rank, dims64);
    for (jsize d = 0; d < rank; ++d) dims[d] = (int64_t)dims64[d];
    /* Java's direct buffer, read in place by this execute: no copy. */
    void* data = (*env)->GetDirectBufferAddress(env, buffer);
    static uint8_t empty[1];
    ember_tensor* tensor = NULL;
    if (failed(env, ember_tensor_create((ember_dtype)dtype, dims, (size_t)rank,
                                        data != NULL ? data : empty, (size_t)size, &tensor))) {
      return;
    }
    ember_status status = ember_method_set_input(method, (size_t)i, tensor);
    ember_tensor_destroy(tensor);
    (*env)->DeleteLocalRef(env, buffer);
    (*env)->DeleteLocalRef(env, shape);
    if (failed(env, status)) return;
  }
  failed(env, ember_method_execute(method));
}

JNIEXPORT jlongArray JNICALL Java_org_ember_Module_nativeOutputInfo(JNIEnv* env, jclass cls,
                                                                   jlong method, jint index) {
  (void)cls;
  const ember_tensor* out = NULL;
  ember_status status = ember_method_get_output(PTR(const ember_method, method), (size_t)index, &out);
  if (status == EMBER_ERROR_INVALID_TYPE) return NULL; /* an integer output */
  if (failed(env, status)) return NULL;
  return describe(env, out);
}

JNIEXPORT void JNICALL Java_org_ember_Module_nativeOutputCopy(JNIEnv* env, jclass cls,
                                                             jlong method, jint index, jobject dst,
                                                             jint size) {
  (void)cls;
  const ember_tensor* out = NULL;
  if (failed(env, ember_method_get_output(PTR(const ember_method, method), (size_t)index, &out))) {
    return;
  }
  void* data = (*env)->GetDirectBufferAddress(env, dst);
  static uint8_t empty[1];
  failed(env, ember_tensor_copy_to(out, data != NULL ? data : empty, (size_t)size));
}

JNIEXPORT jlong JNICALL Java_org_ember_Module_nativeOutputInt(JNIEnv* env, jclass cls,
                                                             jlong method, jint index) {
  (void)cls;
  int64_t value = 0;
  if (failed(env, ember_method_get_output_int(PTR(const ember_method, method), (size_t)index,
                                              &value))) {
    return 0;
  }
  return (jlong)value;
}

/* ---- org.ember.llm.LlmModule ---- */

JNIEXPORT jlong JNICALL Java_org_ember_llm_LlmModule_nativeLoad(JNIEnv* env, jclass cls,
                                                               jstring program, jstring tokenizer,
                                                               jint threads) {
  (void)cls;
  int ok_p, ok_t;
  char* p = utf8_of(env, program, &ok_p);
  if (!ok_p) return 0;
  char* t = utf8_of(env, tokenizer, &ok_t);
  if (!ok_t) {
    free(p);
    return 0;
  }
  ember_load_options options = EMBER_LOAD_OPTIONS_INIT;
  options.num_threads = (uint32_t)threads;
  ember_llm* llm = NULL;
  ember_status status = ember_llm_load(p, t, &options, &llm);
  free(p);
  free(t);
  return failed(env, status) ? 0 : HANDLE(llm);
}

JNIEXPORT void JNICALL Java_org_ember_llm_LlmModule_nativeDestroy(JNIEnv* env, jclass cls,
                                                                 jlong llm) {
  (void)env;
  (void)cls;
  ember_llm_destroy(PTR(ember_llm, llm));
}

JNIEXPORT void JNICALL Java_org_ember_llm_LlmModule_nativeReset(JNIEnv* env, jclass cls,
                                                               jlong llm) {
  (void)cls;
  failed(env, ember_llm_reset(PTR(ember_llm, llm)));
}

JNIEXPORT jlong JNICALL Java_org_ember_llm_LlmModule_nativeGet(JNIEnv* env, jclass cls, jlong llm,
                                                              jint key) {
  (void)cls;
  int64_t value = 0;
  return failed(env, ember_llm_get(PTR(const ember_llm, llm), key, &value)) ? 0 : (jlong)value;
}

/* What the token callback needs: the JNI environment of the generating
 * thread and the Java trampoline (LlmModule.Trampoline.onToken). */
struct token_sink {
  JNIEnv* env;
  jobject trampoline;
  jmethodID on_token;
};

static int32_t on_token(void* user_data, int32_t token, const char* text, size_t text_size) {
  struct token_sink* sink = (struct token_sink*)user_data;
  JNIEnv* env = sink->env;
  jbyteArray bytes = (*env)->NewByteArray(env, (jsize)text_size);
  if (bytes == NULL) return 1; /* out of memory: stop, the exception is pending */
  if (text_size > 0) (*env)->SetByteArrayRegion(env, bytes, 0, (jsize)text_size, (const jbyte*)text);
  jboolean stop = (*env)->CallBooleanMethod(env, sink->trampoline, sink->on_token, (jint)token, bytes);
  (*env)->DeleteLocalRef(env, bytes);
  if ((*env)->ExceptionCheck(env)) return 1;
  return stop ? 1 : 0;
}

JNIEXPORT void JNICALL Java_org_ember_llm_LlmModule_nativeGenerate(
    JNIEnv* env, jclass cls, jlong handle, jboolean chat, jstring text, jstring system,
    jint max_new_tokens, jfloat temperature, jint top_k, jfloat top_p, jfloat repetition_penalty,
    jlong seed, jboolean ignore_eos, jobject trampoline, jdoubleArray stats_out) {
  (void)cls;
  jclass tcls = (*env)->GetObjectClass(env, trampoline);
  jmethodID on = (*env)->GetMethodID(env, tcls, "onToken", "(I[B)Z");
  if (on == NULL) return;
  int ok_text, ok_system;
  char* t = utf8_of(env, text, &ok_text);
  if (!ok_text) return;
  char* s = utf8_of(env, system, &ok_system);
  if (!ok_system) {
    free(t);
    return;
  }
  ember_generate_options options = EMBER_GENERATE_OPTIONS_INIT;
  options.max_new_tokens = max_new_tokens;
  options.temperature = temperature;
  options.top_k = top_k;
  options.top_p = top_p;
  options.repetition_penalty = repetition_penalty;
  options.seed = (uint64_t)seed;
  options.flags = ignore_eos ? EMBER_GENERATE_IGNORE_EOS : 0;
  struct token_sink sink = {env, trampoline, on};
  ember_generate_stats stats = EMBER_GENERATE_STATS_INIT;
  ember_llm* llm = PTR(ember_llm, handle);
  ember_status status =
      chat ? ember_llm_chat(llm, t, s, &options, on_token, &sink, &stats)
           : ember_llm_generate(llm, t, &options, on_token, &sink, &stats);
  free(t);
  free(s);
  if ((*env)->ExceptionCheck(env)) return; /* the callback's own failure wins */
  if (failed(env, status)) return;
  jdouble values[6] = {(jdouble)stats.stop_reason, (jdouble)stats.prompt_tokens,
                       (jdouble)stats.generated_tokens, stats.prefill_ms, stats.first_token_ms,
                       stats.decode_ms};
  (*env)->SetDoubleArrayRegion(env, stats_out, 0, 6, values);
}
