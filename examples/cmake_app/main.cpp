// ember_app: runs a program's forward on a float32 input read from a raw
// file and writes the output, row-major float32, to another.
//
//   ember_app model.pte input.f32 output.f32 [threads]
//
// The input's shape is the method's (from its metadata); the output's is
// printed.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "extension/module/module.h"
#include "runtime/core/log.h"

namespace {

bool read_file(const char* path, std::vector<char>* bytes) {
  std::FILE* f = std::fopen(path, "rb");
  if (f == nullptr) return false;
  char chunk[1 << 16];
  size_t n;
  while ((n = std::fread(chunk, 1, sizeof(chunk), f)) > 0) bytes->insert(bytes->end(), chunk, chunk + n);
  std::fclose(f);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: ember_app model.pte input.f32 output.f32 [threads]\n");
    return 2;
  }
  ember::ModuleOptions options;
  options.num_threads = argc > 4 ? static_cast<size_t>(std::atoi(argv[4])) : 0;
  auto loaded = ember::Module::load(argv[1], options);
  if (!loaded.ok()) {
    std::fprintf(stderr, "ember_app: cannot load %s: %s\n", argv[1], ember::last_error_message());
    return 1;
  }
  ember::Module& module = *loaded.get();

  // The input tensor: the method's dtype and shape over the file's bytes.
  auto info = module.method_meta("forward")->input_tensor_info(0);
  if (!info.ok() || info->dtype != ember::ScalarType::Float) {
    std::fprintf(stderr, "ember_app: forward's first input is not a float32 tensor\n");
    return 1;
  }
  const int rank = static_cast<int>(info->sizes.size());
  std::vector<int32_t> sizes(info->sizes.begin(), info->sizes.end());
  std::vector<uint8_t> order(rank);
  std::vector<int32_t> strides(rank);
  size_t numel = 1;
  for (int d = 0; d < rank; ++d) {
    order[d] = static_cast<uint8_t>(d);
    numel *= static_cast<size_t>(sizes[d]);
  }
  std::vector<char> data;
  if (!read_file(argv[2], &data) || data.size() != numel * sizeof(float)) {
    std::fprintf(stderr, "ember_app: %s must hold %zu float32 values\n", argv[2], numel);
    return 1;
  }
  ember::Tensor input(ember::ScalarType::Float, rank, sizes.data(), order.data(), strides.data(),
                      data.data(), data.size());

  const ember::EValue inputs[] = {ember::EValue(&input)};
  if (module.run("forward", {inputs, 1}) != ember::Error::Ok) {
    std::fprintf(stderr, "ember_app: forward failed: %s\n", module.last_error());
    return 1;
  }

  // The output, copied row-major whatever dim order the program keeps it in.
  const ember::Tensor& out = module.method("forward").get()->output(0).to_tensor();
  std::vector<int32_t> out_sizes(out.sizes().begin(), out.sizes().end());
  std::vector<uint8_t> out_order(out.dim());
  std::vector<int32_t> out_strides(out.dim());
  for (int d = 0; d < out.dim(); ++d) out_order[d] = static_cast<uint8_t>(d);
  std::vector<char> result(out.nbytes());
  ember::Tensor row_major(out.dtype(), out.dim(), out_sizes.data(), out_order.data(),
                          out_strides.data(), result.data(), result.size());
  ember::copy_across_dim_orders(out, row_major);
  std::FILE* f = std::fopen(argv[3], "wb");
  if (f == nullptr || std::fwrite(result.data(), 1, result.size(), f) != result.size()) {
    std::fprintf(stderr, "ember_app: cannot write %s\n", argv[3]);
    return 1;
  }
  std::fclose(f);

  std::printf("ember_app: forward -> %s [", ember::scalar_type_name(out.dtype()));
  for (int d = 0; d < out.dim(); ++d) std::printf(d ? ", %d" : "%d", out_sizes[d]);
  std::printf("] on %zu thread(s)\n", module.num_threads());
  return 0;
}
