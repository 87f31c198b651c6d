// Type declarations for the vilab JavaScript API (web/sim/vilab.js), written by
// hand and checked by tests/types (tsc --noEmit); tests/wasm/types.test.mjs checks every
// registry entry against them, field by field. Reference: docs/api.md.
//
// Ids of systems and integrators and every closed vocabulary (codes, actions, model and
// view kinds, …) are union types generated from the C++ registry (ids.d.ts, written by
// scripts/gen-ids.mjs); lab.systems, lab.integrators and lab.vocabulary list them at run time.

import type {
  SystemId,
  IntegratorId,
  ModelKind,
  ViewKind,
  StateKind,
  ExactSolutionKind,
  IntegratorFamily,
  ClaimKind,
  Quantity,
  RefusalCode,
  SuggestionAction,
  InputErrorCode,
} from './ids.js';
export type * from './ids.js';

// Symbol.dispose (for `using sim = lab.simulate(…)`) without requiring lib esnext.disposable;
// the same declaration as TypeScript's own lib, so the two merge.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
}

/** A list of numbers: an array or any typed array (converted with Number()). */
export type NumberList =
  | readonly number[]
  | Float64Array
  | Float32Array
  | Int8Array
  | Uint8Array
  | Uint8ClampedArray
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array;

/** A scenario, the one schema shared by the native CLI, this API and share links. */
export interface Scenario {
  /** System id, e.g. 'double-spherical-pendulum' (see lab.systems). */
  system: SystemId;
  /** Integrator id, e.g. 'midpoint' (see lab.integrators); default: the system's defaultIntegrator. */
  integrator?: IntegratorId;
  /** Time step (s), in [system.h.min, system.h.max]; default: system.h.default. */
  h?: number;
  /** Model parameters by name (see SystemInfo.params); missing ones take their defaults. For system 'lagrangian', the definition (LagrangianDefinition); for 'mechanism', its bodies and joints (MechanismDefinition). */
  params?: Record<string, number | NumberList> | LagrangianDefinition | MechanismDefinition | FieldDefinition;
  /** Initial data (see SystemInfo.initialFields); default: system.defaults.initial. A field's u and ut are expressions in x. */
  initial?: Record<string, number | NumberList | readonly NumberList[] | Expression>;
  /** Integrator options by name (see IntegratorInfo.options). */
  options?: Record<string, number | NumberList>;
  /** Documentation of a scene (title, lesson, …); ignored by the engine. */
  about?: Record<string, unknown>;
}

/** An expression in q, t and the constants, or a number. */
export type Expression = string | number;

/** A body of a system defined by data: what the page draws. */
export interface LagrangianBody {
  kind?: 'body';
  /** Three expressions in q (and t): [x, y, z]. */
  position: readonly Expression[];
  /** A fixed point [x, y, z], an earlier entry's index, or null (no link). */
  anchor?: readonly number[] | number | null;
  link?: 'rod' | 'spring' | 'none';
  radius?: number;
}

/** What every piece of furniture has: where it is and how it is turned (drawn only, never in the dynamics). */
interface FurnitureBase {
  /** [x, y, z]; default the origin. */
  position?: readonly Expression[];
  /** Radians about `axis`; default 0. */
  angle?: Expression;
  /** The axis it turns about (not zero); default [0, 0, 1]. */
  axis?: readonly number[];
}

/** A hoop or a pulley (a disc with spokes): a circle of `radius` facing `normal` (default [0, 1, 0]). */
export interface LagrangianRound extends FurnitureBase {
  kind: 'hoop' | 'pulley';
  radius: Expression;
  normal?: readonly number[];
}

/** A wire straight between 2 to 128 points [x, y, z] (in its own frame). */
export interface LagrangianWire extends FurnitureBase {
  kind: 'wire';
  points: readonly (readonly Expression[])[];
  closed?: boolean;
}

/** A smooth curve [x(s), y(s), z(s)] sampled at `samples` (2 to 128, default 48) points of `range`. */
export interface LagrangianCurve extends FurnitureBase {
  kind: 'curve';
  curve: readonly Expression[];
  range: readonly [number, number];
  samples?: number;
  /** The curve's parameter name; default 's'. */
  parameter?: string;
  closed?: boolean;
}

/** A square of half-side `size` facing `normal` (floor: default [0, 0, 1]; wall: [1, 0, 0]). */
export interface LagrangianPlane extends FurnitureBase {
  kind: 'floor' | 'wall';
  size?: number;
  normal?: readonly number[];
}

/** Scene furniture of a system defined by data. */
export type LagrangianFurniture = LagrangianRound | LagrangianWire | LagrangianCurve | LagrangianPlane;

