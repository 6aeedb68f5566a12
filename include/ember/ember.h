/* Ember's C ABI (libember.so): load a .pte, run its methods on tensors the
 * caller owns, generate text with an LLM program. It is the stable boundary
 * for other languages (JavaScript, Java, Rust, Python's ctypes...) and for
 * applications that update the library without rebuilding; C++ applications
 * may prefer the Module API (extension/module/module.h).
 *
 * Conventions
 * - Every fallible function returns an ember_status: EMBER_OK (0) or an
 *   error code. ember_last_error() then says why, in one line; it is per
 *   thread, so threads never read each other's messages.
 * - Out-parameters are written only on success.
 * - Handles are opaque. Destroying NULL does nothing; every other NULL handle
 *   or pointer argument is an EMBER_ERROR_INVALID_ARGUMENT, never a crash.
 * - A handle is used by one thread at a time. Different programs, and
 *   different methods of one program, may run on different threads at once
 *   (methods that share mutable buffers, such as KV caches, take turns: a
 *   second one meanwhile is refused with EMBER_ERROR_INVALID_STATE).
 * - Tensor memory belongs to the caller: ember_tensor_create wraps it and
 *   never copies or frees it. Outputs are views of the method's own memory,
 *   valid until the method executes again or its program is destroyed; copy
 *   them out with ember_tensor_copy_to to keep them.
 * - Nothing here throws, aborts or calls exit(); a malformed .pte is an
 *   error code like any other bad input.
 *
 * Versioning: plain functions plus size-prefixed structs (not a table)
 * - The ABI is EMBER_ABI_VERSION_MAJOR.EMBER_ABI_VERSION_MINOR. Within one
 *   major, released functions keep their name, signature and meaning; a
 *   minor adds functions, struct fields at the end and enum values. The
 *   library's symbols carry the ELF version node EMBER_1 and it is
 *   libember.so.1; the exported list is kept in extension/c_api/ember.symbols
 *   and checked by the tests.
 * - Every struct crossing the boundary starts with `uint32_t struct_size`,
 *   which the caller sets with the struct's *_INIT macro or *_init()
 *   function. A library newer than the caller's header reads only the
 *   fields the caller's struct_size covers and uses the defaults for the
 *   rest. A library older than the header accepts the longer struct when the
 *   fields it does not know hold their zero defaults, and otherwise refuses
 *   the call with EMBER_ERROR_NOT_SUPPORTED naming the field, instead of
 *   silently ignoring a setting. Structs the library fills (statistics) are
 *   written up to the smaller of the two sizes.
 * - ember_abi_version() tells an application at run time which minor it
 *   runs against, before it calls a function that came later (through
 *   dlsym).
 * Why not ONNX Runtime's single entry point returning a versioned table of
 * function pointers: every foreign-function interface (ctypes, JNI,
 * Emscripten, Java's FFM, Rust's bindgen) binds named symbols directly, while
 * a table must be re-declared field by field in each binding; symbol
 * versioning and ember_abi_version() give the same guarantees.
 */
#ifndef EMBER_EMBER_H_
#define EMBER_EMBER_H_

#include <stddef.h>
#include <stdint.h>

#if defined(_WIN32) && defined(EMBER_C_API_BUILD)
#define EMBER_API __declspec(dllexport)
#elif defined(_WIN32)
#define EMBER_API __declspec(dllimport)
#elif defined(__GNUC__)
#define EMBER_API __attribute__((visibility("default")))
#else
#define EMBER_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define EMBER_ABI_VERSION_MAJOR 1
#define EMBER_ABI_VERSION_MINOR 1

