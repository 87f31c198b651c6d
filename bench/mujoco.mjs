// vilab against MuJoCo's official wasm build (npm @mujoco/mujoco, a benchmark-only dev
// dependency), in the same Node process: the default double spherical pendulum (two
// ball joints, bobs of negligible inertia) and the free rigid body of the `dzhanibekov`
// preset (free joint, no gravity). Steps/s in process CPU time over interleaved rounds,
// and after 1000 s the relative energy error, the momentum-map error (J_z for the DSP,
// the spatial angular momentum vector for the body) and, for vilab, the constraint
// residual. MuJoCo is set up for a frictionless conservative system: contacts and the
// constraint solver disabled, no joint damping, armature, friction loss or springs, the
// Euler integrator's implicit damping off (eulerdamp), the energy flag on.
import { readFileSync } from 'node:fs';
import { cpuMs, dsp, fmt, preset, root, ROUNDS, stats } from './common.mjs';
import { conj, qmul, rotate } from '../web/sim/mjcf-export.js';

const version = () => {
  try {
    return JSON.parse(readFileSync(new URL('node_modules/@mujoco/mujoco/package.json', root))).version;
  } catch {
    return '?';
  }
};

const METHODS = ['Euler', 'RK4', 'implicit', 'implicitfast']; // MJCF keywords
const T = 1000;
const BOB_INERTIA = 1e-6; // ≈ 0: a point bob (MuJoCo needs a positive inertia)

const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.hypot(...a);
const scale = (a, s) => a.map((x) => x * s);
const sub = (a, b) => a.map((x, i) => x - b[i]);
// The rotation taking −e_z (a link hanging down) to the unit vector b.
const hangTo = (b) => {
  const q = [1 - b[2], b[1], -b[0], 0];
  return scale(q, 1 / norm(q));
};

// vilab measures the DSP's potential from the lowest configuration, g·Σ m_i (z_i + l_1 + … + l_i).
export const DSP_ENERGY_OFFSET = 9.81 * (1 + 2);

// energy: MuJoCo computes the energy in every step only with this flag; the timed runs
// leave it off, the accuracy runs need it.
const OPTIONS = (gravity, integrator, energy) =>
  `<option timestep="0.01" gravity="0 0 ${-gravity}" integrator="${integrator}">` +
  `<flag energy="${energy ? 'enable' : 'disable'}" contact="disable" constraint="disable" eulerdamp="disable"/></option>`;

/** MuJoCo model + data of vilab's DSP state (q = bob positions, p = bob momenta, unit masses and lengths). */
export function dspModel(mj, integrator, q, p, { energy = true, bobInertia = BOB_INERTIA } = {}) {
  const I = `${bobInertia} ${bobInertia} ${bobInertia}`;
  const xml = `<mujoco>${OPTIONS(9.81, integrator, energy)}<worldbody>
    <body name="link1"><joint type="ball" damping="0" armature="0"/>
      <inertial pos="0 0 -1" mass="1" diaginertia="${I}"/>
      <body name="link2" pos="0 0 -1"><joint type="ball" damping="0" armature="0"/>
        <inertial pos="0 0 -1" mass="1" diaginertia="${I}"/>
      </body></body></worldbody></mujoco>`;
  const m = mj.MjModel.from_xml_string(xml);
  const d = new mj.MjData(m);
  const x1 = q.slice(0, 3),
    x2 = q.slice(3, 6),
    v1 = p.slice(0, 3),
    v2 = p.slice(3, 6);
  const e1 = scale(x1, 1 / norm(x1)),
    e2 = scale(sub(x2, x1), 1 / norm(sub(x2, x1)));
  const w1 = cross(e1, v1); // ω of a unit link: e × ė (no spin about the link)
  const w2 = cross(e2, sub(v2, v1));
  const q1 = hangTo(e1),
    q2 = hangTo(e2);
  const q2rel = qmul(conj(q1), q2);
  d.qpos.set([...q1, ...q2rel]);
  // Ball joints take the angular velocity relative to the parent, in the child's frame.
  d.qvel.set([...rotate(conj(q1), w1), ...rotate(conj(q2), sub(w2, w1))]);
  return { m, d };
}

export function bodyModel(mj, integrator, inertia, omega, { energy = true } = {}) {
  const xml = `<mujoco>${OPTIONS(0, integrator, energy)}<worldbody><body name="body"><freejoint/>
    <inertial pos="0 0 0" mass="1" diaginertia="${inertia.join(' ')}"/></body></worldbody></mujoco>`;
  const m = mj.MjModel.from_xml_string(xml);
  const d = new mj.MjData(m);
  d.qvel.set([0, 0, 0, ...omega]); // a free joint's angular velocity is in the body frame
  return { m, d };
}

