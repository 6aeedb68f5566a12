/* The C ABI's test, compiled as C (C11, -pedantic): every function of
 * include/ember/ember.h, its error paths included, against the installed
 * libember. The expected values come from PyTorch eager and the ember
 * Python package, computed by test_package.py into the directory given:
 *
 *   c_api_test DATA_DIR
 *
 * Prints one line per failed check and a summary; exits 1 if any failed. */
#include <ember/ember.h>

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_checks = 0;
static int g_failures = 0;
static const char* g_dir = ".";

#define CHECK(cond)                                                        \
  do {                                                                     \
    ++g_checks;                                                            \
    if (!(cond)) {                                                         \
      ++g_failures;                                                        \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, #cond);      \
    }                                                                      \
  } while (0)

/* The call returns `expected` and, for an error, leaves a message. */
#define CHECK_STATUS(call, expected)                                                   \
  do {                                                                                 \
    const ember_status got_ = (call);                                                  \
    ++g_checks;                                                                        \
    if (got_ != (expected)) {                                                          \
      ++g_failures;                                                                    \
      fprintf(stderr, "FAIL %s:%d: %s returned %s, expected %s (%s)\n", __FILE__,      \
              __LINE__, #call, ember_status_name(got_), ember_status_name(expected),   \
              ember_last_error());                                                     \
    } else if ((expected) != EMBER_OK && ember_last_error()[0] == '\0') {              \
      ++g_failures;                                                                    \
      fprintf(stderr, "FAIL %s:%d: %s failed with no message\n", __FILE__, __LINE__,   \
              #call);                                                                  \
    }                                                                                  \
  } while (0)
#define CHECK_OK(call) CHECK_STATUS(call, EMBER_OK)

static int contains(const char* text, const char* part) {
  return text != NULL && strstr(text, part) != NULL;
}

/* ---- the data directory ---- */

static char* path_of(const char* name) {
  static char path[4096];
  snprintf(path, sizeof(path), "%s/%s", g_dir, name);
  return path;
}

static void* read_file(const char* name, size_t* size) {
  FILE* f = fopen(path_of(name), "rb");
  long n;
  void* data;
  if (f == NULL) {
    fprintf(stderr, "cannot open %s\n", path_of(name));
    exit(2);
  }
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  data = malloc(n > 0 ? (size_t)n : 1);
  if (data == NULL || fread(data, 1, (size_t)n, f) != (size_t)n) exit(2);
  fclose(f);
  *size = (size_t)n;
  return data;
}

/* The numbers after `key` on its line of expected.txt. */
static size_t manifest_ints(const char* key, int64_t* values, size_t capacity) {
  size_t size, count = 0, key_len = strlen(key);
  char* text = read_file("expected.txt", &size);
  char* line = text;
  text = realloc(text, size + 1);
  line = text;
  text[size] = '\0';
  while (line != NULL && *line != '\0') {
    char* next = strchr(line, '\n');
    if (next != NULL) *next++ = '\0';
    if (strncmp(line, key, key_len) == 0 && line[key_len] == ' ') {
      char* p = line + key_len;
      char* end;
      for (;;) {
        long long v = strtoll(p, &end, 10);
        if (end == p || count == capacity) break;
        values[count++] = v;
        p = end;
      }
      break;
    }
    line = next;
  }
  free(text);
  if (count == 0) {
    fprintf(stderr, "expected.txt has no %s\n", key);
    exit(2);
  }
  return count;
}

static int64_t manifest_int(const char* key) {
  int64_t v;
  manifest_ints(key, &v, 1);
  return v;
}

static int close_to(const float* got, const float* want, size_t n) {
  size_t i;
  for (i = 0; i < n; ++i) {
    if (fabsf(got[i] - want[i]) > 1e-4f + 1e-4f * fabsf(want[i])) {
      fprintf(stderr, "  element %zu: %g, expected %g\n", i, got[i], want[i]);
      return 0;
    }
  }
  return 1;
}

/* ---- the library ---- */

static void* fail_on_thread(void* arg) {
  (void)arg;
  ember_tensor_rank(NULL, NULL); /* a failure on this thread only */
  return contains(ember_last_error(), "ember_tensor_rank") ? (void*)1 : NULL;
}

static void test_library(void) {
  ember_load_options options, init = EMBER_LOAD_OPTIONS_INIT;
  ember_generate_options gen, gen_init = EMBER_GENERATE_OPTIONS_INIT;
  char version[64];
  size_t size;
  char* expected_version = read_file("version.txt", &size);
  pthread_t thread;
  void* thread_saw = NULL;

  CHECK(ember_abi_version() == ((uint32_t)EMBER_ABI_VERSION_MAJOR << 16 | EMBER_ABI_VERSION_MINOR));
  snprintf(version, sizeof(version), "%.*s", (int)size, expected_version);
  CHECK(strcmp(ember_version(), version) == 0);
  free(expected_version);

  CHECK(strcmp(ember_status_name(EMBER_OK), "Ok") == 0);
  CHECK(strcmp(ember_status_name(EMBER_ERROR_INVALID_ARGUMENT), "InvalidArgument") == 0);
  CHECK(strcmp(ember_status_name(EMBER_ERROR_INVALID_PROGRAM), "InvalidProgram") == 0);
  CHECK(strcmp(ember_status_name(EMBER_ERROR_BUFFER_TOO_SMALL), "BufferTooSmall") == 0);
  CHECK(strcmp(ember_status_name(3), "Unknown") == 0);
  CHECK(strcmp(ember_status_name(-7), "Unknown") == 0);

  CHECK(ember_dtype_size(EMBER_DTYPE_FLOAT32) == 4);
  CHECK(ember_dtype_size(EMBER_DTYPE_INT64) == 8);
  CHECK(ember_dtype_size(EMBER_DTYPE_FLOAT16) == 2);
  CHECK(ember_dtype_size(EMBER_DTYPE_BOOL) == 1);
  CHECK(ember_dtype_size(EMBER_DTYPE_UINT8) == 1);
  CHECK(ember_dtype_size(99) == 0);
  CHECK(ember_dtype_size(-1) == 0);

  CHECK_STATUS(ember_set_log_level(7), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(contains(ember_last_error(), "ember_set_log_level"));
  CHECK_OK(ember_set_log_level(EMBER_LOG_INFO));
  /* The error paths below would log each refusal on stderr. */
  CHECK_OK(ember_set_log_level(EMBER_LOG_NONE));

  memset(&options, 0xab, sizeof(options));
  ember_load_options_init(&options);
  CHECK(memcmp(&options, &init, sizeof(options)) == 0 && options.struct_size == sizeof(options));
  ember_load_options_init(NULL);
  memset(&gen, 0xab, sizeof(gen));
  ember_generate_options_init(&gen);
  CHECK(memcmp(&gen, &gen_init, sizeof(gen)) == 0 && gen.max_new_tokens == 128 &&
        gen.top_p == 1.0f && gen.repetition_penalty == 1.0f);
  ember_generate_options_init(NULL);

  /* The message is per thread: another thread's failure leaves ours alone. */
  CHECK_STATUS(ember_tensor_dims(NULL, NULL, 0), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(pthread_create(&thread, NULL, fail_on_thread, NULL) == 0);
  CHECK(pthread_join(thread, &thread_saw) == 0);
  CHECK(thread_saw != NULL);
  CHECK(contains(ember_last_error(), "ember_tensor_dims"));
}

/* ---- tensors ---- */

static void test_tensors(void) {
  float data[6] = {1, 2, 3, 4, 5, 6};
  float copy[6] = {0};
  const int64_t dims[2] = {2, 3};
  const int64_t bad_dims[2] = {2, -3};
  int64_t got_dims[2] = {0, 0};
  int64_t big_dims[EMBER_MAX_RANK + 1];
  ember_tensor* t = NULL;
  ember_tensor* scalar = NULL;
  ember_tensor* empty = NULL;
  ember_dtype dtype = -1;
  size_t rank = 0, size = 0, i;
  const void* ptr = NULL;
  int64_t one = 42;
  const int64_t zero_dims[1] = {0};

  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, dims, 2, data, sizeof(data), &t));
  CHECK_OK(ember_tensor_dtype(t, &dtype));
  CHECK(dtype == EMBER_DTYPE_FLOAT32);
  CHECK_OK(ember_tensor_rank(t, &rank));
  CHECK(rank == 2);
  CHECK_OK(ember_tensor_dims(t, got_dims, 2));
  CHECK(got_dims[0] == 2 && got_dims[1] == 3);
  CHECK_STATUS(ember_tensor_dims(t, got_dims, 1), EMBER_ERROR_BUFFER_TOO_SMALL);
  CHECK_STATUS(ember_tensor_dims(t, NULL, 2), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_OK(ember_tensor_size(t, &size));
  CHECK(size == sizeof(data));
  CHECK_OK(ember_tensor_data(t, &ptr));
  CHECK(ptr == (const void*)data); /* wrapped, not copied */
  CHECK_STATUS(ember_tensor_copy_to(t, copy, sizeof(copy) - 1), EMBER_ERROR_BUFFER_TOO_SMALL);
  CHECK(contains(ember_last_error(), "dst holds 23"));
  CHECK_STATUS(ember_tensor_copy_to(t, NULL, sizeof(copy)), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_OK(ember_tensor_copy_to(t, copy, sizeof(copy)));
  CHECK(memcmp(copy, data, sizeof(data)) == 0);
  ember_tensor_destroy(t);
  ember_tensor_destroy(NULL);

  /* A scalar (rank 0) and an empty tensor. */
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_INT64, NULL, 0, &one, sizeof(one), &scalar));
  CHECK_OK(ember_tensor_rank(scalar, &rank));
  CHECK(rank == 0);
  CHECK_OK(ember_tensor_dims(scalar, NULL, 0));
  ember_tensor_destroy(scalar);
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, zero_dims, 1, NULL, 0, &empty));
  CHECK_OK(ember_tensor_size(empty, &size));
  CHECK(size == 0);
  ember_tensor_destroy(empty);

  /* Refusals, each with the argument named. */
  t = NULL;
  CHECK_STATUS(ember_tensor_create(99, dims, 2, data, sizeof(data), &t), EMBER_ERROR_INVALID_TYPE);
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_FLOAT32, dims, 2, data, sizeof(data), NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(contains(ember_last_error(), "out is NULL"));
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_FLOAT32, NULL, 2, data, sizeof(data), &t),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_FLOAT32, bad_dims, 2, data, sizeof(data), &t),
               EMBER_ERROR_INVALID_ARGUMENT);
  for (i = 0; i <= EMBER_MAX_RANK; ++i) big_dims[i] = 1;
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_FLOAT32, big_dims, EMBER_MAX_RANK + 1, data, 4, &t),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_FLOAT32, dims, 2, data, sizeof(data) - 4, &t),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(contains(ember_last_error(), "the shape needs 24"));
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_INT64, dims, 2, data, sizeof(data), &t),
               EMBER_ERROR_INVALID_ARGUMENT); /* 6 int64 are 48 bytes */
  CHECK_STATUS(ember_tensor_create(EMBER_DTYPE_FLOAT32, dims, 2, NULL, sizeof(data), &t),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(t == NULL); /* out-parameters are written only on success */
  CHECK_STATUS(ember_tensor_dtype(NULL, &dtype), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_tensor_rank(NULL, &rank), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_tensor_size(NULL, &size), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_tensor_data(NULL, &ptr), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_tensor_copy_to(NULL, copy, sizeof(copy)), EMBER_ERROR_INVALID_ARGUMENT);
}