/* ---- status codes (the runtime's ember::Error values, plus the ABI's own) ---- */
typedef int32_t ember_status;
enum {
  EMBER_OK = 0,
  EMBER_ERROR_INTERNAL = 0x01,
  EMBER_ERROR_INVALID_STATE = 0x02, /* wrong order of calls, or busy on another thread */
  EMBER_ERROR_NOT_SUPPORTED = 0x10,
  EMBER_ERROR_NOT_IMPLEMENTED = 0x11,
  EMBER_ERROR_INVALID_ARGUMENT = 0x12, /* NULL, out of range, wrong shape */
  EMBER_ERROR_INVALID_TYPE = 0x13,     /* wrong dtype or value kind */
  EMBER_ERROR_OPERATOR_MISSING = 0x14, /* the program needs a kernel this build lacks */
  EMBER_ERROR_NOT_FOUND = 0x20,        /* no such method */
  EMBER_ERROR_MEMORY_ALLOCATION_FAILED = 0x21, /* out of memory, or over max_memory_bytes */
  EMBER_ERROR_ACCESS_FAILED = 0x22,            /* cannot read the file */
  EMBER_ERROR_INVALID_PROGRAM = 0x23,          /* a malformed .pte */
  EMBER_ERROR_DELEGATE_INVALID_COMPATIBILITY = 0x30,
  EMBER_ERROR_DELEGATE_MEMORY_ALLOCATION_FAILED = 0x31,
  EMBER_ERROR_DELEGATE_INVALID_HANDLE = 0x32,
  EMBER_ERROR_BUFFER_TOO_SMALL = 0x40 /* a caller's buffer cannot hold the result */
};

/* ---- element types, numbered as in the .pte and in PyTorch ---- */
typedef int32_t ember_dtype;
enum {
  EMBER_DTYPE_UINT8 = 0,
  EMBER_DTYPE_INT8 = 1,
  EMBER_DTYPE_INT16 = 2,
  EMBER_DTYPE_INT32 = 3,
  EMBER_DTYPE_INT64 = 4,
  EMBER_DTYPE_FLOAT16 = 5,
  EMBER_DTYPE_FLOAT32 = 6,
  EMBER_DTYPE_FLOAT64 = 7,
  EMBER_DTYPE_BOOL = 11,
  EMBER_DTYPE_BFLOAT16 = 15
};

/* The most dims a tensor has. */
#define EMBER_MAX_RANK 16

typedef struct ember_program ember_program; /* a loaded, verified .pte */
typedef struct ember_method ember_method;   /* one method of a program; owned by it */
typedef struct ember_tensor ember_tensor;   /* dtype, shape and a data pointer */
typedef struct ember_llm ember_llm;         /* an LLM program with its tokenizer */

/* ---- library ---- */

/* (major << 16) | minor of the library actually loaded. */
EMBER_API uint32_t ember_abi_version(void);
/* The Ember release, e.g. "0.1.0". */
EMBER_API const char* ember_version(void);
/* Why the last failing call on this thread failed ("" if none did yet). Valid
 * until the next failing call on this thread. */
EMBER_API const char* ember_last_error(void);
/* A status's name, e.g. "InvalidArgument" ("Unknown" for other values). */
EMBER_API const char* ember_status_name(ember_status status);
/* Bytes per element; 0 for a value that is no dtype. */
EMBER_API size_t ember_dtype_size(ember_dtype dtype);

enum { EMBER_LOG_DEBUG = 0, EMBER_LOG_INFO = 1, EMBER_LOG_ERROR = 2, EMBER_LOG_NONE = 3 };
/* The least severe log messages written to stderr (EMBER_LOG_INFO at start);
 * EMBER_LOG_NONE leaves only ember_last_error(). Process-wide. */
EMBER_API ember_status ember_set_log_level(int32_t level);

/* ---- load options ---- */
enum {
  EMBER_LOAD_NO_MMAP = 1u << 0,       /* read the file into memory rather than map it */
  EMBER_LOAD_BORROW_BUFFER = 1u << 1  /* load_buffer: use the caller's bytes in place (they
                                         must outlive the program, and be 64-byte aligned:
                                         delegates read constants in place and refuse a
                                         misaligned blob) rather than a copy */
};
typedef struct ember_load_options {
  uint32_t struct_size;      /* sizeof(ember_load_options) */
  uint32_t num_threads;      /* threads kernels use, the caller's included; 0: one per core */
  uint64_t max_memory_bytes; /* most memory a method may take (arenas, tables, delegate
                                temp memory); checked before allocating; 0: no limit */
  uint64_t max_instructions; /* most instructions one execute may run; 0: no limit */
  uint32_t flags;            /* EMBER_LOAD_* */
  uint32_t reserved;         /* 0 */
} ember_load_options;
#define EMBER_LOAD_OPTIONS_INIT {sizeof(ember_load_options), 0, 0, 0, 0, 0}
/* Sets *options to the defaults (what EMBER_LOAD_OPTIONS_INIT gives). */
EMBER_API void ember_load_options_init(ember_load_options* options);

