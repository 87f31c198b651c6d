// Gonzalez's energy–momentum scheme on mechanisms (`energy-momentum` on the `mechanism`
// system, Betsch & Steinmann's directors) in the wasm module: the registry offers it, the
// scenes it applies to run with it to the native CLI's bits and keep their energy and joints,
// and the satellite's typed potential is refused, naming the integrator.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lab, root, runNative } from './helpers.mjs';

const STEPS = 2000;
const scene = (name) => {
  const { about, ...scenario } = JSON.parse(readFileSync(join(root, 'scenes', 'mechanisms', `${name}.json`), 'utf8'));
  return { ...scenario, integrator: 'energy-momentum' };
};

test('the registry offers energy-momentum on mechanisms', () => {
  assert.ok(lab.systems.find((s) => s.id === 'mechanism').integrators.includes('energy-momentum'));
  assert.ok(lab.integrators.find((i) => i.id === 'energy-momentum').systems.includes('mechanism'));
});

for (const name of ['compound-double-pendulum', 'physical-pendulum', 'lagrange-top', 'gyroscope', 'middle-axis']) {
  test(`${name}: energy-momentum gives the native bits and keeps its energy and joints`, () => {
    const scenario = scene(name);
    const sim = lab.simulate(scenario, { historyStride: 1000 });
    let hash;
    let start;
    let end;
    try {
      start = sim.diagnostics();
      sim.advance(STEPS);
      end = sim.diagnostics();
      hash = sim.hash();
    } finally {
      sim.dispose();
    }
    const native = runNative(['hash', '-', '--steps', String(STEPS)], JSON.stringify(scenario));
    assert.equal(native.status, 0, native.stderr);
    assert.equal(native.stdout, `${hash}\n`);
    const drift = Math.abs(end.energy - start.energy) / Math.abs(start.energy);
    assert.ok(drift <= 1e-12, `relative energy error after ${STEPS} steps: ${drift}`);
    assert.ok(end.constraint <= 1e-12, `joints: ${end.constraint}`);
  });
}

test('the gravity-gradient satellite (a typed potential) is refused at `integrator`', () => {
  assert.throws(
    () => lab.simulate(scene('gravity-gradient-satellite')),
    (e) => /integrator/.test(e.message) && /potential/.test(e.message),
  );
});
