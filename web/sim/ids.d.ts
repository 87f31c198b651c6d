// Generated from the C++ registry by scripts/gen-ids.mjs (run by scripts/build.sh); do not edit.

/** The id of a shipped system (lab.systems). */
export type SystemId =
  | 'oscillator'
  | 'pendulum'
  | 'spherical-pendulum'
  | 'double-spherical-pendulum'
  | 'chain'
  | 'rigid-body'
  | 'heavy-top'
  | 'lagrangian';

/** The id of an integrator (lab.integrators). */
export type IntegratorId =
  | 'midpoint'
  | 'trapezoid'
  | 'alpha'
  | 'symplectic-euler'
  | 'rattle'
  | 'newmark'
  | 'composition4'
  | 'composition6'
  | 'lobatto'
  | 'generalized'
  | 'angles-midpoint'
  | 'penalty'
  | 'penalty-energy-momentum'
  | 'quaternion'
  | 'lie-group'
  | 'energy-momentum'
  | 'rk4'
  | 'euler'
  | 'dopri5'
  | 'sem';
