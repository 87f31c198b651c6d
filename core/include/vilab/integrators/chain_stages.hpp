// Shared by the chains' stage methods (Gauss–Legendre, Lobatto IIIA–IIIB): the scales
// of their block-tridiagonal Newton problem and the end of their step. Both write the
// multipliers as lengths (μ = h^k Λ / m̄), so every unknown is measured against the
// chain's length.
#pragma once

#include <vector>

#include "vilab/integrators/chain_projection.hpp"
#include "vilab/models/chain.hpp"
#include "vilab/outcome.hpp"

namespace vilab {

struct ChainStageScales {
  double massMean = 0;                       // m̄, the mean bob mass
  double lengthScale = 0;                    // Σ l_i, the Newton size's unit
  std::vector<double> invLength, massRatio;  // 1/l_i and m̄/m_i

  explicit ChainStageScales(const ChainModel& model) {
    const int n = model.bobs();
    for (int i = 0; i < n; ++i) {
      massMean += model.masses[i] / n;
      lengthScale += model.lengths[i];
      invLength.push_back(1.0 / model.lengths[i]);
    }
    for (int i = 0; i < n; ++i) massRatio.push_back(massMean / model.masses[i]);
  }
};

// The step's end once its Newton has converged (`out`): p_{k+1} projected onto the
// momenta tangent to the links at q_{k+1} (RATTLE's second multiplier), then
// (q_{k+1}, p_{k+1}) become (q, p); refused, with (q, p) kept, when the links fold or
// the new state is not finite.
inline StepOutcome commitChainStep(const ChainModel& model, ChainMomentumProjector& projector, const VecX& q1, VecX& p1,
                                   VecX& q, VecX& p, const StepOutcome& out) {
  if (!projector.project(model, q1, p1))
    return StepOutcome::refuse(RefusalCode::SingularMatrix, "two links are folded onto each other",
                               Suggestion::reduceH(), out.iterations);
  if (!q1.allFinite() || !p1.allFinite())
    return StepOutcome::refuse(RefusalCode::NonFinite, "the new state is not finite", Suggestion::reduceH(),
                               out.iterations);
  q = q1;
  p = p1;
  return out;
}

}  // namespace vilab
