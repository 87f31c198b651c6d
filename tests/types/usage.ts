// Compiled by `tsc --noEmit -p tests/types` (scripts/test.mjs, layer "types"):
// a usage of every public declaration in web/sim/vilab.d.ts, imported the way
// users import it (the package's "exports" → types).
import {
  createLab,
  VilabError,
  MAX_SCENARIO_BYTES,
  type CreateLabOptions,
  type Trajectory,
  type MotionEquations,
  type Diagnostics,
  type ExactRigidBody,
  type ExactRigidBodyBranch,
  type ExactSolution,
  type ExactOscillator,
  type ExactInfo,
  type ClaimKind,
  type ModelKind,
  type ViewKind,
  type InputErrorCode,
  type SuggestionAction,
  type Vocabulary,
  type LagrangianDefinition,
  type LagrangianFurniture,
  type HistorySamples,
  type IntegratorInfo,
  type Lab,
  type Limits,
  type NormalizedScenario,
  type RefusalCode,
  type VilabErrorCode,
  type Scenario,
  type Simulation,
  type SimulateOptions,
  type State,
  type SystemInfo,
  type SystemId,
  type IntegratorId,
  type NumberList,
} from 'vilab';

export async function example(): Promise<string> {
  const options: CreateLabOptions = { wasmBinary: new Uint8Array(0), locateFile: (path, prefix) => prefix + path };
  const lab: Lab = await createLab(options);
  const version: string = lab.version;
  const build: 'full' | 'lean' = (await createLab({ build: 'lean' })).build;
  // @ts-expect-error: two builds only
  void createLab({ build: 'tiny' });
  void build;
  const dsp: SystemInfo | undefined = lab.system('double-spherical-pendulum');
  const mid: IntegratorInfo | undefined = lab.integrator('midpoint');
  for (const s of lab.systems) {
    const ranges = s.params.map((p) => `${p.name} [${p.unit}] ∈ (${p.min}, ${p.max}] default ${String(p.default)}`);
    const fields: string[] = s.initialFields.map((f) => f.name);
    const hMax: number = s.h.max;
    const integrators: readonly string[] = s.integrators;
    const model: ModelKind = s.model;
    const view: ViewKind = s.view;
    const exactInfo: ExactInfo | null = s.exact;
    const requires: string[] = exactInfo
      ? exactInfo.requires.map((c) => ('equals' in c ? `${c.field} = ${c.equals}` : `${c.field} > ${c.above}`))
      : [];
    const whole: boolean = s.params.some((p) => p.integer === true);
    const lean: boolean | undefined = s.lean?.system;
    const docs: readonly string[] | undefined = s.definition?.functions;
    // @ts-expect-error: model kinds are a closed set
    const notAModel: ModelKind = 'particle';
    void ranges, fields, hMax, integrators, model, view, requires, whole, lean, docs, notAModel, s.defaults.initial, s.state;
  }
  for (const i of lab.integrators) {
    const order: number = i.order;
    const family: string = i.family;
    const conserves: readonly string[] = i.conserves;
    const claims: boolean = i.symplectic && i.symmetric;
    const kinds: ClaimKind[] = i.claims.map((c) => c.kind);
    const exactEnergy: boolean = i.claims.some((c) => c.kind === 'energy');
    const adaptive: boolean = i.variableStep || i.forces;
    void order, family, conserves, claims, kinds, exactEnergy, adaptive, i.systems;
  }
  const limits: Limits = lab.limits;
  const budget: number = limits.budgetMs.min + limits.budgetMs.max;
  const capacity: number = limits.historyCapacity.default + limits.historyStride.max + limits.maxStateSize;
  // @ts-expect-error: the limits are read-only
  lab.limits.maxLinks = 3;

  const scenario: Scenario = {
    system: 'double-spherical-pendulum',
    integrator: 'midpoint',
    h: 0.01,
    params: { masses: [1, 1], lengths: [1, 1], g: 9.81 },
    initial: {
      angles: [
        [1.6, 0],
        [2.2, 0.8],
      ],
      rates: [
        [0, 1.2],
        [0, -0.6],
      ],
    },
  };
  const normalized: NormalizedScenario = lab.normalize(scenario);
  const fromText: Simulation = lab.simulate(JSON.stringify(scenario));
  // typed arrays wherever the runtime takes a list of numbers
  const typed: Scenario = {
    system: 'chain',
    params: { masses: new Float64Array([1, 2, 3]), lengths: Float32Array.of(1, 1, 1) },
    initial: { angles: [new Float64Array([0.5, 0]), [0.1, 0], Int32Array.of(0, 0)] },
  };
  // ids are the registry's union types: a known id gives a definite entry, a typo does not compile
  const known: SystemInfo = lab.system('heavy-top');
  const integratorId: IntegratorId = known.defaultIntegrator;
  const systemIds: readonly SystemId[] = lab.integrator('rk4').systems;
  // @ts-expect-error: not a system id
  const typo: Scenario = { system: 'double-spherical-pendulm' };
  // @ts-expect-error: not an integrator id
  const typo2: Scenario = { system: 'oscillator', integrator: 'rk5' };
  const list: NumberList = new Uint8Array(2);
  void list, typed, integratorId, systemIds, typo, typo2;
  fromText[Symbol.dispose]();

  const simOptions: SimulateOptions = { historyStride: 10, historyCapacity: 1024 };
  const sim: Simulation = lab.simulate(scenario, simOptions);
  sim.advance(1000);
  // @ts-expect-error: advance takes exactly n steps and returns nothing
  const taken: number = sim.advance(10);
  const { steps, done }: { steps: number; done: boolean } = sim.advanceFor({ maxSteps: 1e9, budgetMs: 8 });
  // @ts-expect-error: advanceFor needs a budget
  sim.advanceFor({ maxSteps: 10 });
  const t: number = sim.time;
  const step: number = sim.step;
  const q: Float64Array = sim.q;
  const p: Float64Array = sim.p;
  const d: Diagnostics = sim.diagnostics();
  const jz: number | undefined = d.momentum[0];
  const pi: [number, number, number] | undefined = d.bodyMomentum;
  const h: HistorySamples = sim.history.read(0);
  const energy: Float64Array = h.energy;
  const next: number = h.start + h.count;
  const cols: string[] = sim.history.columns;
  const total: number = sim.history.total + sim.history.oldest + sim.history.stride + sim.history.capacity;
  const visual: Float64Array = sim.visualState();
  const run: import('../../web/sim/vilab.js').RunDescription = sim.describe();
  const theta: number = sim.variables()[run.phase[0]];
  const conservedKeys: string[] = run.quantities.filter((q) => q.conserved).map((q) => q.key);
  void theta;
  void conservedKeys;
  const state: State = { q, p: Array.from(p) };
  sim.setState(state);
  const csv: string = sim.csvHeader() + '\n' + sim.csvRow();
  const same: NormalizedScenario = sim.scenario();
  try {
    sim.advance(1e6);
  } catch (e) {
    if (e instanceof VilabError) {
      const where: string | undefined = e.field;
      const k: number | undefined = e.step;
      const code: VilabErrorCode = e.code;
      if (code === 'full-module') void (await createLab({ build: 'full' }));
      const action: SuggestionAction | undefined = e.action;
      if (action === 'reduce-h') void lab.simulate({ ...scenario, h: 0.005 });
      const inputCodes: readonly InputErrorCode[] = lab.vocabulary.inputErrorCodes;
      void action, inputCodes;
      const why: string | undefined = e.reason;
      const fix: string | undefined = e.suggestion;
      const stepsTaken: number | undefined = e.stepsTaken;
      void where, k, code, why, fix, stepsTaken;
    }
  }
  // @ts-expect-error: refusal codes are a closed set
  const bad: RefusalCode = 'timeout';
  const digest: string = sim.hash();
  const jacobian: Float64Array = sim.linearize();
  const linearizable: readonly SystemId[] = lab.integrator('midpoint').linearizes;
  void jacobian, linearizable;
  const gone: boolean = sim.disposed;
  sim.dispose();
  const heap: number = lab.heapBytes() + lab.heapUsed() + MAX_SCENARIO_BYTES;
  const registry: string = lab.registryText();
  const exact: ExactRigidBody = lab.exactRigidBody({ system: 'rigid-body', integrator: 'lie-group', h: 0.01 });
  const period: number = exact.period;
  const branch: ExactRigidBodyBranch = exact.branch;
  const [w, x, y, z] = exact.orientation(1.5);
  const [P1, P2, P3] = exact.Pi(1.5);
  const freed: boolean = exact.disposed;
  exact.dispose();
  exact[Symbol.dispose]();
  void period, branch, w, x, y, z, P1, P2, P3, freed;
  const vocabulary: Vocabulary = lab.vocabulary;
  // @ts-expect-error: the vocabulary is read-only
  vocabulary.refusalCodes.push('timeout');
  const any: ExactSolution = lab.exact({ system: 'oscillator' });
  const { q: q0, p: p0 }: { q: number[]; p: number[] } = any.state(0);
  if (any.solution === 'oscillator') {
    const osc: ExactOscillator = any;
    const [x0, v0]: [number, number] = osc.at(1);
    void x0, v0;
  } else if (any.solution === 'pendulum') {
    const regime: string = any.regime;
    void regime;
  } else {
    const axis: ExactRigidBodyBranch = any.branch;
    void axis;
  }
  any[Symbol.dispose]();
  void q0, p0;
  // @ts-expect-error: t is a number
  exact.Pi('1');
  void version, dsp, mid, normalized, t, step, jz, pi, energy, next, cols, total, visual, csv, same, gone;
  void heap, registry, budget, capacity, taken, steps, done, bad;
  // @ts-expect-error: system is required
  lab.normalize({ h: 0.01 });
  // @ts-expect-error: q is read-only
  sim.q = new Float64Array(3);
  // @ts-expect-error: options are numbers
  lab.simulate(scenario, { historyStride: '10' });
  // @ts-expect-error: the time budget is no simulate() option any more (advanceFor takes it)
  lab.simulate(scenario, { timeBudgetMs: 20 });
  // @ts-expect-error: there is no per-call step cap any more
  void sim.maxAdvance;
  return digest;
}