/** The params of system 'lagrangian' (docs/lagrangian-as-data.md). */
export interface LagrangianDefinition {
  coordinates: readonly string[];
  constants?: Record<string, number>;
  /** L(q, q'): velocities as q' or qdot. */
  lagrangian: string;
  /** Holonomic constraints g(q) = 0. */
  constraints?: readonly string[];
  /** c ≥ 0: the generalized force −c q'. */
  damping?: number;
  /** Generalized forces Q_i(q, q', t), one expression per coordinate. */
  forces?: readonly (string | number)[];
  /** name → expression in q, q', t, reported and plotted. */
  conserved?: Record<string, string>;
  /** name → generator ξ(q), one expression per coordinate; reports the discrete Noether momentum p·ξ(q). */
  symmetries?: Record<string, readonly (string | number)[]>;
  /** What the page draws: bodies, and furniture (a hoop, a wire, a floor …). */
  bodies?: readonly (LagrangianBody | LagrangianFurniture)[];
}

/** A rigid body of a mechanism: its centre of mass, principal frame, motion and drawn shape (SI units). */
export interface MechanismBody {
  name?: string;
  mass: number;
  /** Principal moments about the centre of mass [I1, I2, I3] (triangle inequality), or a full symmetric 3×3 tensor. */
  inertia: NumberList | readonly NumberList[];
  /** Centre of mass, space frame. */
  position?: NumberList;
  /** Unit quaternion [w, x, y, z] of the body frame. */
  orientation?: NumberList;
  /** Centre-of-mass velocity, space frame. */
  velocity?: NumberList;
  /** Angular velocity, body frame. */
  omega?: NumberList;
  /** Sizes (m): box sides; capsule or cylinder radius and length (along z); sphere radius; tee crossbar (along y) and shaft (along z) lengths, thickness. */
  shape?: { type: 'box' | 'capsule' | 'cylinder' | 'sphere' | 'tee'; size?: NumberList };
  /** An applied torque [τx, τy, τz]: expressions in the bodies' x<i>, y<i>, z<i>, R<i>_jk and t. */
  torque?: readonly [string, string, string];
  /** The frame of torque; default 'body'. */
  torqueFrame?: 'body' | 'space';
  /** c ≥ 0 (N·m·s): the damping torque −c ω, body frame; default 0. */
  damping?: number;
  /** c ≥ 0 (N·s/m): the damping force −c ẋ on the centre of mass, space frame; default 0. */
  linearDamping?: number;
}

/** A joint between two bodies (or a body and the world): a ball, a hinge (adds an axis) or fixed. */
export interface MechanismJoint {
  type: 'ball' | 'hinge' | 'fixed';
  /** A body's name or index, or 'world' (the default). */
  parent?: string | number;
  child: string | number;
  /** The joint's point in the parent's frame (the world's for 'world') and in the child's. */
  parentPoint?: NumberList;
  childPoint?: NumberList;
  /** A hinge's axis in the parent's and the child's frames. */
  parentAxis?: NumberList;
  childAxis?: NumberList;
}

/** The params of system 'mechanism' (SystemInfo.paramsSchema is their JSON Schema). */
export interface MechanismDefinition {
  /** m/s², space frame; default [0, 0, -9.81]. */
  gravity?: NumberList;
  /** A potential V(x, R, t) (J) added to gravity's: an expression in the bodies' x<i>, y<i>, z<i>, R<i>_jk and t. */
  potential?: string;
  bodies: readonly MechanismBody[];
  joints?: readonly MechanismJoint[];
}

/** The params of system 'field' (SystemInfo.paramsSchema is their JSON Schema). */
export interface FieldDefinition {
  /** A built-in family and its coefficients, or ℒ(u, u_t, u_x, x) typed as text. */
  density: {
    family?: 'wave' | 'klein-gordon' | 'sine-gordon' | 'phi4';
    lagrangian?: string;
    rho?: number;
    kappa?: number;
    mass?: number;
    lambda?: number;
  };
  /** The grid: length, points (at most 4096), ends. */
  grid: { length?: number; points: number; ends?: 'fixed' | 'free' | 'periodic' };
  /** Named numbers the texts may use. */
  constants?: Record<string, number>;
}

/** lab.inspectLagrangian(params): the editor's view of a definition. */
export interface LagrangianInspection {
  coordinates: string[];
  latex: { lagrangian: string; constraints: string[] };
  params: LagrangianDefinition;
  velocityQuadratic: boolean;
  constantMassMatrix: boolean;
}

