// English words of the globalized Newton's part: the advice of a refused step where a
// smaller h was measured not to help, and the activities of the non-quadratic scenes
// (scenes/lagrangian/relativistic-particle.json, quartic-kinetic.json).
export default {
  'words.failure.action.change-scenario': 'A smaller h was tried and does not help here: change the initial state or the system.',
  'activity.preset.relativistic-particle.question':
    'The momentum p = q̇/√(1 − |q̇|²) can grow without bound. As it grows past 1, does the speed |q̇| reach 1?',
  'activity.preset.relativistic-particle.choice.reaches': 'Yes, the speed reaches 1',
  'activity.preset.relativistic-particle.choice.below': 'No, the speed stays below 1',
  'activity.preset.relativistic-particle.measure':
    'Read the largest momentum and the largest speed on the plot, and the energy error band.',
  'activity.preset.relativistic-particle.answer':
    'The speed stays below 1 while the momentum passes 1.5: every step recovers q̇ from p with a damped Newton that halves its step rather than leave |q̇| < 1, and the energy error stays in a band.',
  'activity.preset.quartic-kinetic.question': 'L is symmetric under rotations. Which integrator keeps the angular momentum Lz?',
  'activity.preset.quartic-kinetic.measure': 'Read the drift of Lz for A and for B on the momentum plot.',
  'activity.preset.quartic-kinetic.answer':
    'The midpoint rule (A) keeps Lz to rounding, whatever the |q̇|⁴ term does to the momentum; RK4 (B) lets it drift.',
};
