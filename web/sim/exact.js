// Small exact solutions in JS for the lessons: the clock of the midpoint rule on the
// linear oscillator (Lu 1995) and the undamped oscillator itself. The pendulum and the
// free rigid body need elliptic functions: those come from the core (lab.exactPendulum,
// lab.exactRigidBody), so there is one implementation of them.

/**
 * Lu's clock (Lu 1995, §2.3, eqs. 16–18 corrected): one midpoint step of size h on the
 * oscillator q'' = −ω²q is the exact flow over Δt = (2/ω) arctan(ωh/2) (the core's
 * exact/midpoint_clock.hpp; the arctangent form keeps the digits that arccos loses).
 */
export function midpointClockStep(h, omega) {
  return omega === 0 ? h : (2 * Math.atan2(0.5 * omega * h, 1)) / omega;
}

/** The exact undamped oscillator of a normalized `oscillator` scenario at t: { q: [x], p: [m v] }. */
export function exactOscillator(normalized, t) {
  const { mass, stiffness, damping } = normalized.params;
  if (damping !== 0) return null;
  const w = Math.sqrt(stiffness / mass);
  const { position: x0, velocity: v0 } = normalized.initial;
  const x = x0 * Math.cos(w * t) + (v0 / w) * Math.sin(w * t);
  const v = -x0 * w * Math.sin(w * t) + v0 * Math.cos(w * t);
  return { q: [x], p: [mass * v] };
}
