// What every fuzz target asserts: the library answers any input with its own clean
// error (an InputError naming a field, or a StepFailure), never anything else. A
// finding aborts, so libFuzzer keeps the input; ASan and UBSan (built in) turn memory
// errors and undefined behaviour into findings too.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
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

// Runs f; true when it returned, false when it threw a clean InputError. Any other
// exception is a finding (`where` names the call).
template <class F>
bool clean(const char* where, F&& f) {
  try {
    f();
    return true;
  } catch (const InputError& e) {
    checkMessage(e.what(), e.field());
    return false;
  } catch (const StepFailure& e) {
    finding(where, std::string("unexpected StepFailure: ") + e.what());
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
