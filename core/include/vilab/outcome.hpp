// What a step reports: success with its iteration count, or a structured refusal
// {code, reason, suggestion, action}. A refused step leaves the state at the last good step.
#pragma once

#include <string>
#include <utility>

#include "vilab/vocabulary.hpp"

namespace vilab {

// The codes (no-convergence, …) are a vocabulary (vocabulary.hpp: VILAB_REFUSAL_CODES).
// Stable machine-readable names ("no-convergence", …), used by the JS API and the page.
inline const char* refusalCodeName(RefusalCode c) { return idOf(c); }

// What a refused step suggests: an action the page can take on, and the words for people.
struct Suggestion {
  SuggestionAction action;
  std::string words;
  static Suggestion reduceH(std::string words = "reduce h") { return {SuggestionAction::ReduceH, std::move(words)}; }
  static Suggestion loosenTolerance(std::string words) { return {SuggestionAction::LoosenTolerance, std::move(words)}; }
  static Suggestion changeScenario(std::string words) { return {SuggestionAction::ChangeScenario, std::move(words)}; }
};

struct Refusal {
  RefusalCode code = RefusalCode::None;
  std::string reason;  // plain words, no trailing period
  // What the user can do: the action for the page (reduce-h, …) and the words (e.g. "reduce h").
  SuggestionAction action = SuggestionAction::ReduceH;
  std::string suggestion;

  static Refusal of(RefusalCode code, std::string reason, Suggestion suggestion) {
    return {code, std::move(reason), suggestion.action, std::move(suggestion.words)};
  }
};

struct StepOutcome {
  bool ok = true;
  int iterations = 0;  // Newton iterations (or substeps for adaptive methods); 0 for explicit ones
  Refusal refusal;

  // An accepted step's outcome, its members initialized one by one: StepOutcome{true, k, {}}
  // value-initializes, zeroing all of its bytes first (a `rep stos` natively, a memset
  // call in wasm) on every step.
  [[gnu::always_inline]] static StepOutcome accepted(int iterations) {
    StepOutcome o;
    o.iterations = iterations;
    return o;
  }

  static StepOutcome refuse(RefusalCode code, std::string reason, Suggestion suggestion, int iterations = 0) {
    StepOutcome o;
    o.ok = false;
    o.iterations = iterations;
    o.refusal = Refusal::of(code, std::move(reason), std::move(suggestion));
    return o;
  }
};

}  // namespace vilab