/* ---- tensors ---- */

/* Wraps `data` (`data_size` bytes, row-major, which must be exactly the
 * tensor's size) without copying; the memory must outlive every use of the
 * tensor. Inputs are read from it when the method executes. */
EMBER_API ember_status ember_tensor_create(ember_dtype dtype, const int64_t* dims, size_t rank,
                                           void* data, size_t data_size, ember_tensor** out);
/* Destroys a tensor from ember_tensor_create (not its memory). Tensors the
 * library hands out (outputs, metadata) belong to it: destroying one does
 * nothing. */
EMBER_API void ember_tensor_destroy(ember_tensor* tensor);
EMBER_API ember_status ember_tensor_dtype(const ember_tensor* tensor, ember_dtype* out);
EMBER_API ember_status ember_tensor_rank(const ember_tensor* tensor, size_t* out);
/* Writes the rank's dims into `dims` (EMBER_ERROR_BUFFER_TOO_SMALL when
 * `capacity` is less than the rank). */
EMBER_API ember_status ember_tensor_dims(const ember_tensor* tensor, int64_t* dims,
                                         size_t capacity);
/* The data's size in bytes (elements times the dtype's size). */
EMBER_API ember_status ember_tensor_size(const ember_tensor* tensor, size_t* out);
/* The data pointer (NULL for a method's metadata tensors, which have none).
 * An output the program keeps in another dim order (channels-last) is laid
 * out that way there; ember_tensor_copy_to always writes row-major. */
EMBER_API ember_status ember_tensor_data(const ember_tensor* tensor, const void** out);
/* Copies the data, row-major, into `dst`, which holds `dst_size` bytes, at
 * least the tensor's size. */
EMBER_API ember_status ember_tensor_copy_to(const ember_tensor* tensor, void* dst,
                                            size_t dst_size);

/* ---- programs ---- */

/* Loads and verifies a .pte. `options` may be NULL (the defaults). */
EMBER_API ember_status ember_program_load_file(const char* path, const ember_load_options* options,
                                               ember_program** out);
/* The same from bytes in memory, copied unless EMBER_LOAD_BORROW_BUFFER. */
EMBER_API ember_status ember_program_load_buffer(const void* data, size_t size,
                                                 const ember_load_options* options,
                                                 ember_program** out);
/* Destroys the program, its methods and their output tensors. */
EMBER_API void ember_program_destroy(ember_program* program);
EMBER_API ember_status ember_program_num_methods(const ember_program* program, size_t* out);
/* The name of method `index`; valid as long as the program. */
EMBER_API ember_status ember_program_method_name(const ember_program* program, size_t index,
                                                 const char** out);
/* Loads the named method (once: later calls return the same handle), with
 * its planned memory, kernels and delegates. EMBER_ERROR_NOT_FOUND for a
 * name the program lacks. The method belongs to the program. */
EMBER_API ember_status ember_program_get_method(ember_program* program, const char* name,
                                                ember_method** out);
/* Mutable buffers (KV caches) of every loaded method back to their initial
 * data. */
EMBER_API ember_status ember_program_reset_state(ember_program* program);
/* Threads the program's kernels run on (from ember_load_options). */
EMBER_API ember_status ember_program_num_threads(const ember_program* program, size_t* out);

/* ---- methods ---- */

EMBER_API ember_status ember_method_num_inputs(const ember_method* method, size_t* out);
EMBER_API ember_status ember_method_num_outputs(const ember_method* method, size_t* out);
/* The input's name in the model's forward ("" when the program does not say). */
EMBER_API ember_status ember_method_input_name(const ember_method* method, size_t index,
                                               const char** out);