/** The normalized scenario that sim.scenario() and lab.normalize() return: every field filled in. */
export interface NormalizedScenario {
  system: SystemId;
  integrator: IntegratorId;
  h: number;
  params: Record<string, number | number[]> | LagrangianDefinition | MechanismDefinition | FieldDefinition;
  initial: Record<string, number | number[] | number[][] | Expression>;
  options: Record<string, number | number[]>;
}

/** A parameter of a system or an option of an integrator, with its default, unit and valid range. */
export interface ParamInfo {
  readonly name: string;
  readonly title: string;
  readonly unit: string;
  readonly description: string;
  /** 'number': one number; 'per-body': an array of minCount..maxCount numbers; 'vector3': 3 numbers. */
  readonly kind: 'number' | 'per-body' | 'vector3';
  readonly default: number | readonly number[];
  /** Valid range of each number: (min, max] when minExclusive, else [min, max]. */
  readonly min: number;
  readonly max: number;
  readonly minExclusive: boolean;
  /** 'number' only: whole numbers (a choice among variants). */
  readonly integer?: boolean;
  /** What the parameter is, where the page needs to know (the controls' gravity presets, the scenes' inertia). */
  readonly quantity?: Quantity;
  readonly minCount?: number;
  readonly maxCount?: number;
}

/** A field of a system's initial data. */
export interface FieldInfo {
  readonly name: string;
  readonly title: string;
  readonly unit: string;
  readonly description: string;
}

/** A condition under which an exact solution holds: a number of the normalized scenario (each of an array's) equal to, or above, a value. */
export type ExactCondition = { readonly field: string; readonly equals: number } | { readonly field: string; readonly above: number };

/** SystemInfo.exact: which exact solution the core knows for a system, and when it holds. */
export interface ExactInfo {
  readonly solution: ExactSolutionKind;
  /** All must hold (e.g. { field: 'params.damping', equals: 0 }); lab.exact checks them. */
  readonly requires: readonly ExactCondition[];
}

/** SystemInfo.definition: the documentation of a system defined by data (its params). */
export interface DefinitionInfo {
  /** The fields of a definition; their words (title, description) are left out of the lean build. */
  readonly fields: readonly { readonly name: string; readonly title?: string; readonly description?: string }[];
  /** The functions expressions may call. */
  readonly functions: readonly string[];
  /** Left out of the lean build. */
  readonly notes?: string;
  /** Limits of a definition (maxExpressionBytes, maxDepth, maxCoordinates, …). */
  readonly limits: Readonly<Record<string, number>>;
}

/** A system, as described by the C++ registry. */
export interface SystemInfo {
  readonly id: SystemId;
  readonly title: string;
  readonly description: string;
  /** The model behind it: pendulums and chains share 'chain'; the free body and the heavy top 'rigid-body'; systems defined by data 'lagrangian'. */
  readonly model: ModelKind;
  /** Which scene draws it: 'linkage' (pendulums, chains), 'oscillator', 'rigid' (free body), 'top' (heavy top), 'bodies' (defined by data). */
  readonly view: ViewKind;
  /** What its canonical state is: 'cotangent' (positions and conjugate momenta) or 'quaternion' (unit quaternion and Π). */
  readonly state: StateKind;
  /** Its exact solution and the conditions it needs, or null (lab.exact). */
  readonly exact: ExactInfo | null;
  readonly params: readonly ParamInfo[];
  readonly initialFields: readonly FieldInfo[];
  readonly defaultIntegrator: IntegratorId;
  /** Valid time steps: [min, max] s; min is the smallest step every integrator of it can take (1e-12 s; 1e-5 s for the rigid bodies), max is measured (the largest h any of its integrators takes on the default scenario). */
  readonly h: {
    readonly default: number;
    readonly min: number;
    readonly max: number;
    readonly minExclusive: boolean;
    readonly unit: string;
    /** The largest h of each of its integrators (s; 0: it breaks down at every step measured). */
    readonly maxByIntegrator: Readonly<Partial<Record<IntegratorId, number>>>;
  };
  /** The complete default scenario of this system. */
  readonly defaults: Readonly<NormalizedScenario>;
  /** Ids of the integrators that apply to this system. */
  readonly integrators: readonly IntegratorId[];
  /** Systems defined by data: what their params may hold. */
  readonly definition?: DefinitionInfo;
  /** Its params are data (a definition, a mechanism) and travel whole: share links carry them as def=. */
  readonly dataParams?: boolean;
  /** Systems whose params are data without a definition's documentation (a mechanism): their JSON Schema (draft-07). */
  readonly paramsSchema?: Readonly<Record<string, unknown>>;
  /** What the lean build (the page's first load) runs of this system: the system itself and which integrators. */
  readonly lean: { readonly system: boolean; readonly integrators: readonly IntegratorId[] };
}

