// English text of the step's Jacobian (sim.linearize()) on the page: the Floquet lesson
// in the Studies drawer (its own words are in web/sim/lessons.js).
export default {
  'lessons.axis.omega': 'shaking frequency ω (rad/s)',
  'lessons.axis.multiplier': 'Floquet multiplier |μ|',
  'lessons.curve.mu-largest': 'largest |μ|',
  'lessons.curve.mu-smallest': 'smallest |μ|',
  'lessons.measured.floquet':
    'Measured ({steps} steps per period): at ω = 60 both multipliers lie on the unit circle (||μ| − 1| = {off60}): stable, the pendulum stays up. At ω = 30 one has |μ| = {mu30} > 1: unstable, it falls. Stable from ω = {firstStable} in this sweep (Kapitza’s a²ω² = 2gl gives {kapitza}). Linear oscillator, midpoint rule at h = {hAngle}: rotation angle {angle} from the step’s eigenvalues, 2·atan(hω/2) = {lu} (largest difference over h = {hFirst} … {hLast}: {angleError}).',
  'lessons.measured.floquet-other':
    'Measured ({steps} steps per period): at ω = 60, ||μ| − 1| = {off60}; at ω = 30, the largest |μ| = {mu30}; every ω from {firstStable} has both multipliers on the unit circle. Linear oscillator, midpoint rule: angle {angle} against 2·atan(hω/2) = {lu} (largest difference {angleError}).',
};
