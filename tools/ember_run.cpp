// ember_run: runs a .pte on random inputs or inputs from .npy files, prints the
// outputs and reports load, init and per-run latency.
//
//   ember_run model.pte [--input x.npy ...] [--runs N] [--warmup N] [--seed S]
//                       [--threads N] [--output-dir DIR] [--print N]
//                       [--max-memory BYTES] [--max-instructions N] [--verbose]
//                       [--profile OUT [--debug-info FILE]]
//
// Errors are one line on stderr; --verbose adds the runtime's own log.
// --profile traces the timed runs: OUT.trace.json (Chrome trace / Perfetto
// JSON) and OUT.profile.txt (time per operator, also printed). Nodes and
// source lines come from the exporter's debug info, model.pte.debug by default.
#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tools/ember_run.h"

#include "extension/devtools/debug_info.h"
#include "extension/devtools/devtools_tracer.h"
#include "extension/devtools/profile_report.h"
#include "extension/module/module.h"
#include "runtime/core/log.h"
#include "runtime/core/platform.h"
#include "tools/npy.h"

namespace ember {
namespace {

struct Options {
  std::string model;
  std::vector<std::string> inputs;
  std::string output_dir;
  int runs = 10;
  int warmup = 2;
  int print = 8;
  uint32_t seed = 0;
  int threads = 0;  // 0: one per available core
  // Limits for untrusted programs (ModuleOptions); 0: none.
  uint64_t max_memory = 0;
  uint64_t max_instructions = 0;
  bool verbose = false;
  std::string profile;     // output prefix, empty: no tracing
  std::string debug_info;  // default: model + ".debug" when it exists
};

// Events one run may record before the tracer drops (and counts) the rest.
constexpr size_t kProfileEventsPerRun = 1 << 16;

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "ember_run: %s\n", message.c_str());
  std::fprintf(stderr,
               "usage: ember_run model.pte [--input x.npy ...] [--runs N] [--warmup N] "
               "[--seed S] [--threads N] [--output-dir DIR] [--print N] [--max-memory BYTES] "
               "[--max-instructions N] [--verbose] [--profile OUT [--debug-info FILE]]\n");
  std::exit(2);
}

uint64_t parse_count(const char* flag, const char* text, uint64_t max) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || text[0] == '-' || errno == ERANGE || v > max) {
    usage_error(std::string(flag) + " needs an integer from 0 to " + std::to_string(max) +
                ", got '" + text + "'");
  }
  return v;
}

int parse_int(const char* flag, const char* text) {
  return static_cast<int>(parse_count(flag, text, INT32_MAX));
}

// BYTES with an optional K, M or G suffix (powers of 1024).
uint64_t parse_bytes(const char* flag, const char* text) {
  std::string digits = text;
  uint64_t scale = 1;
  if (!digits.empty()) {
    const char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(digits.back())));
    if (unit == 'K' || unit == 'M' || unit == 'G') {
      scale = unit == 'K' ? 1ull << 10 : unit == 'M' ? 1ull << 20 : 1ull << 30;
      digits.pop_back();
    }
  }
  return parse_count(flag, digits.c_str(), UINT64_MAX / scale) * scale;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> const char* {
      if (i + 1 >= argc) usage_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--input" || a == "-i") o.inputs.push_back(value());
    else if (a == "--runs") o.runs = std::max(1, parse_int("--runs", value()));
    else if (a == "--warmup") o.warmup = parse_int("--warmup", value());
    else if (a == "--seed") o.seed = static_cast<uint32_t>(parse_int("--seed", value()));
    else if (a == "--threads") o.threads = parse_int("--threads", value());
    else if (a == "--output-dir") o.output_dir = value();
    else if (a == "--print") o.print = parse_int("--print", value());
    else if (a == "--max-memory") o.max_memory = parse_bytes("--max-memory", value());
    else if (a == "--max-instructions") o.max_instructions = parse_count("--max-instructions", value(), UINT64_MAX);
    else if (a == "--verbose" || a == "-v") o.verbose = true;
    else if (a == "--profile") o.profile = value();
    else if (a == "--debug-info") o.debug_info = value();
    else if (a == "--help" || a == "-h") usage_error("help");
    else if (!a.empty() && a[0] == '-') usage_error("unknown option " + a);
    else if (o.model.empty()) o.model = a;
    else usage_error("unexpected argument " + a);
  }
  if (o.model.empty()) usage_error("no model given");
  return o;
}

