// An integrator's title on the run shown (web/ui/run-title.js): a baseline whose claims are
// all projections names no projection on a run without constraints (a field, the oscillator),
// and keeps its title where constraints are projected; in English and Spanish (the words the
// page's catalogues give: web/i18n/<lang>/explain.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { lab, root } from './helpers.mjs';
import { projectsNothing, titleOnRun } from '../../web/ui/run-title.js';
import en from '../../web/i18n/en/explain.js';
import es from '../../web/i18n/es/explain.js';

const structuresOf = (system, integrator) => {
  const sim = lab.simulate({ system, integrator });
  try {
    return sim.describe().structures;
  } finally {
    sim.dispose();
  }
};
const spanishTitle = (id) => JSON.parse(readFileSync(`${root}/core/prose/integrators/${id}.es.json`, 'utf8')).title;

test('on a field no integrator’s title names a projection; on a pendulum the baselines keep theirs', () => {
  const field = structuresOf('field', 'trapezoid');
  const pendulum = structuresOf('pendulum', 'midpoint');
  for (const id of lab.system('field').integrators) {
    const integ = lab.integrator(id);
    for (const [words, title] of [
      [en['explain.title.projection'], integ.title],
      [es['explain.title.projection'], spanishTitle(id)],
    ]) {
      const shown = titleOnRun(title, integ, field, words);
      assert.doesNotMatch(shown, /projection|proyección/, `${id} on a field: ${shown}`);
      assert.ok(shown.length > 5 && !/^[\s,]|[\s,]$/.test(shown), `${id}: '${shown}'`);
    }
  }
  // the words really were there before (a test that cannot fail proves nothing)
  const rk4 = lab.integrator('rk4');
  assert.match(rk4.title, /with projection/);
  assert.equal(titleOnRun(rk4.title, rk4, field, en['explain.title.projection']), 'Runge–Kutta 4 (baseline)');
  assert.equal(titleOnRun(spanishTitle('rk4'), rk4, field, es['explain.title.projection']), 'Runge–Kutta 4 (referencia)');
  const dopri5 = lab.integrator('dopri5');
  assert.equal(titleOnRun(dopri5.title, dopri5, field, en['explain.title.projection']), 'Dormand–Prince 5(4), adaptive (baseline)');
  // where constraints are projected, or the run is unknown, the registry's title stands
  assert.ok(pendulum.includes('constraints'));
  for (const structures of [pendulum, null])
    assert.equal(titleOnRun(rk4.title, rk4, structures, en['explain.title.projection']), rk4.title);
});

test('a title is shortened only where every claim of the integrator is a projection', () => {
  const oscillator = structuresOf('oscillator', 'midpoint');
  for (const integ of lab.integrators) {
    const all = integ.claims.length > 0 && integ.claims.every((c) => c.kind === 'constraints');
    assert.equal(projectsNothing(integ, oscillator), all, integ.id);
    if (!all) assert.equal(titleOnRun(integ.title, integ, oscillator, en['explain.title.projection']), integ.title, integ.id);
  }
});
