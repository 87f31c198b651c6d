// What every fuzz target asserts: the library answers any input with its own clean
// error (an InputError naming a field, or a StepFailure), never anything else. A
// finding aborts, so libFuzzer keeps the input; ASan and UBSan (built in) turn memory
// errors and undefined behaviour into findings too.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include "vilab/json.hpp"
#include "vilab/limits.hpp"
#include "vilab/simulation.hpp"
#include "vilab/types.hpp"

namespace vilab::fuzz {

[[noreturn]] inline void finding(const char* what, const std::string& detail) {
  std::fprintf(stderr, "vilab fuzz finding: %s: %s\n", what, validUtf8(detail, 2000).c_str());
  std::abort();
}

inline bool wellFormed(const std::string& s) { return invalidUtf8Offset(s) == std::string::npos; }

// The message promise of the README: valid UTF-8, bounded, and "<field>: <problem>".
inline void checkMessage(const std::string& message, const std::string& field) {
  if (!wellFormed(message) || !wellFormed(field)) finding("message or field not UTF-8", message);
  if (message.size() > limits::kMaxMessageBytes) finding("message too long", message);
  if (field.empty() || field.size() > limits::kMaxFieldBytes) finding("empty or long field", message);
  const bool fieldCut = field.size() >= 3 && field.compare(field.size() - 3, 3, "\xE2\x80\xA6") == 0;
  if (!fieldCut && message.compare(0, field.size() + 2, field + ": ") != 0)
    finding("message does not start with its field", field + " | " + message);
}

// The first raw control character (C0, DEL, C1) in s, or npos: user text is shown with
// them escaped (\u00XX), so a terminal never acts on one and no NUL cuts a consumer.
inline std::size_t controlCharacter(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) return i;
    if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) <= 0x9F) return i;
  }
  return std::string::npos;
}

// UTF-16 code units of well-formed UTF-8 (the length of the JS string Embind makes).
inline std::size_t utf16Length(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) {
    const unsigned char b = static_cast<unsigned char>(c);
    if ((b & 0xC0) != 0x80) n += b >= 0xF0 ? 2 : 1;
  }
  return n;
}

// What() (a C string) and message() are the same bytes, so no reader of either is cut
// at a NUL, and no raw control character reaches a terminal or the page.
inline void checkWhole(const char* what, const std::string& message) {
  if (std::strlen(what) != message.size() || message != what)
    finding("what() is not the whole message (a NUL cuts it as a C string)", message);
  if (controlCharacter(message) != std::string::npos) finding("a raw control character in a message", message);
}

// The message as it is delivered, not only the std::string: the bindings pass message()
// with its length into a JS string ("vilab: " + it, at most 300 UTF-16 units), the CLIs
// write "vilab: " + boundedMessage(message()) whole.
inline void checkDelivered(const char* what, const std::string& message, const std::string& field) {
  checkMessage(message, field);
  checkWhole(what, message);
  if (controlCharacter(field) != std::string::npos) finding("a raw control character in a field", field);
  if (utf16Length(message) + 7 > 300) finding("the JS message is over 300 characters", message);
  if (boundedMessage(message) != message) finding("the CLI would cut the message again", message);
}

// Runs f; true when it returned, false when it threw a clean InputError. Any other
// exception is a finding (`where` names the call).
template <class F>
bool clean(const char* where, F&& f) {
  try {
    f();
    return true;
  } catch (const InputError& e) {
    checkDelivered(e.what(), e.message(), e.field());
    return false;
  } catch (const StepFailure& e) {
    finding(where, std::string("unexpected StepFailure: ") + e.message());
  } catch (const std::bad_alloc&) {
    finding(where, "std::bad_alloc");
  } catch (const std::exception& e) {
    finding(where, std::string("not an InputError: ") + e.what());
  } catch (...) {
    finding(where, "unknown exception");
  }
}

// Every number the core reports is finite and within ±kMaxMagnitude.
inline void checkReported(double x, const char* what) {
  if (!(std::abs(x) <= limits::kMaxMagnitude)) finding("a reported number is not finite or beyond 1e300", what);
}

}  // namespace vilab::fuzz