// Owns the bytes and shape arrays behind an input tensor.
struct HostTensor {
  ScalarType dtype;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<int32_t> strides;
  std::vector<uint8_t> data;
  Tensor tensor;

  void bind() {
    dim_order.resize(sizes.size());
    strides.resize(sizes.size());
    for (size_t i = 0; i < sizes.size(); ++i) dim_order[i] = static_cast<uint8_t>(i);
    tensor = Tensor(dtype, static_cast<int>(sizes.size()), sizes.data(), dim_order.data(),
                    strides.data(), data.data(), data.size());
  }
};

void fill_random(HostTensor& t, std::mt19937& rng) {
  const size_t n = t.data.size() / element_size(t.dtype);
  std::normal_distribution<float> normal;
  std::uniform_int_distribution<int> small(0, 9);
  for (size_t i = 0; i < n; ++i) {
    switch (t.dtype) {
      case ScalarType::Float: reinterpret_cast<float*>(t.data.data())[i] = normal(rng); break;
      case ScalarType::Double: reinterpret_cast<double*>(t.data.data())[i] = normal(rng); break;
      case ScalarType::Half: reinterpret_cast<Half*>(t.data.data())[i] = Half(normal(rng)); break;
      case ScalarType::BFloat16: reinterpret_cast<BFloat16*>(t.data.data())[i] = BFloat16(normal(rng)); break;
      case ScalarType::Long: reinterpret_cast<int64_t*>(t.data.data())[i] = small(rng); break;
      case ScalarType::Int: reinterpret_cast<int32_t*>(t.data.data())[i] = small(rng); break;
      case ScalarType::Bool: t.data[i] = small(rng) & 1; break;
      default: t.data[i] = static_cast<uint8_t>(small(rng)); break;
    }
  }
}

double element_as_double(const Tensor& t, int64_t i) {
  const void* p = t.const_data_ptr();
  switch (t.scalar_type()) {
    case ScalarType::Float: return static_cast<const float*>(p)[i];
    case ScalarType::Double: return static_cast<const double*>(p)[i];
    case ScalarType::Half: return static_cast<const Half*>(p)[i];
    case ScalarType::BFloat16: return static_cast<const BFloat16*>(p)[i];
    case ScalarType::Long: return static_cast<double>(static_cast<const int64_t*>(p)[i]);
    case ScalarType::Int: return static_cast<const int32_t*>(p)[i];
    case ScalarType::Short: return static_cast<const int16_t*>(p)[i];
    case ScalarType::Char: return static_cast<const int8_t*>(p)[i];
    default: return static_cast<const uint8_t*>(p)[i];
  }
}

std::string shape_string(Span<const int32_t> sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? "x" : "") + std::to_string(sizes[i]);
  return s + "]";
}

double ms(uint64_t ns) { return static_cast<double>(ns) / 1e6; }

bool write_text(const std::string& path, const std::string& text) {
  FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return false;
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  return std::fclose(f) == 0 && ok;
}

