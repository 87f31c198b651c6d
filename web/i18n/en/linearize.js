// English text of the step's Jacobian (sim.linearize()) on the page: the Floquet lesson
// in the Studies drawer (its own words are in web/sim/lessons.js).
export default {
  'lessons.axis.omega': 'shaking frequency ω (rad/s)',
  'lessons.axis.multiplier': 'Floquet multiplier |μ|',
  'lessons.curve.mu-largest': 'largest |μ|',
  'lessons.curve.mu-smallest': 'smallest |μ|',
  'lessons.measured.floquet':
    'Measured ({steps} steps per period): at ω = 60 both multipliers lie on the unit circle (||μ| − 1| = {off60}): stable, the pendulum stays up. At ω = 30 one has |μ| = {mu30} > 1: unstable, it falls. Stable from ω = {firstStable} in this sweep (Kapitza’s a²ω² = 2gl gives {kapitza}). Linear oscillator, midpoint rule at h = 0.1: rotation angle {angle} from the step’s eigenvalues, 2·atan(hω/2) = {lu} (largest difference over h = 0.01 … 2: {angleError}).',
  'lessons.measured.floquet-other':
    'Measured ({steps} steps per period): at ω = 60, ||μ| − 1| = {off60}; at ω = 30, the largest |μ| = {mu30}; every ω from {firstStable} has both multipliers on the unit circle. Linear oscillator, midpoint rule: angle {angle} against 2·atan(hω/2) = {lu} (largest difference {angleError}).',
  'activity.lesson.floquet.question':
    'Shaken at ω = 30, below Kapitza’s threshold a²ω² = 2gl, where do the two Floquet multipliers of the inverted pendulum lie?',
  'activity.lesson.floquet.choice.circle': 'Both on the unit circle: it stays up',
  'activity.lesson.floquet.choice.outside': 'One outside the unit circle: it falls',
  'activity.lesson.floquet.measure': 'Read the two curves of the figure at ω = 30, and the measured line under it.',
  'activity.lesson.floquet.answer':
    'One outside: the monodromy matrix has determinant 1, so its multipliers are μ and 1/μ; at ω = 30 the shaking is too slow to hold the pendulum up, |μ| > 1 and a small tilt grows every period.',
};