/** What an integrator claims to conserve: the words, and what they are about. */
export interface ClaimInfo {
  /** A badge applies where the run's description lists this kind in `structures`. */
  readonly kind: ClaimKind;
  readonly text: string;
}

/** An integrator, as described by the C++ registry. */
export interface IntegratorInfo {
  readonly id: IntegratorId;
  readonly title: string;
  readonly family: IntegratorFamily;
  readonly order: number;
  /** Claims checked by the property tests: symplectic one-step map; time-reversible (symmetric). */
  readonly symplectic: boolean;
  readonly symmetric: boolean;
  /** What it conserves, in words (e.g. 'symplectic form', 'momentum map'); empty for baselines. */
  readonly conserves: readonly string[];
  /** Ids of the systems it applies to. */
  readonly systems: readonly SystemId[];
  readonly summary: string;
  /** Why it conserves what it conserves: a paragraph. Left out of the lean build (as are equations and citation). */
  readonly docs?: string;
  /** LaTeX. */
  readonly equations?: string;
  readonly citation?: string;
  readonly options: readonly ParamInfo[];
  /** `conserves`, each with its kind (from the core). */
  readonly claims: readonly ClaimInfo[];
  /** Models forcing (damping, torque, a driving force) on every system it applies to; the others refuse a forced system. */
  readonly forces: boolean;
  /** The systems on which it models forcing (all of `systems` when `forces`); on the others a forced scenario is refused, naming `integrator`. */
  readonly forcedSystems: readonly SystemId[];
  /** Chooses its own step sizes (sim.time is their sum; the history has a column 'dt'). */
  readonly variableStep: boolean;
  /** The systems on which sim.linearize() gives its step's Jacobian (the others refuse it). */
  readonly linearizes: readonly SystemId[];
}

/** lab.vocabulary: the closed lists of ids, from the registry (the unions of ids.d.ts). */
export interface Vocabulary {
  readonly models: readonly ModelKind[];
  readonly views: readonly ViewKind[];
  readonly states: readonly StateKind[];
  readonly exactSolutions: readonly ExactSolutionKind[];
  readonly families: readonly IntegratorFamily[];
  readonly claimKinds: readonly ClaimKind[];
  readonly quantities: readonly Quantity[];
  readonly refusalCodes: readonly RefusalCode[];
  readonly suggestionActions: readonly SuggestionAction[];
  readonly inputErrorCodes: readonly InputErrorCode[];
}

/** Options of lab.simulate(). */
export interface SimulateOptions {
  /** Record a history sample every this many steps (1..1e6; default 1). */
  historyStride?: number;
  /** Samples the history ring holds (1..1048576; default 32768). */
  historyCapacity?: number;
}

/** The core's limits, published by the registry. */
export interface Limits {
  readonly manifoldTolerance: number;
  readonly maxScenarioBytes: number;
  readonly maxScenarioDepth: number;
  readonly historyStride: { readonly min: number; readonly max: number };
  readonly historyCapacity: { readonly min: number; readonly max: number; readonly default: number };
  readonly budgetMs: { readonly min: number; readonly max: number };
  readonly maxStateSize: number;
  readonly maxLinks: number;
  /** The most steps of one call or one CLI run: 2^53 − 1. */
  readonly maxSteps: number;
  /** The exact rigid body is evaluated for |t| up to this (s). */
  readonly maxExactTime: number;
  /** The most numbers (samples × columns) one lab.integrate() call returns. */
  readonly maxTrajectoryValues: number;
}

/** A diagnostic lab.integrate() can record beside t, q and p. */
export type TrajectoryDiagnostic = 'energy' | 'constraint' | 'iterations' | 'momentum' | 'conserved' | 'bodyMomentum' | 'dt';

/** One equation as LaTeX, and its residual (lhs − rhs) as plain text the expression parser reads. */
export interface ShownEquation {
  latex: string;
  infix: string;
}

/** lab.equations(): the mechanics of a typed Lagrangian. */
export interface MotionEquations {
  rule: string;
  /** The rule's α (null for a rule without one). */
  alpha: number | null;
  /** Every rule equations() can show (lab.equationRules). */
  rules: string[];
  coordinates: string[];
  /** The constants appear by name (else by value: too many variables to name). */
  symbolicConstants: boolean;
  /** p_i = ∂L/∂q̇_i (infix: ∂L/∂q̇_i). */
  momenta: ShownEquation[];
  /** ∂²L/∂q̇_i∂q̇_j, row-major (latex and infix: the entry). */
  mass: ShownEquation[];
  massLatex: string;
  /** One per coordinate (infix: accelerations as q'', multipliers lambda1…), then g_a(q) = 0. */
  eulerLagrange: ShownEquation[];
  /** The discrete Euler–Lagrange equations (infix: q_km1, q_k, q_kp1, h, t_k), then g_a(q_{k+1}) = 0. */
  discrete: ShownEquation[];
  /** Everything as one LaTeX aligned block (the editor's Copy). */
  latex: string;
}

