#include "extension/devtools/debug_info.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace ember {
namespace {

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(line);
  while (std::getline(in, part, sep)) parts.push_back(part);
  if (!line.empty() && line.back() == sep) parts.emplace_back();
  return parts;
}

bool parse_u32(const std::string& text, uint32_t* out) {
  if (text.empty()) return false;
  char* end = nullptr;
  const unsigned long v = std::strtoul(text.c_str(), &end, 10);
  if (*end != '\0' || v > 0xffffffffUL) return false;
  *out = static_cast<uint32_t>(v);
  return true;
}

}  // namespace

std::string DebugNode::location() const {
  if (file.empty()) return "";
  const size_t slash = file.find_last_of('/');
  return (slash == std::string::npos ? file : file.substr(slash + 1)) + ":" + std::to_string(line);
}

const DebugNode* DebugInfo::node(uint32_t handle) const {
  auto it = nodes.find(handle);
  return it == nodes.end() ? nullptr : &it->second;
}

const DebugNode* DebugInfo::instruction_node(size_t instruction) const {
  return instruction < instruction_handles.size() ? node(instruction_handles[instruction]) : nullptr;
}

bool read_debug_info(const std::string& path, DebugInfo* info, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot open " + path;
    return false;
  }
  std::string line;
  if (!std::getline(in, line) || line != "ember-debug-info 1") {
    *error = path + ": not an Ember debug info file (version 1)";
    return false;
  }
  *info = DebugInfo();
  for (size_t number = 2; std::getline(in, line); ++number) {
    const std::vector<std::string> f = split(line, '\t');
    const std::string where = path + ":" + std::to_string(number);
    uint32_t a = 0, b = 0;
    if (f.size() == 4 && f[0] == "i" && parse_u32(f[1], &a) && parse_u32(f[2], &b)) {
      if (a != info->instruction_handles.size()) {
        *error = where + ": instructions out of order";
        return false;
      }
      info->instruction_handles.push_back(b);
      std::vector<std::pair<uint32_t, uint32_t>> outs;
      if (f[3] != "-") {
        for (const std::string& p : split(f[3], ',')) {
          const std::vector<std::string> pair = split(p, '=');
          uint32_t pos = 0, handle = 0;
          if (pair.size() != 2 || !parse_u32(pair[0], &pos) || !parse_u32(pair[1], &handle)) {
            *error = where + ": bad output (position=handle)";
            return false;
          }
          outs.emplace_back(pos, handle);
        }
      }
      info->outputs.push_back(outs);
    } else if (f.size() == 7 && f[0] == "h" && parse_u32(f[1], &a) && parse_u32(f[5], &b)) {
      info->nodes[a] = DebugNode{f[2], f[3], f[4], static_cast<int>(b), f[6]};
    } else if (!line.empty()) {
      *error = where + ": malformed line";
      return false;
    }
  }
  return true;
}

}  // namespace ember
