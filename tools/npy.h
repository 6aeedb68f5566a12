// Reading and writing NumPy .npy files (format 1.0/2.0, little-endian, C order)
// and reading .npz archives of them (np.savez, uncompressed), so that ember_run
// and the C++ tests can take inputs from and hand outputs to Python.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
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
// The same from bytes in memory; `name` only labels errors.
bool parse_npy(const uint8_t* bytes, size_t size, const std::string& name, NpyArray* array,
               std::string* error);
// Every array of an .npz written by np.savez, in archive order, named without
// ".npy". Compressed archives (np.savez_compressed) are refused.
bool read_npz(const std::string& path, std::vector<std::pair<std::string, NpyArray>>* arrays,
              std::string* error);
bool write_npy(const std::string& path, ScalarType dtype, const std::vector<int32_t>& shape,
               const void* data, size_t nbytes, std::string* error);

}  // namespace ember::tools
