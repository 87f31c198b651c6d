// MuJoCo as integrator B of a mechanism: its official wasm build (npm @mujoco/mujoco,
// ≈ 10 MB) is imported only when a MuJoCo method is chosen, never in the first load.
// The mechanism goes to MuJoCo as MJCF (web/sim/mjcf-export.js); after every step
// MuJoCo's state is mapped back to the mechanism's canonical state and measured by a vilab
// simulation of the same scenario (setState, then its own diagnostics), so energy,
// momentum and joint error of both runs come from the same code, and the view draws B's
// bodies from the same visual state. The object below has the subset of vilab's
// Simulation that the runner, the plots and the view read.
import { EXTERNAL_B } from './external-b.js';
import { mechanismToMjcf, mjcfRefusal, mujocoToCanonical } from './mjcf-export.js';

export const MUJOCO_MEGABYTES = 10; // mujoco.wasm's size (MB), in the loading status (its test reads the file)

/** The MuJoCo methods offered as B (web/sim/external-b.js). */
export const MUJOCO_METHODS = EXTERNAL_B.filter((e) => e.engine === 'MuJoCo');

/** Why MuJoCo cannot run this scenario (a sentence naming the field), or null. */
export function mujocoRefusal(scenario) {
  const why = mjcfRefusal(scenario);
  return why ? `${why.field}: ${why.reason}` : null;
}

let loading = null;

/** MuJoCo's module, loaded once on demand (a failed load may be retried). */
export function loadMujoco() {
  loading ??= import('@mujoco/mujoco')
    .then(({ default: load }) => load())
    .catch((e) => {
      loading = null;
      throw e;
    });
  return loading;
}

/** An integrator record for B's labels and badges (registry-shaped: title, family, order, symplectic). */
export function mujocoIntegrator(method, title) {
  return {
    id: method.id,
    title,
    summary: '',
    family: 'baseline',
    order: method.order,
    symplectic: false,
    symmetric: false,
    variableStep: false,
    conserves: [],
    claims: [],
    systems: method.systems,
  };
}

/** B for the runner (web/sim/runner.js sourceOf): MuJoCo running A's scenario with `method`. Throws the refusal. */
export function mujocoSource(mj, lab, scenario, method, title) {
  const why = mujocoRefusal(scenario);
  if (why) throw new Error(`vilab: ${why}`);
  return {
    scenario,
    integrator: mujocoIntegrator(method, title),
    simulate: (historyCapacity) => new MujocoSimulation(mj, lab, scenario, method, { historyCapacity }),
  };
}

/** A ring of history rows with vilab's History.read shape. */
class RowHistory {
  constructor(columns, capacity) {
    this.columns = columns;
    this.capacity = capacity;
    this.stride = 1;
    this.total = 0;
    this.rows = new Array(capacity);
  }
  get oldest() {
    return Math.max(0, this.total - this.capacity);
  }
  push(row) {
    this.rows[this.total % this.capacity] = row;
    this.total++;
  }
  read(from = 0) {
    const start = Math.max(from, this.oldest);
    const count = Math.max(0, this.total - start);
    const columns = {};
    this.columns.forEach((name, c) => {
      const a = new Float64Array(count);
      for (let i = 0; i < count; i++) a[i] = this.rows[(start + i) % this.capacity][c];
      columns[name] = a;
    });
    const group = (prefix) => this.columns.filter((n) => n.startsWith(prefix)).map((n) => columns[n]);
    const out = { start, count, t: columns.t, energy: columns.energy, constraint: columns.constraint, iterations: columns.iterations };
    out.momentum = group('momentum');
    const body = group('bodyMomentum.');
    if (body.length) out.bodyMomentum = body;
    out.columns = columns;
    return out;
  }
}

/** MuJoCo running `scenario` with `method` (MUJOCO_METHODS), measured by vilab. Throws the refusal when it cannot. */
export class MujocoSimulation {
  constructor(mj, lab, scenario, method, { historyCapacity = 32768 } = {}) {
    const { xml, layout } = mechanismToMjcf(scenario, { integrator: method.method });
    this.mj = mj;
    this.layout = layout;
    this.h = scenario.h;
    this.step = 0;
    this.m = mj.MjModel.from_xml_string(xml);
    this.d = new mj.MjData(this.m);
    mj.mj_resetDataKeyframe(this.m, this.d, 0);
    // vilab's meter: the same scenario, its state set to MuJoCo's each step
    this.meter = lab.simulate(scenario, { historyStride: 1, historyCapacity: 2 });
    this._scenario = scenario;
    this.history = new RowHistory(this.meter.history.columns, historyCapacity);
    this.#measure();
  }
  get time() {
    return this.step * this.h; // A's sample times exactly (MuJoCo's d.time adds h each step)
  }
  /** MuJoCo's state as the mechanism's canonical one (mj_kinematics: the step leaves the poses of its start). */
  canonical() {
    const { mj, m, d } = this;
    mj.mj_kinematics(m, d);
    return mujocoToCanonical(this.layout, { xpos: d.xpos, xquat: d.xquat, xanchor: d.xanchor, xaxis: d.xaxis, qvel: d.qvel });
  }
  #measure() {
    const state = this.canonical();
    this.q = state.q;
    this.p = state.p;
    const finite = state.q.every(Number.isFinite) && state.p.every(Number.isFinite);
    if (!finite) {
      this.history.push(this.history.columns.map((n) => (n === 't' ? this.time : Number.NaN)));
      this.diag = { energy: Number.NaN, momentum: [], constraint: Number.NaN, iterations: 0 };
      return;
    }
    this.meter.setState(state);
    const read = this.meter.history.read(this.meter.history.total - 1);
    this.history.push(this.history.columns.map((n) => (n === 't' ? this.time : read.columns[n][0])));
    this.diag = this.meter.diagnostics();
    this.visual = this.meter.visualState();
  }
  advance(n = 1) {
    for (let i = 0; i < n; i++) {
      this.mj.mj_step(this.m, this.d);
      this.step++;
      this.#measure();
      if (!Number.isFinite(this.diag.energy)) break;
    }
  }
  advanceFor({ maxSteps, budgetMs }) {
    const t0 = performance.now();
    let steps = 0;
    while (steps < maxSteps && performance.now() - t0 < budgetMs) {
      this.advance(1);
      steps++;
    }
    return { steps, done: steps === maxSteps };
  }
  diagnostics() {
    return this.diag;
  }
  visualState() {
    return this.visual ? this.visual.slice() : new Float64Array(this.q.length).fill(Number.NaN);
  }
  describe() {
    return this.meter.describe();
  }
  variables() {
    return this.meter.variables();
  }
  scenario() {
    return structuredClone(this._scenario);
  }
  dispose() {
    this.meter.dispose();
    this.m.delete();
    this.d.delete();
  }
}
