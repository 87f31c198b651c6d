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
  | 'lagrangian'
  | 'mechanism'
  | 'field';

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
  | 'gauss2'
  | 'gauss4'
  | 'gauss6'
  | 'gauss8'
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
  | 'sem'
  | 'avi';

/** The model behind a system (SystemInfo.model), which fixes its canonical state. At run time: lab.vocabulary.models. */
export type ModelKind =
  | 'oscillator'
  | 'chain'
  | 'rigid-body'
  | 'lagrangian'
  | 'mechanism'
  | 'field';

/** Which scene draws a system (SystemInfo.view). At run time: lab.vocabulary.views. */
export type ViewKind =
  | 'linkage'
  | 'oscillator'
  | 'rigid'
  | 'top'
  | 'bodies'
  | 'mechanism'
  | 'field';

/** What a system's canonical state (q, p) is (SystemInfo.state). At run time: lab.vocabulary.states. */
export type StateKind =
  | 'cotangent'
  | 'quaternion'
  | 'bodies';

/** An exact solution the core knows (SystemInfo.exact.solution, lab.exact). At run time: lab.vocabulary.exactSolutions. */
export type ExactSolutionKind =
  | 'oscillator'
  | 'pendulum'
  | 'rigid-body';

/** The family of an integrator (IntegratorInfo.family). At run time: lab.vocabulary.families. */
export type IntegratorFamily =
  | 'variational'
  | 'energy-momentum'
  | 'baseline';

/** What an integrator's claim is about (IntegratorInfo.claims[].kind). At run time: lab.vocabulary.claimKinds. */
export type ClaimKind =
  | 'symplectic'
  | 'momentum'
  | 'constraints'
  | 'energy'
  | 'energy-bounded'
  | 'casimir';

/** What a parameter is, where the page needs to know (ParamInfo.quantity). At run time: lab.vocabulary.quantities. */
export type Quantity =
  | 'gravity'
  | 'mass'
  | 'principal-moments'
  | 'center-of-mass';

/** A refused step's VilabError.code. At run time: lab.vocabulary.refusalCodes. */
export type RefusalCode =
  | 'no-convergence'
  | 'diverged'
  | 'singular-matrix'
  | 'non-finite'
  | 'spurious-root';

/** What a refused step suggests (VilabError.action), beside its words. At run time: lab.vocabulary.suggestionActions. */
export type SuggestionAction =
  | 'reduce-h'
  | 'loosen-tolerance'
  | 'change-scenario';

/** Every other VilabError.code: bad input, used after dispose, a module that did not load, … At run time: lab.vocabulary.inputErrorCodes. */
export type InputErrorCode =
  | 'syntax'
  | 'type'
  | 'range'
  | 'length'
  | 'missing'
  | 'unknown-key'
  | 'unknown-id'
  | 'not-applicable'
  | 'conflict'
  | 'too-large'
  | 'off-manifold'
  | 'invalid'
  | 'full-module'
  | 'no-exact-solution'
  | 'disposed'
  | 'out-of-memory'
  | 'module-load'
  | 'internal';
