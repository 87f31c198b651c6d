// The run description (sim.describe(), sim.variables(), diagnostics().kinetic/potential):
// its claims about conservation are checked against the runs themselves, and the
// natural variables against finite differences along a trajectory.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab } from './helpers.mjs';

function withSim(scenario, fn) {
  const sim = lab.simulate(scenario);
  try {
    return fn(sim);
  } finally {
    sim.dispose();
  }
}

test('the rates are the time derivatives of the angles (central differences, O(h²))', () => {
  for (const system of ['pendulum', 'double-spherical-pendulum']) {
    withSim({ system, integrator: 'midpoint', h: 1e-4 }, (sim) => {
      const vars = sim.describe().variables;
      const angles = vars.filter((v) => v.kind === 'angle').length;
      sim.advance(3000);
      const before = sim.variables();
      sim.advance(1);
      const mid = sim.variables();
      sim.advance(1);
      const after = sim.variables();
      for (let k = 0; k < angles; k++) {
        const fd = (after[k] - before[k]) / 2e-4;
        const rate = mid[angles + k];
        // the midpoint trajectory's θ differs from the exact one by O(h²); a wrong rate
        // formula (a sign, a missing term) is off by O(1)
        assert.ok(Math.abs(fd - rate) < 1e-5 * Math.max(1, Math.abs(rate)), `${system} ${vars[angles + k].symbol}: ${rate} vs ${fd}`);
      }
    });
  }
});

test('kinetic + potential = energy, and the kinetic part is ½ m v² of the rates', () => {
  for (const system of ['oscillator', 'pendulum', 'double-spherical-pendulum', 'rigid-body', 'heavy-top']) {
    withSim({ system }, (sim) => {
      sim.advance(50);
      const d = sim.diagnostics();
      assert.ok(sim.describe().energyParts);
      assert.ok(Math.abs(d.kinetic + d.potential - d.energy) <= 1e-13 * Math.abs(d.energy), system);
      assert.ok(d.kinetic >= 0);
    });
  }
  withSim({ system: 'pendulum' }, (sim) => {
    sim.advance(37);
    const [, thetaDot] = sim.variables();
    const { lengths, masses } = sim.scenario().params;
    assert.ok(Math.abs(sim.diagnostics().kinetic - 0.5 * masses[0] * (lengths[0] * thetaDot) ** 2) < 1e-12);
  });
});

test('heavy top: J_z and Π₃ are conserved, J_x is not — and the runs agree', () => {
  withSim({ system: 'heavy-top', integrator: 'lie-group' }, (sim) => {
    const d = sim.describe();
    const by = Object.fromEntries(d.quantities.map((q) => [q.key, q]));
    assert.equal(by['momentum.z'].conserved, true);
    assert.equal(by['bodyMomentum.z'].conserved, true);
    assert.equal(by['momentum.x'].conserved, false);
    assert.equal(by['momentum.y'].conserved, false);
    const d0 = sim.diagnostics();
    let jxMoved = 0;
    for (let k = 0; k < 10; k++) {
      sim.advance(100);
      const d1 = sim.diagnostics();
      assert.ok(Math.abs(d1.momentum[2] - d0.momentum[2]) < 1e-10 * Math.max(1, Math.abs(d0.momentum[2])));
      assert.ok(Math.abs(d1.bodyMomentum[2] - d0.bodyMomentum[2]) < 1e-10 * Math.abs(d0.bodyMomentum[2]));
      jxMoved = Math.max(jxMoved, Math.abs(d1.momentum[0] - d0.momentum[0]));
    }
    assert.ok(jxMoved > 1e-2, `J_x moved by ${jxMoved}`);
  });
  // an asymmetric top keeps J_z but not Π₃
  withSim({ system: 'heavy-top', params: { inertia: [1, 1.25, 0.5] } }, (sim) => {
    assert.ok(!sim.describe().quantities.some((q) => q.key === 'bodyMomentum.z'));
  });
});

test('forcing and damping make quantities non-conserved; the oscillator has no constraint', () => {
  withSim({ system: 'oscillator' }, (sim) => {
    const d = sim.describe();
    assert.equal(d.constrained, false);
    assert.ok(!d.structures.includes('constraints') && !d.structures.includes('momentum'));
    assert.equal(d.quantities.find((q) => q.key === 'energy').conserved, true);
  });
  withSim({ system: 'oscillator', params: { damping: 0.3 } }, (sim) => {
    const E = sim.describe().quantities.find((q) => q.key === 'energy');
    assert.equal(E.conserved, false);
    const E0 = sim.diagnostics().energy;
    sim.advance(100);
    assert.ok(sim.diagnostics().energy < 0.5 * E0, 'the damped energy really falls');
  });
  withSim({ system: 'double-spherical-pendulum', params: { damping: 0.1 } }, (sim) => {
    assert.ok(sim.describe().quantities.every((q) => !q.conserved));
  });
  withSim({ system: 'rigid-body', params: { torque: [0, 0, 0.1] } }, (sim) => {
    const by = Object.fromEntries(sim.describe().quantities.map((q) => [q.key, q.conserved]));
    assert.deepEqual([by['momentum.x'], by['momentum.y'], by['momentum.z'], by.casimir, by.energy], [true, true, false, false, false]);
  });
});

test('pendulum phase pair is θ against θ̇; rigid bodies Π₁ against Π₂', () => {
  withSim({ system: 'pendulum' }, (sim) => {
    const { variables, phase } = sim.describe();
    assert.deepEqual(
      phase.map((i) => variables[i].symbol),
      ['θ', 'θ̇'],
    );
    assert.ok(Math.abs(sim.variables()[0] - sim.scenario().initial.angles[0]) < 1e-12);
  });
  withSim({ system: 'rigid-body' }, (sim) => {
    const { variables, phase } = sim.describe();
    assert.deepEqual(
      phase.map((i) => variables[i].symbol),
      ['Π₁', 'Π₂'],
    );
  });
});

