// Heap blocks for the memory a model streams through on every call: its
// weights (FileDataLoader) and its planned arenas, the KV cache among them
// (Module). A block of 2 MiB or more is aligned to 2 MiB and offered to
// Linux's transparent huge pages (its "madvise" setting, the usual default):
// an LLM's decode step, which reads 100 MB of weights and a KV cache spread
// over every layer, then walks the page tables once per 2 MiB instead of
// once per 4 KiB. Hosted builds only, like the file loaders.
#pragma once

#include <cstddef>

namespace ember {

// `size` bytes aligned to 64 bytes (to 2 MiB from 2 MiB up), or null when
// the heap has no room. Release with std::free.
void* allocate_streamed_block(size_t size);

}  // namespace ember
