#include "runtime/kernel/dtype_mask.h"

#include "runtime/core/format.h"


namespace ember {

const char* format_dtype_mask(DtypeMask mask, char* buf, size_t size) {
  if (size == 0) return buf;
  buf[0] = '\0';
  size_t used = 0;
  for (unsigned code = 0; code < 64 && used < size; ++code) {
    if ((mask & (DtypeMask{1} << code)) == 0 || !is_valid_scalar_type(static_cast<int>(code))) {
      continue;
    }
    used += format(buf + used, size - used, "%s%s", used == 0 ? "" : ", ",
                   scalar_type_name(static_cast<ScalarType>(code)));
  }
  return buf;
}

}  // namespace ember