test('claims are classified so badges apply only where the system has the structure', () => {
  const mid = lab.integrator('midpoint');
  assert.deepEqual(
    mid.claims.map((c) => c.kind),
    ['symplectic', 'momentum', 'constraints', 'energy-bounded'],
  );
  // exact energy (to rounding) is its own kind: the energy-momentum schemes and SEM
  for (const id of ['energy-momentum', 'penalty-energy-momentum', 'sem']) {
    assert.deepEqual(lab.integrator(id).claims.filter((c) => c.kind === 'energy').length, 1, id);
  }
  // both energy kinds apply wherever the exact flow conserves the energy, neither where it does not
  withSim({ system: 'oscillator' }, (sim) => assert.ok(['energy', 'energy-bounded'].every((k) => sim.describe().structures.includes(k))));
  withSim({ system: 'oscillator', integrator: 'midpoint', params: { damping: 0.1 } }, (sim) =>
    assert.ok(!sim.describe().structures.some((k) => k.startsWith('energy'))),
  );
  assert.ok(lab.integrator('lie-group').claims.some((c) => c.kind === 'casimir'));
  for (const i of lab.integrators) assert.equal(i.claims.length, i.conserves.length);
});

/** A shipped field scene (scenes/fields/<id>.json) as a scenario, with changes. */
function fieldScene(id, patch = {}) {
  const { about, ...scenario } = JSON.parse(readFileSync(new URL(`../../scenes/fields/${id}.json`, import.meta.url), 'utf8'));
  return { ...scenario, ...patch };
}
const periodic = (sc, density) => ({ ...sc, params: { ...sc.params, density, grid: { ...sc.params.grid, ends: 'periodic' } } });

test('a field run: the energy is conserved, Σp only with periodic ends and V = 0, and no phase portrait', () => {
  withSim(fieldScene('plucked-string'), (sim) => {
    const d = sim.describe();
    assert.deepEqual(
      d.quantities.map((q) => [q.key, q.conserved]),
      [['energy', true]],
    );
    assert.deepEqual(d.variables, []);
    assert.ok(!d.structures.includes('momentum') && d.structures.includes('energy-bounded'));
    assert.equal(sim.history.columns.includes('momentum'), false, 'fixed ends: the core records no Σp');
    // kinetic + potential = the energy; released at rest, the kinetic part starts at 0
    const diag = sim.diagnostics();
    assert.equal(diag.kinetic, 0);
    sim.advance(50);
    const later = sim.diagnostics();
    assert.ok(later.kinetic > 0.1 * later.energy);
    assert.ok(Math.abs(later.kinetic + later.potential - later.energy) <= 1e-15 * later.energy);
  });
  // the wave with periodic ends: Σp conserved (the leapfrog keeps it to rounding), claimed as momentum
  const kg = fieldScene('klein-gordon');
  withSim(periodic(kg, { family: 'wave' }), (sim) => {
    const d = sim.describe();
    const P = d.quantities.find((q) => q.key === 'momentum');
    assert.equal(P.conserved, true);
    assert.ok(d.structures.includes('momentum'));
  });
  // Klein–Gordon with periodic ends (the shipped scene): Σp is a value, not conserved, and it really moves
  withSim({ ...kg, initial: { u: kg.initial.u, ut: '1' } }, (sim) => {
    const d = sim.describe();
    const P = d.quantities.find((q) => q.key === 'momentum');
    assert.equal(P.conserved, false);
    assert.match(P.why, /not conserved/);
    assert.ok(!d.structures.includes('momentum'));
    const p0 = sim.diagnostics().momentum[0];
    sim.advance(100); // 0.2 s, a third of the mass term's period 2π/m
    assert.ok(Math.abs(sim.diagnostics().momentum[0] - p0) > 0.5 * Math.abs(p0), 'V pulls Σp away from its start');
  });
  // sine-Gordon with periodic ends: not conserved either
  withSim(periodic(kg, { family: 'sine-gordon' }), (sim) => {
    assert.equal(sim.describe().quantities.find((q) => q.key === 'momentum').conserved, false);
  });
  // a typed density: no kinetic part; a density with t in it is refused by the core (so the energy is always conserved)
  withSim(fieldScene('nonlinear-string'), (sim) => {
    const d = sim.describe();
    assert.equal(d.energyParts, false);
    assert.equal(d.quantities[0].conserved, true);
    assert.equal(sim.diagnostics().kinetic, undefined);
  });
  const typed = fieldScene('nonlinear-string');
  const timed = { ...typed, params: { ...typed.params, density: { lagrangian: '0.5*u_t^2 - (1 + 0.1*t)*sqrt(1 + u_x^2)' } } };
  assert.throws(
    () => lab.simulate(timed),
    (e) => e.field === 'params.density.lagrangian',
  );
  // a typed density without u, periodic: Σp conserved; with u: not
  withSim(periodic(typed, { lagrangian: '0.5*u_t^2 - sqrt(1 + u_x^2)' }), (sim) =>
    assert.equal(sim.describe().quantities.find((q) => q.key === 'momentum').conserved, true),
  );
  withSim(periodic(typed, { lagrangian: '0.5*u_t^2 - 0.5*u_x^2 - 0.5*u^2' }), (sim) =>
    assert.equal(sim.describe().quantities.find((q) => q.key === 'momentum').conserved, false),
  );
});
