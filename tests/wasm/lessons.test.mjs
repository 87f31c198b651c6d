// The lessons' numeric claims through the API (web/sim/lessons.js runs the same jobs the
// page's workers run), the exact pendulum by Jacobi sn (web/sim/exact.js), and loops
// centred on a state in the middle of a run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import katex from 'katex';
import { lab, root } from './helpers.mjs';
import { LESSONS, STUDIES, lessonById, lessonSetup, runLesson, measureRun, clockRun, lawRun } from '../../web/sim/lessons.js';
import { midpointClockStep } from '../../web/sim/exact.js';
import { convergenceStudy, convergenceReference, initialFromState, loopStudy } from '../../web/sim/studies.js';

const scene = (id, folder = 'lagrangian') => {
  const { about, ...scenario } = JSON.parse(readFileSync(`${root}/scenes/${folder}/${id}.json`, 'utf8'));
  return { id, title: about.title, scenario, compare: about.compare };
};
const PRESETS = [scene('newmark-vs-rk4'), scene('kapitza'), scene('plucked-string', 'fields'), scene('breather', 'fields')];
const preset = (id) => PRESETS.find((p) => p.id === id);
const lesson = (id) => {
  const l = lessonById(id);
  return runLesson(lab, l, lessonSetup(l, PRESETS).scenario);
};

test('registry: every lesson has its words, a source, a plot and jobs; ids are unique', () => {
  assert.equal(new Set(LESSONS.map((l) => l.id)).size, LESSONS.length);
  for (const l of LESSONS) {
    for (const f of ['title', 'source', 'caption', 'see', 'docs', 'tex'])
      assert.ok(typeof l[f] === 'string' && l[f].length > 10, `${l.id}.${f}`);
    assert.ok(lessonSetup(l, PRESETS), `${l.id}: set-up`);
    assert.ok(['time', 'h', 'mu', 'omega'].includes(l.plot.x));
  }
  // the Explain drawer typesets each formula with KaTeX: every one parses
  for (const x of [...LESSONS, ...STUDIES]) assert.doesNotThrow(() => katex.renderToString(x.tex, { throwOnError: true }), x.id);
  assert.throws(() => katex.renderToString('u\b', { throwOnError: true }), 'negative control: a lost backslash');
});

test('Marsden–West Fig. 1: over 300 s at h = 0.3 RK4 loses more than 30 % of the energy; variational Newmark stays in a band of 10 %', async () => {
  const { measured, curves } = await lesson('mw-newmark-rk4');
  assert.equal(curves[0].y.length, 1001);
  assert.ok(measured.finalB < -0.3, `RK4 ends at ${measured.finalB}`);
  assert.ok(measured.bandA < 0.1 && Math.abs(measured.finalA) <= measured.bandA, `Newmark band ${measured.bandA}, end ${measured.finalA}`);
  console.log(`M–W Fig. 1: Newmark band ${(100 * measured.bandA).toFixed(1)} %, RK4 at 300 s ${(100 * measured.finalB).toFixed(1)} %`);
});

test('M–W Fig. 1 for a field: over 1e5 steps of the plucked string the leapfrog keeps its energy window (ratio ≤ 1.5); RK4 at the same h drifts down out of it (ratio ≥ 3)', async () => {
  // the caption's set-up is the preset's: 128 points, fixed ends, h = 0.004 s, leapfrog against RK4
  const { scenario, compare } = preset('plucked-string');
  assert.deepEqual(
    [scenario.integrator, compare, scenario.h, scenario.params.grid.points, scenario.params.grid.ends],
    ['trapezoid', 'rk4', 0.004, 128, 'fixed'],
  );
  const t0 = performance.now();
  const { measured, curves } = await lesson('mw-string-energy');
  const ms = performance.now() - t0;
  assert.equal(measured.steps, 100000);
  assert.equal(curves[0].y.length, 1001);
  assert.ok(Math.abs(curves[1].x.at(-1) - 400) < 1e-9, `ends at t = ${curves[1].x.at(-1)}`);
  assert.ok(measured.ratioA <= 1.5, `leapfrog window ratio ${measured.ratioA}`);
  assert.ok(measured.ratioB >= 3, `RK4 window ratio ${measured.ratioB}`);
  // RK4 drifts down: it ends below E₀, at the farthest it has been
  assert.ok(
    measured.finalB < 0 && -measured.finalB >= 0.99 * measured.farthestB,
    `RK4 ends ${measured.finalB}, farthest ${measured.farthestB}`,
  );
  // what the lesson says to see: over 400 s RK4's loss is still inside the leapfrog's band; the ratios tell them apart
  assert.ok(-measured.finalB < measured.bandA && measured.bandA < 1e-3, `leapfrog band ${measured.bandA}, RK4 ${measured.finalB}`);
  console.log(
    `plucked string over 1e5 steps: window ratio leapfrog ${measured.ratioA.toFixed(3)}, RK4 ${measured.ratioB.toFixed(3)}; ` +
      `leapfrog band ${measured.bandA.toExponential(2)}, RK4 ends ${measured.finalB.toExponential(2)} (${ms.toFixed(0)} ms)`,
  );
});