// The trace and the table of the profiled runs; false when a file cannot be written.
bool write_profile(const Options& opt, const std::vector<TraceEvent>& events, size_t runs,
                   size_t dropped) {
  DebugInfo info;
  const DebugInfo* debug = nullptr;
  std::string path = opt.debug_info.empty() ? opt.model + ".debug" : opt.debug_info;
  std::string error;
  if (read_debug_info(path, &info, &error)) {
    debug = &info;
  } else if (!opt.debug_info.empty()) {
    std::fprintf(stderr, "ember_run: %s\n", error.c_str());
    return false;
  } else {
    std::fprintf(stderr, "ember_run: no debug info (%s): the profile names no nodes or lines\n",
                 path.c_str());
  }
  const std::string table = profile_table(profile_rows(events, debug, runs), runs, dropped);
  std::printf("%s", table.c_str());
  for (const auto& [file, text] : {std::make_pair(opt.profile + ".trace.json",
                                                  chrome_trace_json(events, debug)),
                                   std::make_pair(opt.profile + ".profile.txt", table)}) {
    if (!write_text(file, text)) {
      std::fprintf(stderr, "ember_run: cannot write %s\n", file.c_str());
      return false;
    }
    std::printf("wrote %s\n", file.c_str());
  }
  return true;
}

}  // namespace

