// What a step reports: success with its iteration count, or a structured refusal
// {code, reason, suggestion}. A refused step leaves the state at the last good step.
#pragma once

#include <string>

namespace vilab {

enum class RefusalCode {
  None,
  NoConvergence,   // the iteration ran out of iterations while still contracting
  Diverged,        // the iteration stopped contracting with a fresh Jacobian
  SingularMatrix,  // the Newton (or projection) matrix is singular to working precision
  NonFinite,       // a residual, update or the new state is not finite
  SpuriousRoot,    // the solver found a root far from the motion (mean kinetic energy ≫ energy)
};

// Stable machine-readable names ("no-convergence", …), used by the JS API and the page.
inline const char* refusalCodeName(RefusalCode c) {
  switch (c) {
    case RefusalCode::None: return "none";
    case RefusalCode::NoConvergence: return "no-convergence";
    case RefusalCode::Diverged: return "diverged";
    case RefusalCode::SingularMatrix: return "singular-matrix";
    case RefusalCode::NonFinite: return "non-finite";
    case RefusalCode::SpuriousRoot: return "spurious-root";
  }
  return "unknown";
}

struct Refusal {
  RefusalCode code = RefusalCode::None;
  std::string reason;      // plain words, no trailing period
  std::string suggestion;  // what the user can do, e.g. "reduce h"
};

struct StepOutcome {
  bool ok = true;
  int iterations = 0;  // Newton iterations (or substeps for adaptive methods); 0 for explicit ones
  Refusal refusal;

  static StepOutcome refuse(RefusalCode code, std::string reason, std::string suggestion = "reduce h",
                            int iterations = 0) {
    StepOutcome o;
    o.ok = false;
    o.iterations = iterations;
    o.refusal = {code, std::move(reason), std::move(suggestion)};
    return o;
  }
};

}  // namespace vilab