test('MPS 1998 Thm 4.1 along a run: on the sine-Gordon breather the box scheme and the leapfrog keep the multisymplectic law to rounding at every sample (≤ 1e-15); RK4 breaks it (median ≥ 1e-8)', async () => {
  const { scenario, compare } = preset('breather');
  assert.deepEqual(
    [scenario.params.density.family, scenario.integrator, compare, scenario.h, scenario.params.grid.points],
    ['sine-gordon', 'trapezoid', 'rk4', 0.02, 512],
  );
  const t0 = performance.now();
  const { measured, curves } = await lesson('multisymplectic-law');
  const ms = performance.now() - t0;
  assert.equal(measured.steps, 3000);
  assert.equal(measured.every, 30);
  for (const c of curves) {
    assert.equal(c.y.length, 101, c.label);
    assert.ok(Math.abs(c.x.at(-1) - 60) < 1e-9, `${c.label} ends at t = ${c.x.at(-1)}`);
  }
  // the threshold api.md states (≤ 1e-12), and the caption's "near 1e-16"
  assert.ok(measured.box <= 1e-15 && measured.leapfrog <= 1e-15, `box ${measured.box}, leapfrog ${measured.leapfrog}`);
  assert.ok(measured.rk4Max >= 1e-8 && measured.rk4Median >= 1e-8 && measured.rk4Median <= 1e-6, `RK4 median ${measured.rk4Median}`);
  // orders of magnitude above rounding at every sample, and swinging with the breather
  assert.ok(measured.rk4Min >= 1e4 * Math.max(measured.box, measured.leapfrog), `RK4 smallest ${measured.rk4Min}`);
  assert.ok(measured.rk4Max >= 10 * measured.rk4Min, `RK4 from ${measured.rk4Min} to ${measured.rk4Max}`);
  console.log(
    `multisymplectic law on the breather over 3000 steps: box ${measured.box.toExponential(2)}, leapfrog ${measured.leapfrog.toExponential(2)}, ` +
      `RK4 ${measured.rk4Min.toExponential(2)} … ${measured.rk4Max.toExponential(2)} (median ${measured.rk4Median.toExponential(2)}) (${ms.toFixed(0)} ms)`,
  );
});

test('the law task names the density each method is held to and leaves the run unchanged', () => {
  const sc = { ...preset('breather').scenario };
  const law = (integrator) => lawRun(lab, { scenario: { ...sc, integrator }, steps: 60, samples: 2 });
  assert.deepEqual(
    ['midpoint', 'trapezoid', 'rk4'].map((i) => law(i).law),
    ['midpoint', 'trapezoid', 'trapezoid'],
  );
  // the probes step copies: 60 steps with them end where 60 steps without them do
  const plain = lab.simulate({ ...sc, integrator: 'midpoint' });
  plain.advance(60);
  const probed = lab.simulate({ ...sc, integrator: 'midpoint' });
  for (let k = 0; k < 3; k++) {
    probed.lawResidual();
    probed.advance(20);
  }
  assert.equal(probed.hash(), plain.hash());
  plain.dispose();
  probed.dispose();
});