/* ---- programs and methods ---- */

/* Runs `forward` of `program` on the test input and compares with eager. */
static void run_forward(ember_program* program) {
  size_t in_size, want_size;
  float* input = read_file("forward_input.bin", &in_size);
  float* want = read_file("forward_expected.bin", &want_size);
  int64_t shape[2];
  int64_t got_dims[2] = {0, 0};
  ember_method* forward = NULL;
  ember_tensor* x = NULL;
  const ember_tensor* y = NULL;
  float* got = malloc(want_size);

  manifest_ints("forward_input_shape", shape, 2);
  CHECK_OK(ember_program_get_method(program, "forward", &forward));
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, shape, 2, input, in_size, &x));
  CHECK_OK(ember_method_set_input(forward, 0, x));
  ember_tensor_destroy(x); /* the method kept the shape; the memory stays ours */
  CHECK_OK(ember_method_execute(forward));
  CHECK_OK(ember_method_get_output(forward, 0, &y));
  CHECK_OK(ember_tensor_dims(y, got_dims, 2));
  CHECK(got_dims[0] == shape[0] && got_dims[1] * (int64_t)sizeof(float) * shape[0] ==
                                       (int64_t)want_size);
  CHECK_OK(ember_tensor_copy_to(y, got, want_size));
  CHECK(close_to(got, want, want_size / sizeof(float)));
  free(got);
  free(input);
  free(want);
}