// Energy and angular momentum about the origin (world frame) of a MuJoCo state.
export function measure(mj, m, d) {
  mj.mj_forward(m, d);
  mj.mj_subtreeVel(m, d);
  const e = d.energy[0] + d.energy[1];
  const L = Array.from(d.subtree_angmom.slice(0, 3)); // the world body's subtree: everything, about its COM
  const c = Array.from(d.subtree_com.slice(0, 3)),
    v = Array.from(d.subtree_linvel.slice(0, 3));
  const mass = m.body_subtreemass[0];
  const Lo = L.map((x, i) => x + mass * cross(c, v)[i]);
  return { e, L: Lo };
}

const relVec = (a, b) => norm(sub(a, b)) / norm(b);

/** MuJoCo's steps per CPU-second over n steps of mj_step from d's state. */
export function mujocoStepsPerSecond(mj, m, d, n) {
  return (
    n /
    (cpuMs(() => {
      for (let i = 0; i < n; i++) mj.mj_step(m, d);
    }) /
      1000)
  );
}

// Runs 1000 s of MuJoCo, sampling every 1000 steps; blow-ups (non-finite state, the
// automatic reset on a bad acceleration, or an energy error beyond 100 %) stop it.
// `offset` moves MuJoCo's energy to vilab's zero (the lowest configuration), so that
// relative errors have the same denominator.
export function mujocoAccuracy(mj, make, momentumOf, offset, horizon = T) {
  const { m, d } = make();
  const start = measure(mj, m, d);
  start.e += offset;
  const steps = Math.round(horizon / m.opt.timestep);
  let worstE = 0,
    worstL = 0,
    blowUp = null,
    last = start;
  for (let k = 1000; k <= steps; k += 1000) {
    for (let i = 0; i < 1000; i++) mj.mj_step(m, d);
    const now = measure(mj, m, d);
    now.e += offset;
    const eErr = Math.abs(now.e - start.e) / Math.abs(start.e);
    const t = k * m.opt.timestep;
    if (d.time < t * 0.999) blowUp = `MuJoCo reset the state (bad acceleration) before t = ${t} s`;
    else if (!Number.isFinite(eErr)) blowUp = `the state overflows before t = ${t} s`;
    else if (eErr > 1) blowUp = `energy error beyond 100 % at t = ${t} s`;
    if (blowUp) break;
    worstE = Math.max(worstE, eErr);
    worstL = Math.max(worstL, relVec(momentumOf(now.L), momentumOf(start.L)));
    last = now;
  }
  const drift = (last.e - start.e) / Math.abs(start.e);
  m.delete();
  d.delete();
  return { energy: worstE, momentum: worstL, drift, blowUp };
}

// `momentumOf` picks the conserved part of the diagnostics' momentum.
export function vilabAccuracy(lab, scenario, momentumOf = (L) => L, horizon = T) {
  const sim = lab.simulate(scenario, { historyStride: 1000000 });
  const d0 = sim.diagnostics();
  const L0 = momentumOf(Array.from(d0.momentum));
  const steps = Math.round(horizon / scenario.h);
  let worstE = 0,
    worstL = 0,
    worstG = 0;
  for (let k = 0; k < steps; k += 1000) {
    sim.advance(1000);
    const d = sim.diagnostics();
    worstE = Math.max(worstE, Math.abs(d.energy - d0.energy) / Math.abs(d0.energy));
    worstL = Math.max(worstL, relVec(momentumOf(Array.from(d.momentum)), L0));
    worstG = Math.max(worstG, Math.abs(d.constraint));
  }
  sim.dispose();
  return { energy: worstE, momentum: worstL, constraint: worstG };
}