test('seed 002 (DSP, multipliers): the largest energy fluctuation over 1000 s falls ×4 per halving of h (each ratio in [3.5, 4.5])', async () => {
  const { measured } = await lesson('dsp-fluctuation');
  for (const r of measured.ratios) assert.ok(r >= 3.5 && r <= 4.5, `ratio ${r}`);
  assert.ok(Math.abs(measured.slope - 2) <= 0.1, `slope ${measured.slope}`);
  console.log(
    `DSP energy fluctuation at 1000 s: ratios ${measured.ratios.map((r) => r.toFixed(3)).join(', ')}, slope ${measured.slope.toFixed(3)}`,
  );
});

test('seed 002 (DSP, generalized coordinates): J_z kept to 1e-12 over 1000 s; RK4 (negative control) drifts by more than 1e-4', () => {
  const sc = { system: 'double-spherical-pendulum', integrator: 'generalized', h: 0.01 };
  const gen = measureRun(lab, { scenario: sc, T: 1000, samples: 10 });
  const rk4 = measureRun(lab, { scenario: { ...sc, integrator: 'rk4' }, T: 1000, samples: 10 });
  assert.ok(gen.maxMomentum <= 1e-12 * Math.abs(gen.J0) * 10, `generalized ${gen.maxMomentum} (J_z = ${gen.J0})`);
  assert.ok(rk4.maxMomentum >= 1e-4, `rk4 ${rk4.maxMomentum}`);
  console.log(`J_z over 1000 s: generalized ${gen.maxMomentum.toExponential(2)}, RK4 ${rk4.maxMomentum.toExponential(2)}`);
});

test('seed 002 (DSP, penalty, energy–momentum at h = 0.001): the constraint error falls like 1/μ (slope −1 ± 0.1 over μ = 1e3 … 1e6)', async () => {
  const { measured, curves } = await lesson('dsp-penalty');
  assert.ok(Math.abs(measured.slope + 1) <= 0.1, `slope ${measured.slope}`);
  assert.ok(
    curves[0].y.every((y, i) => i === 0 || y < curves[0].y[i - 1] / 8),
    `each decade ÷ ≥ 8: ${curves[0].y}`,
  );
  console.log(`penalty constraint error: ${curves[0].y.map((y) => y.toExponential(2)).join(', ')}, slope ${measured.slope.toFixed(3)}`);
});

test('Lu: the midpoint rule is the exact oscillator at n·Δt (≤ 1e-12 over 1e4 steps) and not at n·h', () => {
  // (the reference's own phase ωt loses ~ulp(ωt): ωt stays ≤ 4000 here)
  for (const [h, stiffness, steps] of [
    [0.1, 1, 10000],
    [0.1, 4, 10000],
    [0.5, 4, 2000],
  ]) {
    const r = clockRun(lab, { scenario: { system: 'oscillator', integrator: 'midpoint', h, params: { stiffness } }, steps });
    assert.ok(r.maxNdt <= 1e-12, `h = ${h}, ω² = ${stiffness}: at nΔt ${r.maxNdt}`);
    assert.ok(r.maxNh >= 1e-3, `h = ${h}, ω² = ${stiffness}: at nh ${r.maxNh}`);
  }
  // the arctangent form equals the printed arccos form where arccos is well conditioned
  const [h, w] = [0.5, 2];
  const x = (w * h) ** 2 / 4;
  assert.ok(Math.abs(midpointClockStep(h, w) - Math.acos((1 - x) / (1 + x)) / w) < 1e-14);
  assert.equal(midpointClockStep(0.1, 0), 0.1);
});

test('Wendlandt–Marsden: the energy band half-width falls as h² for the heavy top (quaternion DEL) and the DSP (slopes 2 ± 0.2)', async () => {
  const { measured } = await lesson('wm-amplitude');
  assert.ok(Math.abs(measured.slopeTop - 2) <= 0.2, `top ${measured.slopeTop}`);
  assert.ok(Math.abs(measured.slopeDsp - 2) <= 0.2, `DSP ${measured.slopeDsp}`);
  console.log(`W–M energy amplitude slopes: heavy top ${measured.slopeTop.toFixed(3)}, DSP ${measured.slopeDsp.toFixed(3)}`);
});