/** Options of lab.integrate(). */
export interface IntegrateOptions {
  /** Steps to take (0..2^53 − 1). */
  steps: number;
  /** A sample at every every-th step, and at step 0 (default 1). */
  every?: number;
  /** Diagnostics to record (default none); one this run lacks ('dt' of a fixed step) is an error. */
  include?: readonly TrajectoryDiagnostic[];
}

/** lab.integrate(): column arrays, sample k at step k·every (copies, owned by the caller). */
export interface Trajectory {
  samples: number;
  t: Float64Array;
  /** One array per canonical coordinate (as sim.q). */
  q: Float64Array[];
  /** One array per canonical momentum (as sim.p). */
  p: Float64Array[];
  energy?: Float64Array;
  constraint?: Float64Array;
  iterations?: Float64Array;
  /** The step sizes (variable-step integrators). */
  dt?: Float64Array;
  momentum?: Float64Array[];
  bodyMomentum?: Float64Array[];
  conserved?: Record<string, Float64Array>;
  /** Every column by name: 't', 'q[0]', …, 'p[0]', …, 'energy', 'momentum.z', … */
  columns: Record<string, Float64Array>;
  /** The refused step that ended the run early (the samples before it are kept), or null. */
  refusal: VilabError | null;
}

/** sim.diagnostics(): the current values, computed in C++. */
export interface Diagnostics {
  energy: number;
  /** Components of the conserved momentum map (J_z for pendulums: 1; rigid bodies: 3; none: 0). */
  momentum: number[];
  /** Constraint residual (system units; 0 for unconstrained systems). */
  constraint: number;
  /**
   * Newton iterations of the last step (substeps for dopri5; for the explicit baselines
   * on constrained systems, the iterations of their projection onto the manifold, else 0).
   */
  iterations: number;
  /** Body angular momentum Π (rigid bodies only). */
  bodyMomentum?: [number, number, number];
  /** Systems defined by data: the declared conserved quantities by name. */
  conserved?: Record<string, number>;
  /** Kinetic and potential energy, where the system separates them (RunDescription.energyParts). */
  kinetic?: number;
  potential?: number;
}

/** Copies of history samples [start, start + count). */
export interface HistorySamples {
  /** Index of the first sample (samples are numbered from 0 since the start or the last setState). */
  start: number;
  count: number;
  t: Float64Array;
  energy: Float64Array;
  constraint: Float64Array;
  iterations: Float64Array;
  /** One array per momentum component. */
  momentum: Float64Array[];
  /** Rigid bodies: one array per component of Π. */
  bodyMomentum?: Float64Array[];
  /** Systems defined by data: each declared conserved quantity by name. */
  conserved?: Record<string, Float64Array>;
  /** Every column by its name (history.columns). */
  columns: Record<string, Float64Array>;
}

/** The diagnostic time series recorded in C++ every `stride` steps, in a ring of `capacity` samples. */
export interface History {
  readonly columns: string[];
  readonly stride: number;
  readonly capacity: number;
  /** Samples recorded so far (monotone until setState). */
  readonly total: number;
  /** Index of the oldest sample still held. */
  readonly oldest: number;
  /** Copies of samples [max(from, oldest), total). */
  read(from?: number): HistorySamples;
}

/**
 * A canonical state for setState, whatever the integrator: pendulums and chains q =
 * Cartesian bob positions, p = their momenta; oscillator [x], [m ẋ]; rigid bodies q =
 * unit quaternion [w, x, y, z], p = body angular momentum Π.
 */
export interface State {
  q: ArrayLike<number>;
  p: ArrayLike<number>;
}

/** A recorded quantity of a run: conserved (by this scenario's exact flow) or not, and why. */
export interface RunQuantity {
  key: string;
  symbol: string;
  title: string;
  unit: string;
  /** History columns; with combine 'norm', the quantity is their Euclidean norm. */
  columns: string[];
  combine?: 'norm';
  conserved: boolean;
  why: string;
}

/** A natural variable (an angle, a rate, a component of Π, a coordinate of a system defined by data). */
export interface RunVariable {
  key: string;
  symbol: string;
  title: string;
  /** The title's key in the page's catalogue (web/i18n/<lang>/words.js) and its slots, for other languages. */
  titleKey?: string;
  titleVars?: Record<string, string | number>;
  unit: string;
  kind: 'angle' | 'rate' | 'position' | 'velocity' | 'momentum' | 'other';
}

