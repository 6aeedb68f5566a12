// The exporter's debug info, read back: which exported graph node (and which
// line of the user's model) each instruction and each delegate op came from.
// The exporter writes it next to the program as `<model>.pte.debug`, a text
// file of tab-separated lines (python/ember/devtools/debug_info.py):
//   ember-debug-info 1
//   i <instruction> <debug handle> <outputs: position=handle,... or ->
//   h <debug handle> <node> <operator> <file> <line> <source text>
// Read after execution only (it allocates).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ember {

struct DebugNode {
  std::string node;      // the exported graph node's name
  std::string op;        // its operator ("aten::convolution")
  std::string file;      // the user's source file, or ""
  int line = 0;
  std::string source;    // the line's text

  // "model.py:12" (the file's base name), or "" when unknown.
  std::string location() const;
};

struct DebugInfo {
  std::vector<uint32_t> instruction_handles;          // per instruction
  // Per instruction: (argument position, debug handle) of each output
  // tensor that stands for an exported node's value.
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> outputs;
  std::map<uint32_t, DebugNode> nodes;                 // by debug handle

  // Null when the handle is unknown.
  const DebugNode* node(uint32_t handle) const;
  const DebugNode* instruction_node(size_t instruction) const;
};

// Reads `path`; false (with why in *error) when it is missing or malformed.
bool read_debug_info(const std::string& path, DebugInfo* info, std::string* error);

}  // namespace ember
