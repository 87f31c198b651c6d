// The clock of the midpoint rule on the linear oscillator q'' = −ω² q (Lu 1995, §2.3).
// One step of the midpoint rule (α = ½) is the matrix
//     1/(1 + (ωh)²/4) [[1 − (ωh)²/4, h], [−ω² h, 1 − (ωh)²/4]]
// (Lu's eq. 17 prints 1 for the upper-right h), and the exact flow over Δt is
// [[cos ωΔt, sin ωΔt / ω], [−ω sin ωΔt, cos ωΔt]] (eq. 16). They coincide when
//     cos ωΔt = (1 − (ωh)²/4)/(1 + (ωh)²/4),   sin ωΔt = ωh/(1 + (ωh)²/4),
// i.e. Δt = (1/ω) arccos[(1 − (ωh)²/4)/(1 + (ωh)²/4)] = (2/ω) arctan(ωh/2)
// (eq. 18 lacks the factor 1/ω). The arctangent form is evaluated: arccos near 1
// loses half the digits for small ωh. The midpoint rule is the exact flow run on this
// clock: after n steps it is at time n Δt, behind n h by n h (ωh)²/12 + O(h⁵).
#pragma once

#include "vilab/detmath.hpp"

namespace vilab::exact {

// The time Δt the exact oscillator flow takes to do one midpoint step of size h
// (ω > 0, h ≥ 0); Δt → h as ω → 0.
inline double midpointClockStep(double h, double omega) {
  if (omega == 0.0) return h;
  return 2.0 * dm::atan2(0.5 * omega * h, 1.0) / omega;
}

// The time reached after `steps` midpoint steps of size h: steps · Δt(h, ω).
inline double midpointClock(double h, double omega, long steps) {
  return static_cast<double>(steps) * midpointClockStep(h, omega);
}

}  // namespace vilab::exact