export async function mujocoSection(lab, table) {
  let loadMujoco;
  try {
    ({ default: loadMujoco } = await import('@mujoco/mujoco'));
  } catch {
    console.log('  @mujoco/mujoco is not installed (npm ci installs it): skipped');
    return;
  }
  const mj = await loadMujoco();
  console.log(`  @mujoco/mujoco ${version()}`);
  const body = { ...preset('dzhanibekov'), integrator: 'lie-group' };
  const start = lab.simulate({ ...dsp, integrator: 'midpoint' });
  const q = Array.from(start.q),
    p = Array.from(start.p); // unit masses: p = velocities
  const e0 = start.diagnostics().energy;
  start.dispose();
  const systems = [
    {
      name: 'DSP',
      vilab: { ...dsp, integrator: 'midpoint' },
      vilabLabel: 'midpoint',
      make: (integ, options) => dspModel(mj, integ, q, p, options),
      momentumOf: (L) => [L[2]],
      goal: 10,
    },
    {
      name: 'free body',
      vilab: body,
      vilabLabel: 'lie-group',
      make: (integ, options) => bodyModel(mj, integ, body.params.inertia, body.initial.omega, options),
      momentumOf: (L) => L,
      goal: 5,
    },
  ];
  // The same start: MuJoCo's initial energy and J_z against vilab's (bob inertia ≈ 0).
  const offset = DSP_ENERGY_OFFSET;
  {
    const { m, d } = systems[0].make('RK4');
    const { e, L } = measure(mj, m, d);
    const sim = lab.simulate({ ...dsp, integrator: 'midpoint' });
    console.log(
      `  DSP start: vilab energy ${e0.toFixed(9)}, MuJoCo ${(e + offset).toFixed(9)}; J_z ${sim.diagnostics().momentum[0].toFixed(9)}, MuJoCo ${L[2].toFixed(9)} (bob inertia ${BOB_INERTIA})`,
    );
    sim.dispose();
    m.delete();
    d.delete();
  }
  systems[0].offset = offset;
  systems[1].offset = 0;
  for (const sys of systems) {
    // Steps/s, interleaved: one vilab run and one run of each MuJoCo integrator per round.
    const vilabSteps = 100000,
      mjSteps = 10000;
    const perRound = { vilab: [] };
    for (const integ of METHODS) perRound[integ] = [];
    const models = Object.fromEntries(METHODS.map((integ) => [integ, sys.make(integ, { energy: false })]));
    for (const { m, d } of Object.values(models)) for (let i = 0; i < 500; i++) mj.mj_step(m, d); // warm-up
    for (let r = -1; r < ROUNDS; r++) {
      // round −1 warms up and is not kept
      const sim = lab.simulate(sys.vilab, { historyStride: 1000000 });
      sim.advance(1000);
      const sps = vilabSteps / (cpuMs(() => sim.advance(vilabSteps)) / 1000);
      if (r >= 0) perRound.vilab.push(sps);
      sim.dispose();
      for (const integ of METHODS) {
        const { m, d } = models[integ];
        mj.mj_resetData(m, d);
        const fresh = sys.make(integ, { energy: false }); // the same start again (resetData would return to qpos0)
        d.qpos.set(fresh.d.qpos);
        d.qvel.set(fresh.d.qvel);
        fresh.m.delete();
        fresh.d.delete();
        const msps = mujocoStepsPerSecond(mj, m, d, mjSteps);
        if (r >= 0) perRound[integ].push(msps);
      }
    }
    for (const { m, d } of Object.values(models)) m.delete(), d.delete();
    const ratio = perRound.vilab.map((v, r) => v / perRound.RK4[r]);
    table.add('MuJoCo', `${sys.name}: vilab ${sys.vilabLabel} (wasm) steps/s ÷ MuJoCo RK4 (wasm)`, stats(ratio), {
      goal: `≥ ${sys.goal}`,
      met: stats(ratio).median >= sys.goal,
      unit: '×',
    });
    // Accuracy after 1000 s at h = 0.01.
    const rows = [];
    const v = vilabAccuracy(lab, sys.vilab);
    rows.push([`vilab ${sys.vilabLabel}`, stats(perRound.vilab).median, v.energy, v.momentum, v.constraint, 'bounded energy band']);
    for (const integ of METHODS) {
      const a = mujocoAccuracy(mj, () => sys.make(integ), sys.momentumOf, sys.offset);
      const note =
        a.blowUp != null
          ? `blows up: ${a.blowUp}`
          : a.drift < -1e-3
            ? `damps: E ${fmt(a.drift * 100)} % at 1000 s`
            : a.drift > 1e-3
              ? `gains: E +${fmt(a.drift * 100)} % at 1000 s`
              : '';
      rows.push([`MuJoCo ${integ.toLowerCase()}`, stats(perRound[integ]).median, a.energy, a.momentum, null, note]);
    }
    const vm = v.momentum,
      worstMj = Math.min(
        ...rows
          .slice(1)
          .map((r) => r[3])
          .filter(Number.isFinite),
      );
    table.add('MuJoCo', `${sys.name}: momentum-map error at 1000 s, orders of magnitude below MuJoCo's best`, {
      median: Math.log10(worstMj / Math.max(vm, 1e-300)),
      n: 1,
    });
    const md = [
      '| method | steps/s (CPU) | max rel. energy error | momentum-map error | constraint | note |',
      '|---|---:|---:|---:|---:|---|',
    ];
    for (const [name, sps, e, L, g, note] of rows)
      md.push(`| ${name} | ${fmt(sps)} | ${fmt(e)} | ${fmt(L)} | ${g == null ? '–' : fmt(g)} | ${note} |`);
    table.detail(`MuJoCo ${version()} (wasm) and vilab (wasm) on the ${sys.name}, h = 0.01, T = 1000 s`, md.join('\n'));
    console.log(md.join('\n'));
  }
}