/** A definition with furniture: a hoop that turns, a rail, a curve (the bodies' union). */
export function furniture(): LagrangianDefinition {
  const hoop: LagrangianFurniture = { kind: 'hoop', radius: 'R', axis: [0, 0, 1], angle: 'w*t' };
  const rail: LagrangianFurniture = {
    kind: 'wire',
    points: [
      [-1, 0, 0],
      [1, 0, '0'],
    ],
    closed: false,
  };
  const curve: LagrangianFurniture = { kind: 'curve', curve: ['s', '0', 's^2'], range: [-1, 1], samples: 32 };
  // @ts-expect-error: a hoop needs its radius
  const bad: LagrangianFurniture = { kind: 'hoop' };
  void bad;
  return {
    coordinates: ['th'],
    constants: { R: 1, w: 5 },
    lagrangian: "th'^2/2",
    bodies: [
      { position: ['R*sin(th)', '0', '-R*cos(th)'], anchor: [0, 0, 0], link: 'none' },
      hoop,
      rail,
      curve,
      { kind: 'floor', size: 2 },
    ],
  };
}

/** A trajectory from one call, and the equations of a definition. */
export function trajectoryAndEquations(lab: Lab): number {
  const traj: Trajectory = lab.integrate({ system: 'pendulum' }, { steps: 100, every: 10, include: ['energy', 'momentum'] });
  // @ts-expect-error: not a diagnostic
  lab.integrate({ system: 'pendulum' }, { steps: 1, include: ['enrgy'] });
  const x0: number = traj.q[0][0];
  const e: number | undefined = traj.energy?.[traj.samples - 1];
  const refused: number | undefined = traj.refusal?.step;
  const eq: MotionEquations = lab.equations({ coordinates: ['x'], lagrangian: "x'^2/2 - x^2/2" }, { rule: 'alpha', alpha: 0.25 });
  const texts: string[] = [...eq.momenta, ...eq.eulerLagrange, ...eq.discrete].map((x) => x.latex);
  return x0 + (e ?? 0) + (refused ?? 0) + texts.length + lab.limits.maxTrajectoryValues;
}
