// The data files embedded at build time (cmake/embed.cmake, cmake/prose.cmake), declared
// once: each is its bytes and their number, and is read as a JSON document.
#pragma once

#include <cstddef>
#include <string>

#include "vilab/json.hpp"

namespace vilab::embedded {

extern const char proseEnglish[];  // core/prose/*/*.en.json, merged (core/src/prose.cpp)
extern const std::size_t proseEnglishSize;
extern const char stepLimits[];  // core/data/step_limits.json (core/src/step_limits.cpp)
extern const std::size_t stepLimitsSize;

// An embedded file's JSON document, read as input is read (parseJsonText).
inline Json document(const char* bytes, std::size_t size) {
  return parseJsonText(std::string(bytes, size), "embedded file", 64);
}

}  // namespace vilab::embedded
