// Reading and writing NumPy .npy files (format 1.0/2.0, little-endian, C order),
// so that ember_run can take inputs from and hand outputs to Python.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/core/scalar_type.h"

namespace ember::tools {

struct NpyArray {
  ScalarType dtype = ScalarType::Float;
  std::vector<int32_t> shape;
  std::vector<uint8_t> data;
};

// On failure returns false and sets `error` to a one-line reason.
bool read_npy(const std::string& path, NpyArray* array, std::string* error);
bool write_npy(const std::string& path, ScalarType dtype, const std::vector<int32_t>& shape,
               const void* data, size_t nbytes, std::string* error);

}  // namespace ember::tools