/* What input or output `index` is: a tensor with the dtype and the largest
 * shape (dims of dynamic shapes at their upper bound) and no data, owned by
 * the method. EMBER_ERROR_INVALID_TYPE for a value that is not a tensor. */
EMBER_API ember_status ember_method_input_meta(const ember_method* method, size_t index,
                                               const ember_tensor** out);
EMBER_API ember_status ember_method_output_meta(const ember_method* method, size_t index,
                                                const ember_tensor** out);
/* Binds input `index` to `tensor` for the following executes: its dtype and
 * shape are checked against the method's and kept (the handle may be
 * destroyed), its data is read by each execute (the memory must stay
 * alive until the last execute that uses it). */
EMBER_API ember_status ember_method_set_input(ember_method* method, size_t index,
                                              const ember_tensor* tensor);
/* Runs the method on the bound inputs (all must be bound). */
EMBER_API ember_status ember_method_execute(ember_method* method);
/* Output `index` of the last execute: a view of the method's memory, valid
 * until the next execute. EMBER_ERROR_INVALID_STATE before the first
 * execute, EMBER_ERROR_INVALID_TYPE for an output that is not a tensor. */
EMBER_API ember_status ember_method_get_output(const ember_method* method, size_t index,
                                               const ember_tensor** out);
/* Output `index` of the last execute when it is an integer or a bool (the
 * constant methods of LLM programs return them). */
EMBER_API ember_status ember_method_get_output_int(const ember_method* method, size_t index,
                                                   int64_t* out);
/* Bytes the loaded method took: its arenas, tables and delegate temp memory
 * (what max_memory_bytes bounds). */
EMBER_API ember_status ember_method_memory_bytes(const ember_method* method, size_t* out);

/* ABI 1.1: which dims of input `index` are dynamic: bit d is set when dim d
 * may be any size up to the one ember_method_input_meta gives (0: a static
 * shape). EMBER_ERROR_INVALID_TYPE for a value that is not a tensor. */
EMBER_API ember_status ember_method_input_dynamic_dims(const ember_method* method, size_t index,
                                                       uint32_t* out);

/* ---- LLM generation (programs from `ember llm export`) ---- */

/* Loads the program and its tokenizer: `tokenizer_path` NULL takes the one
 * beside the program (model.pte -> model.tokenizer); "" loads none, and
 * then only ember_llm_generate_tokens works, passing no text. */
EMBER_API ember_status ember_llm_load(const char* program_path, const char* tokenizer_path,
                                      const ember_load_options* options, ember_llm** out);
EMBER_API void ember_llm_destroy(ember_llm* llm);

enum {
  EMBER_LLM_VOCAB_SIZE = 0,
  EMBER_LLM_MAX_CONTEXT = 1, /* the KV caches' capacity, in tokens */
  EMBER_LLM_MAX_PREFILL = 2, /* most tokens one forward call takes */
  EMBER_LLM_BOS_ID = 3,      /* -1: none */
  EMBER_LLM_EOS_ID = 4,
  EMBER_LLM_POSITION = 5 /* tokens in the caches now */
};
/* One of the EMBER_LLM_* values. */
EMBER_API ember_status ember_llm_get(const ember_llm* llm, int32_t key, int64_t* out);

enum { EMBER_GENERATE_IGNORE_EOS = 1u << 0 /* run past end-of-sequence (benchmarks) */ };
typedef struct ember_generate_options {
  uint32_t struct_size;     /* sizeof(ember_generate_options) */
  int32_t max_new_tokens;   /* 128 */
  float temperature;        /* <= 0: greedy (the default) */
  int32_t top_k;            /* keep the k most likely tokens; 0: all */
  float top_p;              /* keep the fewest tokens whose mass reaches p; 1: all */
  float repetition_penalty; /* > 1 discourages tokens already seen; 1: none */
  uint64_t seed;            /* the same seed, model and prompt give the same tokens */
  uint32_t flags;           /* EMBER_GENERATE_* */
  uint32_t reserved;        /* 0 */
} ember_generate_options;
#define EMBER_GENERATE_OPTIONS_INIT {sizeof(ember_generate_options), 128, 0.0f, 0, 1.0f, 1.0f, 0, 0, 0}
EMBER_API void ember_generate_options_init(ember_generate_options* options);

