// A lesson's rotating frame (lesson.frame, web/sim/lesson-view.js) and its Jacobi integral
// (web/sim/preset-data.js jacobiQuantity): the frame's fields checked by name; the
// satellite's Conserved card plots H − n L_z from the recorded energy and momentum.z, the
// same quantity tests/native/test_mechanism_loads.cpp measures, with the band it states
// (the Lie-group integrator's |ΔJ| ≤ 0.04 E_lib; E_lib = ½ C δ² the libration's energy).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, root } from './helpers.mjs';
import { readLessonView } from '../../web/sim/lesson-view.js';
import { describeForLesson, jacobiQuantity, presetFromScene } from '../../web/sim/preset-data.js';
import { quantityValue } from '../../web/sim/breakdown.js';

const PATH = 'scenes/mechanisms/gravity-gradient-satellite.json';
const satellite = presetFromScene(PATH, JSON.parse(readFileSync(`${root}/${PATH}`, 'utf8')));
const STEPS = 4000; // the lesson's run (about.steps): t = 200, 32 orbits

test('lesson.frame: axis, rate and toward checked by name, the axis made a unit vector', () => {
  assert.deepEqual(readLessonView({ frame: { axis: [0, 0, 2], rate: 1, toward: [3, 0, 0] } }), {
    view: { ...readLessonView({}).view, frame: { axis: [0, 0, 1], rate: 1, toward: [1, 0, 0] } },
    problems: [],
  });
  const fields = (frame) => readLessonView({ frame }).problems.map((p) => `${p.field}:${p.code}`);
  assert.deepEqual(fields([0, 0, 1]), ['lesson.frame:object']);
  assert.deepEqual(fields({ axis: [0, 0, 0], rate: 1 }), ['lesson.frame.axis:direction']);
  assert.deepEqual(fields({ axis: [0, 0, 1], rate: 0 }), ['lesson.frame.rate:rate']);
  assert.deepEqual(fields({ axis: [0, 0, 1], rate: '1' }), ['lesson.frame.rate:rate']);
  assert.deepEqual(fields({ axis: [0, 0, 1], rate: 1, toward: [0, Number.NaN, 1] }), ['lesson.frame.toward:direction']);
  assert.equal(readLessonView({ frame: { axis: [0, 0, 1], rate: 0 } }).view.frame, null, 'a wrong frame is left out');
  assert.deepEqual(satellite.lesson.frame, { axis: [0, 0, 1], rate: 1, toward: [1, 0, 0] }, 'the satellite turns at n = 1 about z');
});

test('the satellite’s Jacobi integral on the page is H − n L_z of the run, within the band the native test measures', () => {
  const sim = lab.simulate(satellite.scenario, { historyStride: 1, historyCapacity: 8192 });
  try {
    const description = sim.describe();
    const q = describeForLesson(description, satellite.lesson).quantities.find((x) => x.key === 'conserved.jacobi');
    assert.deepEqual(
      { columns: q.columns, weights: q.weights, conserved: q.conserved, symbol: q.symbol },
      { columns: ['energy', 'momentum.z'], weights: [1, -1], conserved: true, symbol: 'H − n L_z' },
    );
    assert.equal(jacobiQuantity(description, {}), null, 'no frame, no Jacobi integral');
    sim.advance(STEPS);
    const read = sim.history.read(0);
    const J = (i) => quantityValue(read, q, i);
    const d = sim.diagnostics();
    assert.equal(J(read.count - 1), d.energy - 1 * d.momentum[2], 'the same bits as energy − n·momentum.z');
    const body = satellite.scenario.params.bodies[0];
    const libration = 0.5 * body.inertia[2] * (body.omega[2] - 1) ** 2;
    let band = 0;
    for (let i = 0; i < read.count; i++) band = Math.max(band, Math.abs(J(i) - J(0)) / libration);
    console.log(`satellite Jacobi band: |ΔJ|/E_lib = ${band.toExponential(3)}`);
    assert.ok(band <= 0.04, `|ΔJ|/E_lib over ${STEPS} steps: ${band.toExponential(3)} (the lesson's band)`);
    assert.ok(band > 1e-6, `not trivially zero: ${band}`);
  } finally {
    sim.dispose();
  }
});