/** sim.describe(). */
export interface RunDescription {
  quantities: RunQuantity[];
  /** Holonomic constraints exist (the residual is meaningful). */
  constrained: boolean;
  /** A length to express the residual relatively (the shortest link), else 1. */
  constraintScale: number;
  /** What the constraint is, for messages: the links of a chain, R being a rotation, a data system's surface g(q) = 0. */
  constraintWhat: 'links' | 'rotation' | 'surface' | 'none';
  variables: RunVariable[];
  /** The default phase-portrait pair, as indices into variables. */
  phase: [number, number];
  energyParts: boolean;
  /** The claim kinds that apply to this system. */
  structures: ClaimKind[];
}

export interface Simulation {
  /** The normalized scenario (a fresh object). */
  scenario(): NormalizedScenario;
  /**
   * Takes exactly n steps in one wasm call. Throws VilabError (with .step, .code,
   * .reason, .suggestion, .stepsTaken) on a refused step; the state stays at the last
   * good step.
   */
  advance(n?: number): void;
  /** Up to maxSteps steps within budgetMs of wall-clock time (interactive use). Throws like advance(). */
  advanceFor(limits: { maxSteps: number; budgetMs: number }): { steps: number; done: boolean };
  /** step × h, s. */
  readonly time: number;
  readonly step: number;
  /** Canonical positions (a copy that owns its buffer; see State). */
  readonly q: Float64Array;
  /** Canonical momenta (a copy that owns its buffer; see State). */
  readonly p: Float64Array;
  diagnostics(): Diagnostics;
  /** Bob positions [x, y, z, …] or the orientation quaternion [w, x, y, z] (a copy). */
  visualState(): Float64Array;
  /** What this run's numbers mean: which quantities its exact flow conserves, its natural variables. */
  describe(): RunDescription;
  /** The natural variables now, in describe().variables order (radians, SI units). */
  variables(): Float64Array;
  /** Replaces (q, p); restarts step and history at 0. Throws when off the constraint manifold. */
  setState(state: State): void;
  /**
   * ∂(q_{k+1}, p_{k+1})/∂(q_k, p_k) of the next step, from the integrator's own derivatives:
   * (2n)² numbers, row-major, q first (chains: n degrees of freedom, in a symplectic tangent basis).
   * Throws where the integrator's `linearizes` lacks the system.
   */
  linearize(): Float64Array;
  /**
   * Fields: the local multisymplectic law's residual on the dual cell of every node over the
   * next two steps (relative to its terms), for the discrete density `law`; the run is unchanged.
   * Throws (field 'integrator') for DOPRI5, the AVI and systems that are not fields.
   */
  lawResidual(): { law: 'midpoint' | 'trapezoid'; max: number; nodes: Float64Array };
  /** Fields: c², V'' and ρ per cell, linearized about rest (field_cells.hpp). */
  fieldStiffness(): { speed2: Float64Array; curvature: Float64Array; inertia: Float64Array };
  /** FNV-1a 64 of q, p (float64 LE) and step (uint64 LE), 16 hex digits; equals the native `vilab hash`. */
  hash(): string;
  readonly history: History;
  /** The CSV header / current row exactly as the native `vilab run` prints them. */
  csvHeader(): string;
  csvRow(): string;
  readonly disposed: boolean;
  /** Frees the wasm memory; idempotent. Any other use afterwards throws. */
  dispose(): void;
  /** The same as dispose(), for `using sim = lab.simulate(…)`. */
  [Symbol.dispose](): void;
}

/** Which closed form the exact free rigid body uses (see core/include/vilab/exact/free_rigid_body.hpp). */
export type ExactRigidBodyBranch = 'max-axis' | 'min-axis' | 'separatrix' | 'symmetric' | 'spherical' | 'steady';

/** What every exact solution has (lab.exact). t must be finite, |t| ≤ limits.maxExactTime. */
interface ExactSolutionBase {
  /** Which exact solution this is (lab.vocabulary.exactSolutions). */
  readonly solution: ExactSolutionKind;
  /** s; Infinity where the motion does not repeat. */
  readonly period: number;
  /** The state at t in the system's canonical coordinates (as sim.q, sim.p). */
  state(t: number): { q: number[]; p: number[] };
  readonly disposed: boolean;
  /** Frees the wasm memory; idempotent. Any other use afterwards throws (code 'disposed'). */
  dispose(): void;
  /** The same as dispose(), for `using exact = lab.exact(…)`. */
  [Symbol.dispose](): void;
}

