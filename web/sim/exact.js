// Lu's clock of the midpoint rule on the linear oscillator, in JS for the lessons. The
// exact solutions themselves (oscillator, pendulum, free rigid body) come from the core
// through lab.exact, so there is one implementation of each.

/**
 * Lu's clock (Lu 1995, §2.3, eqs. 16–18 corrected): one midpoint step of size h on the
 * oscillator q'' = −ω²q is the exact flow over Δt = (2/ω) arctan(ωh/2) (the core's
 * exact/midpoint_clock.hpp; the arctangent form keeps the digits that arccos loses).
 */
export function midpointClockStep(h, omega) {
  return omega === 0 ? h : (2 * Math.atan2(0.5 * omega * h, 1)) / omega;
}