int ember_run_main(int argc, char** argv) {
  const Options opt = parse(argc, argv);
  // Each failure is reported below in one line, with the runtime's reason.
  if (!opt.verbose) set_log_threshold(LogLevel::Fatal);

  const uint64_t t0 = pal_time_ns();
  ModuleOptions options;
  options.num_threads = static_cast<size_t>(opt.threads);
  options.max_memory_bytes = static_cast<size_t>(opt.max_memory);
  options.max_instructions = opt.max_instructions;
  Result<std::unique_ptr<Module>> loaded = Module::load(opt.model.c_str(), options);
  if (!loaded.ok()) {
    std::fprintf(stderr, "ember_run: cannot load %s: %s: %s\n", opt.model.c_str(),
                 error_name(loaded.error()), last_error_message());
    return 1;
  }
  Module& module = *loaded.get();
  const uint64_t t1 = pal_time_ns();
  Result<Method*> method = module.method("forward");
  if (!method.ok()) {
    std::fprintf(stderr, "ember_run: cannot initialise forward: %s: %s\n",
                 error_name(method.error()), module.last_error());
    return 1;
  }
  const uint64_t t2 = pal_time_ns();
  Result<MethodMeta> meta = module.method_meta("forward");

  const size_t num_inputs = meta->num_inputs();
  if (!opt.inputs.empty() && opt.inputs.size() != num_inputs) {
    std::fprintf(stderr, "ember_run: the model takes %zu inputs, %zu --input files given\n",
                 num_inputs, opt.inputs.size());
    return 2;
  }
  std::mt19937 rng(opt.seed);
  std::vector<HostTensor> host(num_inputs);
  std::vector<EValue> inputs(num_inputs);
  for (size_t i = 0; i < num_inputs; ++i) {
    Result<MethodMeta::TensorInfo> info = meta->input_tensor_info(i);
    if (!info.ok()) {
      std::fprintf(stderr, "ember_run: input %zu is not a tensor; only tensor inputs are supported\n", i);
      return 2;
    }
    HostTensor& h = host[i];
    if (!opt.inputs.empty()) {
      tools::NpyArray array;
      std::string error;
      if (!tools::read_npy(opt.inputs[i], &array, &error)) {
        std::fprintf(stderr, "ember_run: input %zu: %s\n", i, error.c_str());
        return 2;
      }
      h.dtype = array.dtype;
      h.sizes = array.shape;
      h.data = std::move(array.data);
    } else {
      h.dtype = info->dtype;
      h.sizes.assign(info->sizes.begin(), info->sizes.end());
      size_t numel = 1;
      for (int32_t s : h.sizes) numel *= static_cast<size_t>(s);
      h.data.resize(numel * element_size(h.dtype));
      fill_random(h, rng);
    }
    h.bind();
    inputs[i] = EValue(&h.tensor);
  }

  // With --profile, the timed runs are traced; the events of each run are
  // copied out of the tracer's buffer after it (never while executing).
  DevtoolsTracer tracer;
  std::vector<TraceEvent> buffer;
  std::vector<TraceEvent> events;
  size_t dropped = 0;
  if (!opt.profile.empty()) {
    buffer.resize(kProfileEventsPerRun);
    tracer.set_event_buffer(Span<TraceEvent>(buffer.data(), buffer.size()));
    tracer.set_method(method.get());
  }
  std::vector<double> latencies;
  for (int r = 0; r < opt.warmup + opt.runs; ++r) {
    const bool traced = !opt.profile.empty() && r >= opt.warmup;
    if (traced) {
      tracer.reset();
      method.get()->set_event_tracer(&tracer);
    }
    const uint64_t start = pal_time_ns();
    const Error err = module.run("forward", Span<const EValue>(inputs.data(), inputs.size()));
    const uint64_t end = pal_time_ns();
    method.get()->set_event_tracer(nullptr);
    if (err != Error::Ok) {
      std::fprintf(stderr, "ember_run: forward failed: %s: %s\n", error_name(err),
                   module.last_error());
      return 1;
    }
    if (r >= opt.warmup) latencies.push_back(ms(end - start));
    if (traced) {
      events.insert(events.end(), buffer.begin(), buffer.begin() + tracer.num_events());
      dropped += tracer.dropped_events();
    }
  }

  Method* m = method.get();
  for (size_t i = 0; i < m->num_outputs(); ++i) {
    const EValue& out = m->output(i);
    if (!out.is_tensor()) {
      if (out.is_int()) std::printf("output %zu: int %" PRId64 "\n", i, out.to_int());
      else if (out.is_double()) std::printf("output %zu: float %g\n", i, out.to_double());
      else std::printf("output %zu: %s\n", i, out.tag_name());
      continue;
    }
    // Printed and written row-major, whatever dim order the program gave it.
    HostTensor row_major;
    row_major.dtype = out.to_tensor().scalar_type();
    row_major.sizes.assign(out.to_tensor().sizes().begin(), out.to_tensor().sizes().end());
    row_major.data.resize(out.to_tensor().nbytes());
    row_major.bind();
    copy_across_dim_orders(out.to_tensor(), row_major.tensor);
    const Tensor& t = row_major.tensor;
    std::printf("output %zu: %s %s:", i, scalar_type_name(t.scalar_type()),
                shape_string(t.sizes()).c_str());
    const int64_t shown = std::min<int64_t>(t.numel(), opt.print);
    for (int64_t k = 0; k < shown; ++k) std::printf(" %.6g", element_as_double(t, k));
    std::printf("%s\n", t.numel() > shown ? " ..." : "");
    if (!opt.output_dir.empty()) {
      std::string error;
      const std::string path = opt.output_dir + "/output_" + std::to_string(i) + ".npy";
      std::vector<int32_t> shape(t.sizes().begin(), t.sizes().end());
      if (!tools::write_npy(path, t.scalar_type(), shape, t.const_data_ptr(), t.nbytes(), &error)) {
        std::fprintf(stderr, "ember_run: %s\n", error.c_str());
        return 1;
      }
    }
  }

  std::vector<double> sorted = latencies;
  std::sort(sorted.begin(), sorted.end());
  double mean = 0;
  for (double v : sorted) mean += v;
  mean /= static_cast<double>(sorted.size());
  std::printf("load %.2f ms, init %.2f ms, planned memory %.1f KiB, method tables %.1f KiB, "
              "delegates %.1f KiB, %zu thread(s)\n",
              ms(t1 - t0), ms(t2 - t1), static_cast<double>(module.planned_bytes()) / 1024.0,
              static_cast<double>(module.method_allocator_bytes()) / 1024.0,
              static_cast<double>(module.delegate_bytes()) / 1024.0, module.num_threads());
  std::printf("run: %zu runs after %d warm-up: median %.3f ms, min %.3f ms, mean %.3f ms\n",
              sorted.size(), opt.warmup, sorted[sorted.size() / 2], sorted.front(), mean);
  if (!opt.profile.empty() && !write_profile(opt, events, latencies.size(), dropped)) return 1;
  return 0;
}

}  // namespace ember