test('exact pendulum (the core’s Jacobi sn through lab.exactPendulum): the core’s check value θ(10), one period, one revolution, bad input named', () => {
  // w = 1, θ0 = 0, ω0 = 1 (k = ½): θ(10) = 0.114252255017604 (core test_exact.cpp)
  const check = lab.exactPendulum({ system: 'pendulum', params: { g: 1 }, initial: { angles: [0], rates: [1] } });
  assert.equal(check.regime, 'libration');
  assert.ok(Math.abs(check.modulus - 0.5) < 1e-15);
  assert.ok(Math.abs(check.at(10)[0] - 0.114252255017604) <= 1e-14);
  check.dispose();
  assert.throws(() => check.at(1), /used after dispose/);
  // back where it started after one period; a rotation returns after one revolution + 2π
  const p = lab.exactPendulum({ system: 'pendulum', initial: { angles: [2.5], rates: [1] } });
  const [th, om] = p.at(p.period);
  assert.ok(Math.abs(th - 2.5) < 1e-11 && Math.abs(om - 1) < 1e-10, `${th}, ${om}`);
  p.dispose();
  const r = lab.exactPendulum({ system: 'pendulum', initial: { angles: [0.3], rates: [8] } });
  assert.equal(r.regime, 'rotation');
  assert.ok(Math.abs(r.at(r.period)[0] - (0.3 + 2 * Math.PI)) < 1e-11);
  assert.throws(
    () => r.at(Infinity),
    (e) => e.field === 't',
  );
  r.dispose();
  assert.throws(
    () => lab.exactPendulum({ system: 'oscillator' }),
    (e) => e.field === 'system',
  );
  assert.throws(
    () => lab.exactPendulum({ system: 'pendulum', params: { g: 0 } }),
    (e) => e.field === 'params.g',
  );
  assert.throws(
    () => lab.exactPendulum({ system: 'pendulum', params: { damping: 0.1 } }),
    (e) => e.field === 'params.damping',
  );
});

test('exact pendulum against an order-6 composition at h = 0.002: within 1e-12 over 10 s; the small-angle solution is not', () => {
  for (const [theta, rate] of [
    [1, 0],
    [1, -0.7],
  ]) {
    const sc = lab.normalize({ system: 'pendulum', integrator: 'composition6', h: 0.002, initial: { angles: [theta], rates: [rate] } });
    const exact = lab.exactPendulum(sc);
    assert.equal(exact.regime, 'libration');
    const sim = lab.simulate(sc, { historyCapacity: 1 });
    let worst = 0;
    let small = 0;
    const w = Math.sqrt(sc.params.g);
    try {
      for (let k = 0; k < 5; k++) {
        sim.advance(1000);
        const e = exact.state(sim.time);
        const [q, p] = [sim.q, sim.p];
        for (let i = 0; i < 3; i++) worst = Math.max(worst, Math.abs(q[i] - e.q[i]), Math.abs(p[i] - e.p[i]));
        const lin = theta * Math.cos(w * sim.time) + (rate / w) * Math.sin(w * sim.time);
        small = Math.max(small, Math.abs(Math.sin(lin) - q[0]));
      }
    } finally {
      sim.dispose();
      exact.dispose();
    }
    assert.ok(worst <= 1e-12, `θ0 = ${theta}, ω0 = ${rate}: ${worst}`);
    assert.ok(small >= 1e-2, `small-angle approximation ${small}`);
  }
});