enum {
  EMBER_STOP_END_OF_SEQUENCE = 0,
  EMBER_STOP_MAX_TOKENS = 1,
  EMBER_STOP_CONTEXT_FULL = 2,
  EMBER_STOP_CALLBACK = 3 /* the token callback asked to stop */
};
typedef struct ember_generate_stats {
  uint32_t struct_size; /* sizeof(ember_generate_stats), set by the caller */
  int32_t stop_reason;  /* EMBER_STOP_* */
  int64_t prompt_tokens;
  int64_t generated_tokens;
  double prefill_ms;     /* the prompt's forward calls */
  double first_token_ms; /* from the start to the first sampled token */
  double decode_ms;      /* every later token */
} ember_generate_stats;
#define EMBER_GENERATE_STATS_INIT {sizeof(ember_generate_stats), 0, 0, 0, 0.0, 0.0, 0.0}

/* Called with each generated token and the text it completes (whole UTF-8,
 * special tokens left out: possibly empty; NULL with a size of 0 when the
 * llm has no tokenizer). Text held back at the end (an unfinished character)
 * comes in a last call with token -1. Return 0 to go on, anything else to
 * stop. It must not call functions on the same ember_llm. */
typedef int32_t (*ember_token_callback)(void* user_data, int32_t token, const char* text,
                                        size_t text_size);

/* Continues `prompt` (UTF-8; the tokenizer's bos first when it adds one)
 * from the current position: the caches keep earlier calls' tokens until
 * ember_llm_reset. `options`, `callback` and `stats` may be NULL. */
EMBER_API ember_status ember_llm_generate(ember_llm* llm, const char* prompt,
                                          const ember_generate_options* options,
                                          ember_token_callback callback, void* user_data,
                                          ember_generate_stats* stats);
/* One chat turn: `message` as the user's (with `system`, which may be NULL,
 * before the first turn) in the model's chat template, then the reply. */
EMBER_API ember_status ember_llm_chat(ember_llm* llm, const char* message, const char* system,
                                      const ember_generate_options* options,
                                      ember_token_callback callback, void* user_data,
                                      ember_generate_stats* stats);
/* The same on token ids, with or without a tokenizer. */
EMBER_API ember_status ember_llm_generate_tokens(ember_llm* llm, const int32_t* prompt,
                                                 size_t prompt_size,
                                                 const ember_generate_options* options,
                                                 ember_token_callback callback, void* user_data,
                                                 ember_generate_stats* stats);
/* Empties the caches: a new conversation. */
EMBER_API ember_status ember_llm_reset(ember_llm* llm);

#ifdef __cplusplus
} /* extern "C" */
#endif

/* The layout rules: fixed offsets, no implicit padding. */
#if defined(__cplusplus)
#define EMBER_STATIC_ASSERT_(cond, msg) static_assert(cond, msg)
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
#define EMBER_STATIC_ASSERT_(cond, msg) _Static_assert(cond, msg)
#endif
#ifdef EMBER_STATIC_ASSERT_
EMBER_STATIC_ASSERT_(sizeof(ember_load_options) == 32, "ember_load_options layout");
EMBER_STATIC_ASSERT_(offsetof(ember_load_options, flags) == 24, "ember_load_options layout");
EMBER_STATIC_ASSERT_(sizeof(ember_generate_options) == 40, "ember_generate_options layout");
EMBER_STATIC_ASSERT_(offsetof(ember_generate_options, seed) == 24,
                     "ember_generate_options layout");
EMBER_STATIC_ASSERT_(sizeof(ember_generate_stats) == 48, "ember_generate_stats layout");
EMBER_STATIC_ASSERT_(offsetof(ember_generate_stats, prefill_ms) == 24,
                     "ember_generate_stats layout");
#undef EMBER_STATIC_ASSERT_
#endif

#endif /* EMBER_EMBER_H_ */