/** The exact harmonic oscillator m ẍ = −k x. */
export interface ExactOscillator extends ExactSolutionBase {
  readonly solution: 'oscillator';
  /** 2π/ω, s. */
  readonly period: number;
  /** [x(t), ẋ(t)] (a fresh array). */
  at(t: number): [number, number];
  /** q = [x], p = [m ẋ]. */
  state(t: number): { q: [number]; p: [number] };
}

/** The exact solution of a free rigid body (Jacobi elliptic functions). */
export interface ExactRigidBody extends ExactSolutionBase {
  readonly solution: 'rigid-body';
  /** Period of Π(t), s: 4K/λ (generic), 2π/|ν| (symmetric); Infinity when Π is constant or on the separatrix. */
  readonly period: number;
  readonly branch: ExactRigidBodyBranch;
  /** Body angular momentum Π(t) = [Π1, Π2, Π3] (a fresh array). */
  Pi(t: number): [number, number, number];
  /** Orientation quaternion [w, x, y, z] (body → space) at t; orientation(0) is the normalized initial one. */
  orientation(t: number): [number, number, number, number];
  /** q = the orientation quaternion, p = Π. */
  state(t: number): { q: [number, number, number, number]; p: [number, number, number] };
}

/** The exact planar pendulum θ'' = −(g/l) sin θ (Jacobi elliptic functions). */
export interface ExactPendulum extends ExactSolutionBase {
  readonly solution: 'pendulum';
  /** s: 4K(k²)/w when it swings, 2K(1/k²)/(k w) per turn when it turns over; Infinity on the separatrix. */
  readonly period: number;
  readonly regime: 'libration' | 'separatrix' | 'rotation';
  /** k = √(sin²(θ₀/2) + θ̇₀² l/(4g)). */
  readonly modulus: number;
  /** [θ(t), θ'(t)] (a fresh array). */
  at(t: number): [number, number];
  /** The bob's position q and momentum p. */
  state(t: number): { q: [number, number, number]; p: [number, number, number] };
}

/** lab.exact(scenario): one of the exact solutions, told apart by `solution`. */
export type ExactSolution = ExactOscillator | ExactPendulum | ExactRigidBody;

export interface Lab {
  readonly version: string;
  /** Which build this lab runs: see CreateLabOptions.build. */
  readonly build: 'full' | 'lean';
  readonly systems: readonly SystemInfo[];
  readonly integrators: readonly IntegratorInfo[];
  /** The core's limits (history, budgets, sizes, steps), published by the registry: option validation enforces exactly these. */
  readonly limits: Limits;
  /** The closed lists of ids: models, views, codes, actions, … (frozen). */
  readonly vocabulary: Vocabulary;
  system(id: SystemId): SystemInfo;
  system(id: string): SystemInfo | undefined;
  integrator(id: IntegratorId): IntegratorInfo;
  integrator(id: string): IntegratorInfo | undefined;
  /** Validates and normalizes a scenario (an object or JSON text); throws VilabError. */
  normalize(scenario: Scenario | string): NormalizedScenario;
  /**
   * The exact solution of a scenario whose system has one (SystemInfo.exact) and whose
   * conditions hold; otherwise throws VilabError with code 'no-exact-solution' naming the
   * unmet field ('system', 'params.damping', …).
   */
  exact(scenario: Scenario | string): ExactSolution;
  /**
   * The exact solution for a free rigid body (system 'rigid-body' only; otherwise throws
   * 'vilab: system: …'), built from the normalized scenario's params.inertia,
   * initial.orientation (normalized as the core does) and initial.omega, whatever its forcing.
   */
  exactRigidBody(scenario: Scenario | string): ExactRigidBody;
  /** The exact solution of an undamped planar pendulum (system 'pendulum', g > 0); throws VilabError otherwise. */
  exactPendulum(scenario: Scenario | string): ExactPendulum;
  /** The editor's view of a definition (params of system 'lagrangian'); throws VilabError { field, column? }. */
  inspectLagrangian(params: LagrangianDefinition): LagrangianInspection;
  /**
   * The trajectory of a scenario from one wasm call, bit-identical to advance(1) and
   * sim.q / sim.p; throws VilabError naming `steps`, `every` or `include[i]` on bad input
   * (or past limits.maxTrajectoryValues numbers).
   */
  integrate(scenario: Scenario | string, options: IntegrateOptions): Trajectory;
  /** The rules equations() can show ('midpoint', 'trapezoid', 'alpha'; none in the lean build). */
  readonly equationRules: readonly string[];
  /**
   * The mechanics of a definition from the core's derivative graph, simplified: p = ∂L/∂q̇,
   * the mass matrix, the Euler–Lagrange equations and the discrete Euler–Lagrange equations
   * of a rule (default midpoint), with the multipliers when there are constraints. Throws
   * VilabError naming the field (as inspectLagrangian), 'rule' or 'alpha'; 'full-module' in
   * the lean build.
   */
  equations(params: LagrangianDefinition, options?: { rule?: string; alpha?: number }): MotionEquations;
  /**
   * A MuJoCo model (MJCF, XML text) as a `mechanism` scenario (system, integrator
   * 'lie-group', h, params, about.title). Full build only (code 'full-module' in the lean
   * one); a refusal is a VilabError whose field is "mjcf line N".
   */
  importMjcf(xml: string): Scenario;
  /** The same scenario as the 2-space JSON text `vilab import` prints. */
  importMjcfText(xml: string): string;
  /** A new simulation (an object or JSON text); throws VilabError on bad input. */
  simulate(scenario: Scenario | string, options?: SimulateOptions): Simulation;
  /** The registry exactly as the native `vilab registry` prints it. */
  registryText(): string;
  /**
   * The lean build's deferred part (what the page's first frame does not run), compiled off
   * the main thread; a call that needs it before then fetches it synchronously. Resolves at
   * once for the full build.
   */
  loadDeferred(): Promise<void>;
  /** Bytes of wasm linear memory (grows, never shrinks). */
  heapBytes(): number;
  /** Bytes currently allocated by malloc in the module. */
  heapUsed(): number;
  /** Expression programs compiled to WebAssembly (full build; zeros in the lean one), counted since the module started. */
  programCounts(): ProgramCounts;
  /** false: every expression program runs on the interpreter (same bits) from its next run on; true: compiled again. */
  setCompiledPrograms(enabled: boolean): void;
}

