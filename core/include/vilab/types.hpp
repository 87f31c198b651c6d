// Common types of the vilab core: fixed-size Eigen vectors, input errors.
#pragma once

#include <Eigen/Dense>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "vilab/limits.hpp"
#include "vilab/vocabulary.hpp"

namespace vilab {

// The length of the well-formed UTF-8 character at s[i], or 0 when there is none.
inline std::size_t utf8CharLength(const std::string& s, std::size_t i) {
  const unsigned char c = static_cast<unsigned char>(s[i]);
  std::size_t len = 0;
  unsigned lo = 0x80, hi = 0xBF;  // the valid range of the second byte
  if (c < 0x80) {
    return 1;
  } else if (c >= 0xC2 && c <= 0xDF) {
    len = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0) lo = 0xA0;  // no overlong forms
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;  // at most U+10FFFF
  } else {
    return 0;
  }
  if (i + len > s.size()) return 0;
  for (std::size_t k = 1; k < len; ++k) {
    const unsigned char b = static_cast<unsigned char>(s[i + k]);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF)) return 0;
  }
  return len;
}

// The offset of the first byte of s that is not well-formed UTF-8, or npos.
inline std::size_t invalidUtf8Offset(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t len = utf8CharLength(s, i);
    if (len == 0) return i;
    i += len;
  }
  return std::string::npos;
}

// s as valid UTF-8: each byte that does not start a well-formed character becomes
// U+FFFD. Stops once more than `stopAfter` bytes are out (enough for a cut).
inline std::string validUtf8(const std::string& s, std::size_t stopAfter = std::string::npos) {
  std::string out;
  out.reserve((s.size() < stopAfter ? s.size() : stopAfter) + 4);
  for (std::size_t i = 0; i < s.size() && out.size() <= stopAfter;) {
    const std::size_t len = utf8CharLength(s, i);
    if (len > 0) {
      out.append(s, i, len);
      i += len;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

// Valid UTF-8 cut to at most `keep` bytes at a character boundary, then "…" when
// anything was cut.
inline std::string cutUtf8(const std::string& s, std::size_t keep) {
  std::string out = validUtf8(s, keep);
  if (out.size() <= keep) return out;
  std::size_t end = keep;
  while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80) --end;
  out.resize(end);
  return out + "\xE2\x80\xA6";
}

// User text as it may be shown: each control character (C0, DEL, C1) written as the
// six characters \u00XX, so a NUL or an escape sequence is seen, never acted on, and
// nothing downstream (a C string, a terminal) cuts or interprets the text.
inline std::string escapeControl(const std::string& s) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    unsigned code = 0x100;  // none
    if (c < 0x20 || c == 0x7F) code = c;
    // C1 controls U+0080…U+009F: C2 80 … C2 9F
    else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F &&
             static_cast<unsigned char>(s[i + 1]) >= 0x80)
      code = static_cast<unsigned char>(s[++i]);
    if (code > 0xFF) {
      out += static_cast<char>(c);
    } else {
      out += "\\u00";
      out += hex[code >> 4];
      out += hex[code & 15];
    }
  }
  return out;
}

// Text fit for a message: valid UTF-8 (so JSON dumps and JS strings never fail on
// it) and at most `max` bytes, the ellipsis included.
inline std::string boundedMessage(const std::string& s, std::size_t max = limits::kMaxMessageBytes) {
  std::string out = validUtf8(s, max);
  return out.size() <= max ? out : cutUtf8(out, max > 3 ? max - 3 : 0);
}

template <class S, int N>
using Vec = Eigen::Matrix<S, N, 1>;
template <class S, int R, int C>
using Mat = Eigen::Matrix<S, R, C>;
using Vec3 = Eigen::Vector3d;
using Mat3 = Eigen::Matrix3d;
using VecX = Eigen::VectorXd;

// Bad input (a scenario, link or parameter): the message is "<field>: <problem>", and
// the code says what kind of problem it is (vocabulary.hpp: VILAB_INPUT_ERROR_CODES).
// message() is the whole text with its length (what() is the same bytes as a C string):
// callers pass message() on, so nothing is cut at a NUL.
class InputError : public std::runtime_error {
 public:
  InputError(InputErrorCode code, const std::string& field, const std::string& problem)
      : InputError(Composed{}, code, boundedMessage(field + ": " + problem), field) {}
  const std::string& message() const { return message_; }
  const std::string& field() const { return field_; }
  InputErrorCode code() const { return code_; }

 private:
  struct Composed {};
  InputError(Composed, InputErrorCode code, std::string message, const std::string& field)
      : std::runtime_error(message),
        message_(std::move(message)),
        field_(boundedMessage(field, limits::kMaxFieldBytes)),
        code_(code) {}
  std::string message_;
  std::string field_;
  InputErrorCode code_;
};

// A part of the library the lean build leaves out (the page's first-load module: no
// expression compiler, no automatic differentiation, no Lobatto). The full build never
// throws it; the page loads the full module and asks again.
class NotInLeanBuild : public InputError {
 public:
  NotInLeanBuild(const std::string& field, const std::string& what)
      : InputError(InputErrorCode::FullModule, field, what + " is in the full module, not the lean one") {}
};

// A number for messages, in scientific notation with 3 significant digits.
inline std::string scientific(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2e", x);
  return buf;
}

// A number for messages with up to 6 significant digits.
inline std::string formatNumber(double x) {
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

}  // namespace vilab