static void test_program(void) {
  ember_program* program = NULL;
  ember_program* other = NULL;
  ember_method* forward = NULL;
  ember_method* again = NULL;
  ember_method* triple = NULL;
  ember_load_options options = EMBER_LOAD_OPTIONS_INIT;
  size_t n = 0, i, memory = 0, threads = 0, pte_size, triple_size, triple_want_size;
  const char* name = NULL;
  int saw_forward = 0, saw_triple = 0;
  const ember_tensor* meta = NULL;
  const ember_tensor* out = NULL;
  ember_dtype dtype = 0;
  int64_t dims[2] = {0, 0}, bound[2], out_bound[2], value = 0;
  const void* data = (const void*)1;
  float input[4 * 8] = {0};
  int64_t ints[32] = {0};
  ember_tensor *wrong_dtype = NULL, *wrong_rank = NULL, *too_big = NULL, *wrong_dim = NULL;
  const int64_t shape_4x8[2] = {4, 8}, shape_5x8[2] = {5, 8}, shape_4x7[2] = {4, 7},
                shape_32[1] = {32};
  ember_tensor *triple_in = NULL, *x = NULL;
  int64_t triple_shape[1];
  int64_t* triple_input;
  int64_t* triple_want;
  int64_t triple_got[16];
  char* pte;
  struct {
    ember_load_options o;
    uint32_t extra;
    uint32_t pad;
  } newer;

  /* Loading: the file, with options, and the refusals. */
  options.num_threads = 2;
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &options, &program));
  CHECK_OK(ember_program_num_threads(program, &threads));
  CHECK(threads == 2);
  CHECK_STATUS(ember_program_load_file(path_of("no_such.pte"), NULL, &other),
               EMBER_ERROR_ACCESS_FAILED);
  CHECK(contains(ember_last_error(), "no_such.pte"));
  CHECK_STATUS(ember_program_load_file(path_of("garbage.pte"), NULL, &other),
               EMBER_ERROR_INVALID_PROGRAM);
  CHECK_STATUS(ember_program_load_file(NULL, NULL, &other), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_program_load_file(path_of("mlp.pte"), NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(other == NULL);

  /* The options' versioning (ember.h): a zero struct_size, flags this
   * library does not know, a newer header's longer struct. */
  options.struct_size = 0;
  CHECK_STATUS(ember_program_load_file(path_of("mlp.pte"), &options, &other),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(contains(ember_last_error(), "EMBER_LOAD_OPTIONS_INIT"));
  ember_load_options_init(&options);
  options.flags = 1u << 20;
  CHECK_STATUS(ember_program_load_file(path_of("mlp.pte"), &options, &other),
               EMBER_ERROR_NOT_SUPPORTED);
  ember_load_options_init(&options);
  options.reserved = 1;
  CHECK_STATUS(ember_program_load_file(path_of("mlp.pte"), &options, &other),
               EMBER_ERROR_NOT_SUPPORTED);
  memset(&newer, 0, sizeof(newer));
  ember_load_options_init(&newer.o);
  newer.o.struct_size = sizeof(newer);
  newer.extra = 5; /* a setting this library cannot honour */
  CHECK_STATUS(ember_program_load_file(path_of("mlp.pte"), &newer.o, &other),
               EMBER_ERROR_NOT_SUPPORTED);
  CHECK(contains(ember_last_error(), "newer libember"));
  newer.extra = 0; /* at its default: accepted */
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &newer.o, &other));
  ember_program_destroy(other);
  other = NULL;
  ember_load_options_init(&options);
  options.struct_size = 8; /* an older header: struct_size and num_threads only */
  options.num_threads = 1;
  options.max_memory_bytes = 1; /* past its struct_size: not read */
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &options, &other));
  CHECK_OK(ember_program_get_method(other, "forward", &forward));
  CHECK_OK(ember_program_num_threads(other, &threads));
  CHECK(threads == 1);
  ember_program_destroy(other);
  other = NULL;
  forward = NULL;

  /* Methods and their metadata. */
  CHECK_OK(ember_program_num_methods(program, &n));
  CHECK(n == 2);
  for (i = 0; i < n; ++i) {
    CHECK_OK(ember_program_method_name(program, i, &name));
    saw_forward |= strcmp(name, "forward") == 0;
    saw_triple |= strcmp(name, "triple") == 0;
  }
  CHECK(saw_forward && saw_triple);
  CHECK_STATUS(ember_program_method_name(program, n, &name), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_program_get_method(program, "backward", &forward), EMBER_ERROR_NOT_FOUND);
  CHECK(contains(ember_last_error(), "no method named 'backward'"));
  CHECK(forward == NULL);
  CHECK_OK(ember_program_get_method(program, "forward", &forward));
  CHECK_OK(ember_program_get_method(program, "forward", &again));
  CHECK(forward == again);
  CHECK_STATUS(ember_program_get_method(program, NULL, &again), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_OK(ember_method_num_inputs(forward, &n));
  CHECK(n == 1);
  CHECK_OK(ember_method_num_outputs(forward, &n));
  CHECK(n == 1);
  CHECK_OK(ember_method_input_name(forward, 0, &name));
  CHECK(strcmp(name, "x") == 0);
  CHECK_STATUS(ember_method_input_name(forward, 1, &name), EMBER_ERROR_INVALID_ARGUMENT);
  manifest_ints("forward_bound", bound, 2);
  manifest_ints("forward_output_bound", out_bound, 2);
  CHECK_OK(ember_method_input_meta(forward, 0, &meta));
  CHECK_OK(ember_tensor_dtype(meta, &dtype));
  CHECK(dtype == EMBER_DTYPE_FLOAT32);
  CHECK_OK(ember_tensor_dims(meta, dims, 2));
  CHECK(dims[0] == bound[0] && dims[1] == bound[1]);
  CHECK_OK(ember_tensor_data(meta, &data));
  CHECK(data == NULL);
  CHECK_STATUS(ember_tensor_copy_to(meta, input, sizeof(input)), EMBER_ERROR_INVALID_STATE);
  ember_tensor_destroy((ember_tensor*)meta); /* the method's: nothing happens */
  CHECK_OK(ember_method_output_meta(forward, 0, &meta));
  CHECK_OK(ember_tensor_dims(meta, dims, 2));
  CHECK(dims[0] == out_bound[0] && dims[1] == out_bound[1]);
  CHECK_STATUS(ember_method_input_meta(forward, 1, &meta), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_output_meta(forward, 1, &meta), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_OK(ember_method_memory_bytes(forward, &memory));
  CHECK(memory > 0);

  /* Running: inputs that do not fit, the order of calls, the outputs. */
  CHECK_STATUS(ember_method_execute(forward), EMBER_ERROR_INVALID_STATE);
  CHECK(contains(ember_last_error(), "not bound"));
  CHECK_STATUS(ember_method_get_output(forward, 0, &out), EMBER_ERROR_INVALID_STATE);
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_INT64, shape_32, 1, ints, sizeof(ints), &wrong_dtype));
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, shape_32, 1, input, sizeof(input), &wrong_rank));
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, shape_4x7, 2, input, 4 * 7 * 4, &wrong_dim));
  {
    float* five = calloc(5 * 8, sizeof(float));
    CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, shape_5x8, 2, five, 5 * 8 * 4, &too_big));
    CHECK_STATUS(ember_method_set_input(forward, 0, too_big), EMBER_ERROR_INVALID_ARGUMENT);
    CHECK(contains(ember_last_error(), "the method takes 4"));
    ember_tensor_destroy(too_big);
    free(five);
  }
  {
    int64_t bad[2] = {2, 4};
    ember_tensor* int_shaped = NULL;
    CHECK_OK(ember_tensor_create(EMBER_DTYPE_INT64, bad, 2, ints, 2 * 4 * 8, &int_shaped));
    CHECK_STATUS(ember_method_set_input(forward, 0, int_shaped), EMBER_ERROR_INVALID_TYPE);
    ember_tensor_destroy(int_shaped);
  }
  CHECK_STATUS(ember_method_set_input(forward, 0, wrong_dtype), EMBER_ERROR_INVALID_TYPE);
  CHECK(contains(ember_last_error(), "Float"));
  CHECK_STATUS(ember_method_set_input(forward, 0, wrong_rank), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_set_input(forward, 0, wrong_dim), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_set_input(forward, 1, wrong_dim), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_set_input(forward, 0, NULL), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_OK(ember_method_input_meta(forward, 0, &meta));
  CHECK_STATUS(ember_method_set_input(forward, 0, meta), EMBER_ERROR_INVALID_ARGUMENT);
  ember_tensor_destroy(wrong_dtype);
  ember_tensor_destroy(wrong_rank);
  ember_tensor_destroy(wrong_dim);
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, shape_4x8, 2, input, sizeof(input), &x));
  CHECK_OK(ember_method_set_input(forward, 0, x));
  CHECK_OK(ember_method_execute(forward));
  CHECK_OK(ember_method_get_output(forward, 0, &out));
  CHECK_OK(ember_tensor_dims(out, dims, 2));
  CHECK(dims[0] == 4 && dims[1] == out_bound[1]);
  ember_tensor_destroy((ember_tensor*)out); /* the method's: nothing happens */
  CHECK_OK(ember_tensor_rank(out, &n));
  CHECK(n == 2);
  CHECK_STATUS(ember_method_get_output(forward, 1, &out), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_get_output_int(forward, 0, &value), EMBER_ERROR_INVALID_TYPE);
  ember_tensor_destroy(x);
  run_forward(program);

  /* An int64 method (triple) with a dynamic length: within its bound, then
   * past it, then checked exactly. */
  triple_input = read_file("triple_input.bin", &triple_size);
  triple_want = read_file("triple_expected.bin", &triple_want_size);
  manifest_ints("triple_shape", triple_shape, 1);
  manifest_ints("triple_bound", bound, 1);
  CHECK_OK(ember_program_get_method(program, "triple", &triple));
  CHECK_OK(ember_method_input_meta(triple, 0, &meta));
  CHECK_OK(ember_tensor_dims(meta, dims, 1));
  CHECK(dims[0] == bound[0]); /* the dynamic length at its bound */
  {
    uint32_t dynamic = 0;
    CHECK_OK(ember_method_input_dynamic_dims(triple, 0, &dynamic));
    CHECK(dynamic == 1u); /* dim 0 */
    CHECK_OK(ember_method_input_dynamic_dims(forward, 0, &dynamic));
    CHECK(dynamic == 0u); /* a static shape */
    CHECK_STATUS(ember_method_input_dynamic_dims(triple, 1, &dynamic), EMBER_ERROR_INVALID_ARGUMENT);
    CHECK_STATUS(ember_method_input_dynamic_dims(NULL, 0, &dynamic), EMBER_ERROR_INVALID_ARGUMENT);
  }
  {
    const int64_t two[1] = {2}, nine[1] = {9};
    CHECK_OK(ember_tensor_create(EMBER_DTYPE_INT64, two, 1, ints, 2 * 8, &x));
    CHECK_OK(ember_method_set_input(triple, 0, x));
    CHECK_OK(ember_method_execute(triple));
    CHECK_OK(ember_method_get_output(triple, 0, &out));
    CHECK_OK(ember_tensor_dims(out, dims, 1));
    CHECK(dims[0] == 2);
    ember_tensor_destroy(x);
    CHECK_OK(ember_tensor_create(EMBER_DTYPE_INT64, nine, 1, ints, 9 * 8, &x));
    CHECK_STATUS(ember_method_set_input(triple, 0, x), EMBER_ERROR_INVALID_ARGUMENT);
    CHECK(contains(ember_last_error(), "upper bound is 8"));
    ember_tensor_destroy(x);
  }
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_INT64, triple_shape, 1, triple_input, triple_size,
                               &triple_in));
  CHECK_OK(ember_method_set_input(triple, 0, triple_in));
  CHECK_OK(ember_method_execute(triple));
  CHECK_OK(ember_method_get_output(triple, 0, &out));
  CHECK_OK(ember_tensor_dtype(out, &dtype));
  CHECK(dtype == EMBER_DTYPE_INT64);
  CHECK(triple_want_size <= sizeof(triple_got));
  CHECK_OK(ember_tensor_copy_to(out, triple_got, sizeof(triple_got)));
  CHECK(memcmp(triple_got, triple_want, triple_want_size) == 0);
  ember_tensor_destroy(triple_in);
  free(triple_input);
  free(triple_want);
  CHECK_OK(ember_program_reset_state(program));

  /* Null handles. */
  CHECK_STATUS(ember_program_num_methods(NULL, &n), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_program_num_threads(NULL, &n), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_program_reset_state(NULL), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_num_inputs(NULL, &n), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_num_outputs(forward, NULL), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_execute(NULL), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_memory_bytes(NULL, &memory), EMBER_ERROR_INVALID_ARGUMENT);
  ember_program_destroy(program);
  ember_program_destroy(NULL);

  /* From a buffer: copied (the caller's bytes may go at once), or borrowed. */
  pte = read_file("mlp.pte", &pte_size);
  CHECK_OK(ember_program_load_buffer(pte, pte_size, NULL, &program));
  memset(pte, 0, pte_size);
  run_forward(program);
  ember_program_destroy(program);
  free(pte);
  pte = read_file("mlp.pte", &pte_size);
  options.struct_size = sizeof(options);
  ember_load_options_init(&options);
  options.flags = EMBER_LOAD_BORROW_BUFFER;
  CHECK_OK(ember_program_load_buffer(pte, pte_size, &options, &program));
  run_forward(program);
  ember_program_destroy(program);
  CHECK_STATUS(ember_program_load_buffer(pte, pte_size / 2, NULL, &program),
               EMBER_ERROR_INVALID_PROGRAM);
  CHECK_STATUS(ember_program_load_buffer(NULL, 10, NULL, &program), EMBER_ERROR_INVALID_ARGUMENT);
  free(pte);

  /* Read rather than mapped; and the limits. */
  ember_load_options_init(&options);
  options.flags = EMBER_LOAD_NO_MMAP;
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &options, &program));
  run_forward(program);
  ember_program_destroy(program);
  ember_load_options_init(&options);
  options.max_memory_bytes = 64;
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &options, &program));
  CHECK_STATUS(ember_program_get_method(program, "forward", &forward),
               EMBER_ERROR_MEMORY_ALLOCATION_FAILED);
  CHECK(contains(ember_last_error(), "limit"));
  ember_program_destroy(program);
  ember_load_options_init(&options);
  options.max_memory_bytes = 64u << 20;
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &options, &program));
  run_forward(program);
  CHECK_OK(ember_program_get_method(program, "forward", &forward));
  CHECK_OK(ember_method_memory_bytes(forward, &memory));
  CHECK(memory > 0 && memory <= options.max_memory_bytes);
  ember_program_destroy(program);
  ember_load_options_init(&options);
  options.max_instructions = 1;
  CHECK_OK(ember_program_load_file(path_of("mlp.pte"), &options, &program));
  CHECK_OK(ember_program_get_method(program, "forward", &forward));
  CHECK_OK(ember_tensor_create(EMBER_DTYPE_FLOAT32, shape_4x8, 2, input, sizeof(input), &x));
  CHECK_OK(ember_method_set_input(forward, 0, x));
  CHECK(ember_method_execute(forward) != EMBER_OK);
  CHECK(contains(ember_last_error(), "instruction"));
  ember_tensor_destroy(x);
  ember_program_destroy(program);
}