export interface ProgramCounts {
  /** Programs compiled to WebAssembly. */
  compiled: number;
  /** Programs whose compilation failed (interpreted instead). */
  failed: number;
  /** Runs of compiled programs. */
  compiledRuns: number;
  /** Runs of the interpreter. */
  interpretedRuns: number;
  /** Whether compiled programs run (setCompiledPrograms). */
  enabled: boolean;
}

export interface CreateLabOptions {
  /**
   * 'full' (default): every system and integrator. 'lean': the page's first load, every
   * system and the common integrators; a pair it leaves out (automatic differentiation,
   * Lobatto, compositions, any Lagrangian given as data) throws a VilabError with code
   * 'full-module'. Pairs both builds run give the same bits. One lab per build.
   */
  build?: 'full' | 'lean';
  /** The bytes of vilab.wasm (Node reads them from disk by itself). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** As for any emscripten module: where to find vilab.wasm. */
  locateFile?: (path: string, prefix: string) => string;
  /** The lean build's second part fetched and compiled beside its first (see Lab.loadDeferred); default false. */
  loadDeferred?: boolean;
}

/** Loads the WebAssembly core once; later calls return the same lab (conflicting options reject). */
export function createLab(options?: CreateLabOptions): Promise<Lab>;

/**
 * Every error thrown by the API; message 'vilab: <field>: <problem>' or 'vilab: step k refused: …'.
 * Exported so that callers can tell the API's errors from others (`e instanceof VilabError`).
 */
export class VilabError extends Error {
  /** The offending field for bad input, e.g. 'params.masses[1]'. */
  readonly field?: string;
  /** Where in an expression the problem is (1-based, in characters), e.g. for 'params.lagrangian'. */
  readonly column?: number;
  /** For a refused step: its number (the state stays at step - 1). */
  readonly step?: number;
  /**
   * What went wrong, one of lab.vocabulary: a refused step's code (refusalCodes), else any
   * other error's (inputErrorCodes; e.g. 'full-module': the lean build leaves this scenario out).
   */
  readonly code: VilabErrorCode;
  /** For a refused step: what it suggests, for a program to act on (e.g. 'reduce-h'). */
  readonly action?: SuggestionAction;
  /** For a refused step: why, in plain words. */
  readonly reason?: string;
  /** For a refused step: what to do, in words, e.g. 'reduce h'. */
  readonly suggestion?: string;
  /** For a refused step: steps taken by this advance() call before it. */
  readonly stepsTaken?: number;
}

/** VilabError.code: a refused step's code, or any other error's (lab.vocabulary.inputErrorCodes). */
export type VilabErrorCode = RefusalCode | InputErrorCode;
/** Scenario text limit (bytes): 4 MiB, as lab.limits.maxScenarioBytes; exported for use before a lab is loaded. */
export const MAX_SCENARIO_BYTES: number;
/** User text as messages show it: each control character (C0, DEL, C1) as \u00XX, as the core writes them. */
export function escapeControl(text: string): string;
