#include "extension/llm/tokenizer/byte_reader.h"

#include "runtime/core/log.h"

namespace ember {
namespace llm {

Result<MappedFile> map_file(const char* path, const char* what) {
  Result<MmapDataLoader> loader = MmapDataLoader::from(path);
  if (!loader.ok()) {
    EMBER_LOG(Error, "%s: cannot open %s", what, path);
    return loader.error();
  }
  Result<size_t> size = loader->size();
  if (!size.ok()) return size.error();
  Result<FreeableBuffer> bytes = loader->load(0, size.get());
  if (!bytes.ok()) {
    EMBER_LOG(Error, "%s: cannot map %s", what, path);
    return bytes.error();
  }
  return MappedFile{std::move(loader.get()), std::move(bytes.get())};
}

}  // namespace llm
}  // namespace ember