/* ---- LLM generation ---- */

typedef struct {
  int32_t tokens[256];
  size_t num_tokens;
  char text[4096];
  size_t text_size;
  int saw_null_text;
  int stop_after; /* 0: never */
} Collected;

static int32_t collect(void* user_data, int32_t token, const char* text, size_t text_size) {
  Collected* c = (Collected*)user_data;
  if (token >= 0 && c->num_tokens < 256) c->tokens[c->num_tokens++] = token;
  if (text == NULL) c->saw_null_text = 1;
  if (text != NULL && c->text_size + text_size < sizeof(c->text)) {
    memcpy(c->text + c->text_size, text, text_size);
    c->text_size += text_size;
  }
  return c->stop_after > 0 && (int)c->num_tokens >= c->stop_after;
}

static int same_tokens(const Collected* c, const char* key) {
  int64_t want[256];
  size_t n = manifest_ints(key, want, 256), i;
  if (n != c->num_tokens) {
    fprintf(stderr, "  %s: %zu tokens, expected %zu\n", key, c->num_tokens, n);
    return 0;
  }
  for (i = 0; i < n; ++i) {
    if (c->tokens[i] != want[i]) {
      fprintf(stderr, "  %s: token %zu is %d, expected %lld\n", key, i, c->tokens[i],
              (long long)want[i]);
      return 0;
    }
  }
  return 1;
}

