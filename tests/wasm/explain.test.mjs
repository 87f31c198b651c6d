// What the Explain drawer says a method keeps on the run shown (web/ui/explain-structures.js):
// only the structures the run has (sim.describe().structures), each claim of the integrator
// of those kinds with its formula, what it does not keep, and the update equations without
// constraint terms where there are none; every formula fragment of the prose typeset.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { lab, root } from './helpers.mjs';
import { keptHere, lostHere, proseParts, withoutConstraints } from '../../web/ui/explain-structures.js';

const describe = (system, integrator) => {
  const sim = lab.simulate({ system, integrator });
  try {
    return sim.describe();
  } finally {
    sim.dispose();
  }
};
const equationsOf = (id) => JSON.parse(readFileSync(`${root}/core/prose/integrators/${id}.en.json`, 'utf8')).equations ?? [];
// what names a constraint or a momentum map in LaTeX
const CONSTRAINT_TEX = /(^|[^\w\\])D?g\(|\\lambda|\\Lambda|\\mu_k|\\nu/;

test('on the oscillator no method is said to keep a momentum map or constraints, and no update shows a constraint term', () => {
  const d = describe('oscillator', 'midpoint');
  assert.equal(d.constrained, false);
  const oscillator = lab.system('oscillator');
  assert.ok(oscillator.integrators.length >= 5, `${oscillator.integrators.length} integrators`);
  for (const id of oscillator.integrators) {
    const integ = lab.integrator(id);
    const kinds = [...keptHere(integ, d), ...lostHere(integ, d)].map((k) => k.kind);
    assert.ok(!kinds.includes('momentum') && !kinds.includes('constraints') && !kinds.includes('casimir'), `${id}: ${kinds}`);
    for (const line of withoutConstraints(equationsOf(id))) assert.doesNotMatch(line, CONSTRAINT_TEX, `${id}: ${line}`);
  }
  // negative control: the midpoint rule's own equations do carry the constraint terms
  assert.ok(equationsOf('midpoint').some((l) => CONSTRAINT_TEX.test(l)));
  // what the symplectic midpoint keeps here: the symplectic form and a bounded energy, with formulas
  const kept = keptHere(lab.integrator('midpoint'), d);
  assert.deepEqual(
    kept.map((k) => k.kind),
    ['symplectic', 'energy-bounded'],
  );
  assert.ok(kept.every((k) => typeof k.tex === 'string' && k.tex.length > 10));
  assert.deepEqual(lostHere(lab.integrator('midpoint'), d), []);
  assert.deepEqual(
    lostHere(lab.integrator('rk4'), d).map((k) => k.kind),
    ['symplectic', 'energy'],
  );
});

test('on the double spherical pendulum the midpoint DEL keeps J_z and the constraints; RK4 loses J_z', () => {
  const d = describe('double-spherical-pendulum', 'midpoint');
  const kept = keptHere(lab.integrator('midpoint'), d);
  const momentum = kept.find((k) => k.kind === 'momentum');
  assert.ok(momentum, kept.map((k) => k.kind).join(', '));
  assert.match(momentum.tex, /J_z\(q_\{k\+1\},p_\{k\+1\}\) = J_z\(q_\{k\},p_\{k\}\)/);
  assert.equal(kept.find((k) => k.kind === 'constraints')?.tex, 'g(q_{k+1}) = 0');
  // the update keeps its constraint terms on a constrained run
  assert.ok(d.constrained);
  const lost = lostHere(lab.integrator('rk4'), d);
  assert.deepEqual(lost.map((k) => k.kind).sort(), ['energy', 'momentum', 'symplectic']);
  assert.equal(
    lostHere(lab.integrator('rk4'), d, (kind, v) => `${kind} ${v.list}`).find((k) => k.kind === 'momentum').words,
    'momentum Jz',
  );
});

test('every claim shown applies to the run, for every system and integrator', () => {
  let pairs = 0;
  for (const system of lab.systems) {
    const d = describe(system.id, system.defaultIntegrator);
    for (const id of system.integrators) {
      const integ = lab.integrator(id);
      for (const k of keptHere(integ, d)) assert.ok(d.structures.includes(k.kind), `${system.id}/${id}: ${k.kind}`);
      for (const k of lostHere(integ, d)) assert.ok(!integ.claims.some((c) => c.kind === k.kind), `${system.id}/${id} loses ${k.kind}`);
      pairs++;
    }
  }
  assert.ok(pairs > 40, `${pairs} pairs`);
});

test('the prose of every integrator, in both languages, leaves no formula fragment as raw text', () => {
  const dir = `${root}/core/prose/integrators/`;
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  let formulas = 0;
  for (const f of files) {
    const { docs } = JSON.parse(readFileSync(dir + f, 'utf8'));
    for (const p of proseParts(docs)) {
      if (p.tex) formulas++;
      else assert.doesNotMatch(p.text, /[A-Za-zΠ]_[{A-Za-z0-9]|\^[{0-9]/, `${f}: ${p.text.slice(0, 80)}`);
    }
  }
  assert.ok(files.length >= 40 && formulas > 100, `${files.length} files, ${formulas} formulas`);
  // negative control: a paragraph with q_{k+1} yields it as a formula, not as text
  assert.deepEqual(proseParts('so g(q_{k+1}) = 0'), [{ text: 'so g(' }, { tex: 'q_{k+1}', source: 'q_{k+1}' }, { text: ') = 0' }]);
});