test('convergence uses the exact pendulum and the exact free rigid body: midpoint 2 ± 0.1, lie-group 2 ± 0.1', async () => {
  assert.equal(convergenceReference(lab, { system: 'pendulum' }, [0.1, 0.05], 10).kind, 'exact');
  assert.equal(convergenceReference(lab, { system: 'rigid-body' }, [0.1, 0.05], 10).kind, 'exact');
  assert.equal(convergenceReference(lab, { system: 'heavy-top' }, [0.1, 0.05], 1).kind, 'composition6');
  const pend = await convergenceStudy(
    lab,
    { system: 'pendulum', integrator: 'midpoint' },
    { hs: [0.1, 0.05, 0.025, 0.0125, 0.00625, 0.003125], T: 10 },
  );
  assert.equal(pend.reference, 'exact');
  assert.ok(Math.abs(pend.order - 2) <= 0.1, `pendulum ${pend.order}`);
  const body = await convergenceStudy(
    lab,
    { system: 'rigid-body', integrator: 'lie-group' },
    { hs: [0.04, 0.02, 0.01, 0.005, 0.0025], T: 4 },
  );
  assert.equal(body.reference, 'exact');
  assert.ok(Math.abs(body.order - 2) <= 0.1, `rigid body ${body.order}`);
  console.log(
    `orders against exact solutions: pendulum midpoint ${pend.order.toFixed(3)}, free rigid body lie-group ${body.order.toFixed(3)}`,
  );
});

test('initial data from a state mid-run: the run restarted from it is the same state (oscillator, chains, data systems); null where the time origin matters', () => {
  const data = (id) => scene(id).scenario;
  for (const sc of [
    { system: 'oscillator' },
    { system: 'pendulum' },
    { system: 'spherical-pendulum' },
    { system: 'double-spherical-pendulum' },
    { system: 'chain' },
    data('henon-heiles'),
    data('double-pendulum'),
    data('elastic-pendulum'),
  ]) {
    const sim = lab.simulate(sc);
    sim.advance(137);
    const state = { q: sim.q, p: sim.p };
    sim.dispose();
    const initial = initialFromState(lab, sc, state);
    assert.ok(initial, `${sc.system} ${sc.params?.coordinates ?? ''}`);
    const again = lab.simulate({ ...sc, initial });
    const d = Math.max(...state.q.map((x, i) => Math.abs(x - again.q[i])), ...state.p.map((x, i) => Math.abs(x - again.p[i])));
    again.dispose();
    assert.ok(d <= 1e-9, `${sc.system}: ${d}`);
  }
  const kapitza = data('kapitza');
  const sim = lab.simulate(kapitza);
  sim.advance(10);
  assert.equal(initialFromState(lab, kapitza, { q: sim.q, p: sim.p }), null, 'time-dependent Lagrangian');
  sim.dispose();
});

test('a loop around the state at step 40 is centred there and midpoint keeps its action (≤ 1e-10 over 1000 steps); RK4 does not', () => {
  const sc = { system: 'pendulum', h: 0.05 };
  const sim = lab.simulate(sc);
  sim.advance(40);
  const around = { q: sim.q, p: sim.p };
  const [theta, rate] = sim.variables();
  sim.dispose();
  const fromStart = loopStudy(lab, { ...sc, integrator: 'midpoint' }, { points: 256 });
  const startAction = fromStart.initialAction;
  fromStart.dispose();
  for (const [integrator, ok] of [
    ['midpoint', (c) => c <= 1e-10],
    ['rk4', (c) => c >= 1e-4],
  ]) {
    const loop = loopStudy(lab, { ...sc, integrator }, { points: 256, maxPoints: 512, around });
    try {
      assert.equal(loop.centre, 'state');
      // the loop's points average to its centre (the ellipse's cos and sin sum to zero)
      const v = loop.variables();
      const mean = (k) => v.reduce((a, x) => a + x[k], 0) / v.length;
      assert.ok(
        Math.abs(mean(0) - theta) < 1e-12 && Math.abs(mean(1) - rate) < 1e-12,
        `centre ${mean(0)}, ${mean(1)} vs ${theta}, ${rate}`,
      );
      assert.ok(Math.abs(loop.initialAction - startAction) > 1e-6, 'not the loop around the start');
      loop.advance(1000);
      assert.ok(ok(loop.relativeChange()), `${integrator}: ${loop.relativeChange()}`);
    } finally {
      loop.dispose();
    }
  }
  // where the state has no initial data (a time-dependent Lagrangian) the loop stays at the start
  const k = scene('kapitza').scenario;
  const run = lab.simulate(k);
  run.advance(5);
  const loop = loopStudy(lab, k, { points: 64, around: { q: run.q, p: run.p } });
  assert.equal(loop.centre, 'start');
  loop.dispose();
  run.dispose();
});