static int same_text(const Collected* c, const char* file) {
  size_t size;
  char* want = read_file(file, &size);
  int same = size == c->text_size && memcmp(want, c->text, size) == 0;
  if (!same) fprintf(stderr, "  %s: the text differs (%zu bytes, expected %zu)\n", file, c->text_size, size);
  free(want);
  return same;
}

static void test_llm(void) {
  ember_llm* llm = NULL;
  ember_llm* bare = NULL;
  ember_llm* other = NULL;
  ember_program* program = NULL;
  ember_method* vocab_method = NULL;
  const ember_tensor* meta = NULL;
  const ember_tensor* out = NULL;
  ember_load_options load = EMBER_LOAD_OPTIONS_INIT;
  ember_generate_options options = EMBER_GENERATE_OPTIONS_INIT;
  ember_generate_stats stats = EMBER_GENERATE_STATS_INIT;
  Collected c;
  int64_t prompt64[64], value = 0, steps = manifest_int("steps");
  int32_t prompt[64], too_long[512], outside[2];
  size_t prompt_size = manifest_ints("tokens_prompt", prompt64, 64), i;
  char message[64], text_prompt[64], program_path[4096];
  size_t size;
  char* raw;
  struct {
    ember_generate_options o;
    uint64_t extra;
  } newer;
  struct {
    ember_generate_stats s;
    uint32_t guard;
  } old_stats;

  for (i = 0; i < prompt_size; ++i) prompt[i] = (int32_t)prompt64[i];
  raw = read_file("text_prompt.txt", &size);
  snprintf(text_prompt, sizeof(text_prompt), "%.*s", (int)size, raw);
  free(raw);
  raw = read_file("chat_message.txt", &size);
  snprintf(message, sizeof(message), "%.*s", (int)size, raw);
  free(raw);
  snprintf(program_path, sizeof(program_path), "%s", path_of("llm.pte"));
  options.max_new_tokens = (int32_t)steps;

  load.num_threads = 2;
  CHECK_OK(ember_llm_load(program_path, NULL, &load, &llm)); /* llm.tokenizer beside it */
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_VOCAB_SIZE, &value));
  CHECK(value == manifest_int("llm_vocab"));
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_MAX_CONTEXT, &value));
  CHECK(value == manifest_int("llm_max_context"));
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_MAX_PREFILL, &value));
  CHECK(value == manifest_int("llm_max_prefill"));
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_BOS_ID, &value));
  CHECK(value == manifest_int("llm_bos"));
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_EOS_ID, &value));
  CHECK(value == manifest_int("llm_eos"));
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_POSITION, &value));
  CHECK(value == 0);
  CHECK_STATUS(ember_llm_get(llm, 99, &value), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_get(NULL, EMBER_LLM_POSITION, &value), EMBER_ERROR_INVALID_ARGUMENT);

  /* Greedy on token ids against eager PyTorch, with the text of each token. */
  memset(&c, 0, sizeof(c));
  CHECK_OK(ember_llm_generate_tokens(llm, prompt, prompt_size, &options, collect, &c, &stats));
  CHECK(same_tokens(&c, "tokens_expected"));
  CHECK(same_text(&c, "tokens_expected_text.txt"));
  CHECK(!c.saw_null_text);
  CHECK(stats.prompt_tokens == (int64_t)prompt_size);
  CHECK(stats.generated_tokens == (int64_t)c.num_tokens);
  CHECK(stats.stop_reason == EMBER_STOP_END_OF_SEQUENCE); /* the program's eos is the 3rd token */
  CHECK(stats.prefill_ms >= 0 && stats.first_token_ms >= stats.prefill_ms && stats.decode_ms >= 0);
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_POSITION, &value));
  /* The last token sampled is not run: the next call starts with it. */
  CHECK(value == (int64_t)(prompt_size + c.num_tokens - 1));

  /* Past the end of sequence: eager's tokens, all of them. */
  CHECK_OK(ember_llm_reset(llm));
  memset(&c, 0, sizeof(c));
  options.flags = EMBER_GENERATE_IGNORE_EOS;
  CHECK_OK(ember_llm_generate_tokens(llm, prompt, prompt_size, &options, collect, &c, &stats));
  CHECK(same_tokens(&c, "tokens_expected_all"));
  CHECK(stats.stop_reason == EMBER_STOP_MAX_TOKENS && stats.generated_tokens == steps);
  options.flags = 0;

  /* The same after a reset; a callback that stops after two tokens. */
  CHECK_OK(ember_llm_reset(llm));
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_POSITION, &value));
  CHECK(value == 0);
  memset(&c, 0, sizeof(c));
  c.stop_after = 2;
  CHECK_OK(ember_llm_generate_tokens(llm, prompt, prompt_size, &options, collect, &c, &stats));
  CHECK(c.num_tokens == 2 && stats.generated_tokens == 2);
  CHECK(stats.stop_reason == EMBER_STOP_CALLBACK);
  {
    int64_t want[256];
    manifest_ints("tokens_expected", want, 256);
    CHECK(c.tokens[0] == want[0] && c.tokens[1] == want[1]);
  }

  /* Text: a completion, then a chat turn, each from an empty context. */
  CHECK_OK(ember_llm_reset(llm));
  memset(&c, 0, sizeof(c));
  CHECK_OK(ember_llm_generate(llm, text_prompt, &options, collect, &c, NULL));
  CHECK(same_tokens(&c, "text_expected"));
  CHECK(same_text(&c, "text_expected_text.txt"));
  CHECK_OK(ember_llm_reset(llm));
  memset(&c, 0, sizeof(c));
  CHECK_OK(ember_llm_chat(llm, message, NULL, &options, collect, &c, &stats));
  CHECK(same_tokens(&c, "chat_expected"));
  CHECK(stats.prompt_tokens == manifest_int("chat_prompt_tokens"));
  CHECK_OK(ember_llm_chat(llm, message, NULL, &options, NULL, NULL, NULL)); /* a second turn */
  CHECK_OK(ember_llm_get(llm, EMBER_LLM_POSITION, &value));
  CHECK(value > stats.prompt_tokens + stats.generated_tokens);

  /* Sampling: every option reaches the sampler (the Python runner's tokens). */
  CHECK_OK(ember_llm_reset(llm));
  memset(&c, 0, sizeof(c));
  options.temperature = 0.8f;
  options.top_k = 20;
  options.top_p = 0.9f;
  options.repetition_penalty = 1.1f;
  options.seed = 7;
  CHECK_OK(ember_llm_generate_tokens(llm, prompt, prompt_size, &options, collect, &c, NULL));
  CHECK(same_tokens(&c, "sampled_expected"));
  ember_generate_options_init(&options);
  options.max_new_tokens = (int32_t)steps;

  /* Options and statistics across header versions. */
  CHECK_OK(ember_llm_reset(llm));
  memset(&newer, 0, sizeof(newer));
  ember_generate_options_init(&newer.o);
  newer.o.struct_size = sizeof(newer);
  newer.o.max_new_tokens = 2;
  newer.extra = 1;
  CHECK_STATUS(ember_llm_generate_tokens(llm, prompt, prompt_size, &newer.o, NULL, NULL, NULL),
               EMBER_ERROR_NOT_SUPPORTED);
  newer.extra = 0;
  memset(&old_stats, 0, sizeof(old_stats));
  old_stats.s.struct_size = 16; /* an older header's: struct_size, stop_reason, prompt_tokens */
  old_stats.s.generated_tokens = -5;
  old_stats.guard = 0xfeedu;
  CHECK_OK(ember_llm_generate_tokens(llm, prompt, prompt_size, &newer.o, NULL, NULL, &old_stats.s));
  CHECK(old_stats.s.struct_size == 16 && old_stats.s.prompt_tokens == (int64_t)prompt_size);
  CHECK(old_stats.s.generated_tokens == -5 && old_stats.guard == 0xfeedu); /* not written */
  old_stats.s.struct_size = 0;
  CHECK_STATUS(ember_llm_generate_tokens(llm, prompt, prompt_size, &newer.o, NULL, NULL, &old_stats.s),
               EMBER_ERROR_INVALID_ARGUMENT);
  options.struct_size = 2;
  CHECK_STATUS(ember_llm_generate(llm, text_prompt, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  ember_generate_options_init(&options);
  options.flags = 1u << 9;
  CHECK_STATUS(ember_llm_generate(llm, text_prompt, &options, NULL, NULL, NULL),
               EMBER_ERROR_NOT_SUPPORTED);

  /* Refusals: settings out of range, prompts that do not fit, nulls. */
  ember_generate_options_init(&options);
  options.top_p = 0.0f;
  options.temperature = 1.0f;
  CHECK_STATUS(ember_llm_generate_tokens(llm, prompt, prompt_size, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  ember_generate_options_init(&options);
  options.max_new_tokens = -1;
  CHECK_STATUS(ember_llm_generate(llm, text_prompt, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  ember_generate_options_init(&options);
  options.max_new_tokens = 2;
  CHECK_OK(ember_llm_reset(llm));
  for (i = 0; i < sizeof(too_long) / sizeof(too_long[0]); ++i) too_long[i] = 5;
  CHECK_STATUS(ember_llm_generate_tokens(llm, too_long, 512, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  outside[0] = 5;
  outside[1] = 1 << 20;
  CHECK_STATUS(ember_llm_generate_tokens(llm, outside, 2, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK(contains(ember_last_error(), "outside the vocabulary"));
  CHECK_STATUS(ember_llm_generate_tokens(llm, prompt, 0, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_generate_tokens(llm, NULL, 3, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_generate(NULL, text_prompt, NULL, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_generate(llm, NULL, NULL, NULL, NULL, NULL), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_chat(llm, NULL, NULL, NULL, NULL, NULL, NULL), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_chat(NULL, message, NULL, NULL, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_reset(NULL), EMBER_ERROR_INVALID_ARGUMENT);
  ember_llm_destroy(llm);
  ember_llm_destroy(NULL);

  /* Without a tokenizer: token ids only, no text. */
  CHECK_OK(ember_llm_load(program_path, "", NULL, &bare));
  memset(&c, 0, sizeof(c));
  ember_generate_options_init(&options);
  options.max_new_tokens = (int32_t)steps;
  CHECK_OK(ember_llm_generate_tokens(bare, prompt, prompt_size, &options, collect, &c, &stats));
  CHECK(same_tokens(&c, "tokens_expected"));
  CHECK(c.saw_null_text && c.text_size == 0);
  CHECK_OK(ember_llm_reset(bare));
  CHECK_STATUS(ember_llm_generate(bare, text_prompt, &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_STATE);
  CHECK(contains(ember_last_error(), "without a tokenizer"));
  CHECK_STATUS(ember_llm_chat(bare, message, "Be brief.", &options, NULL, NULL, NULL),
               EMBER_ERROR_INVALID_STATE);
  ember_llm_destroy(bare);

  /* Loading refusals: not an LLM program, a missing tokenizer, bad options. */
  CHECK_STATUS(ember_llm_load(path_of("mlp.pte"), "", NULL, &other), EMBER_ERROR_INVALID_PROGRAM);
  CHECK(contains(ember_last_error(), "get_max_context_len"));
  CHECK(ember_llm_load(program_path, path_of("no_such.tokenizer"), NULL, &other) != EMBER_OK);
  CHECK(contains(ember_last_error(), "no_such.tokenizer"));
  CHECK_STATUS(ember_llm_load(NULL, NULL, NULL, &other), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_llm_load(program_path, NULL, NULL, NULL), EMBER_ERROR_INVALID_ARGUMENT);
  ember_load_options_init(&load);
  load.reserved = 3;
  CHECK_STATUS(ember_llm_load(program_path, NULL, &load, &other), EMBER_ERROR_NOT_SUPPORTED);
  CHECK(other == NULL);

  /* The LLM program through the program API: constant methods return ints. */
  CHECK_OK(ember_program_load_file(program_path, NULL, &program));
  CHECK_OK(ember_program_get_method(program, "get_vocab_size", &vocab_method));
  CHECK_STATUS(ember_method_get_output_int(vocab_method, 0, &value), EMBER_ERROR_INVALID_STATE);
  CHECK_OK(ember_method_execute(vocab_method));
  CHECK_OK(ember_method_get_output_int(vocab_method, 0, &value));
  CHECK(value == manifest_int("llm_vocab"));
  CHECK_STATUS(ember_method_get_output_int(vocab_method, 1, &value), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_STATUS(ember_method_get_output(vocab_method, 0, &out), EMBER_ERROR_INVALID_TYPE);
  CHECK_STATUS(ember_method_output_meta(vocab_method, 0, &meta), EMBER_ERROR_INVALID_TYPE);
  CHECK_STATUS(ember_method_get_output_int(NULL, 0, &value), EMBER_ERROR_INVALID_ARGUMENT);
  CHECK_OK(ember_program_reset_state(program)); /* the KV caches */
  ember_program_destroy(program);
}

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: c_api_test DATA_DIR\n");
    return 2;
  }
  g_dir = argv[1];
  test_library();
  test_tensors();
  test_program();
  test_llm();
  printf("c_api_test: %d checks, %d failed (libember %s, ABI %u.%u)\n", g_checks, g_failures,
         ember_version(), ember_abi_version() >> 16, ember_abi_version() & 0xffffu);
  return g_failures == 0 ? 0 : 1;
}
