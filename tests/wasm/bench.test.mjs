// The benchmark's MuJoCo models (bench/mujoco.mjs) are the systems vilab runs: the same
// start, energy and momentum map. And the benchmark-only packages stay out of the app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { lab } from './helpers.mjs';
import { bodyModel, dspModel, DSP_ENERGY_OFFSET, measure } from '../../bench/mujoco.mjs';

const mj = await (await import('@mujoco/mujoco')).default();

test('MuJoCo DSP model: vilab default start (bob positions to 1e-12, energy and J_z to 1e-6)', () => {
  const sim = lab.simulate({ system: 'double-spherical-pendulum', integrator: 'midpoint', h: 0.01 });
  const q = Array.from(sim.q),
    p = Array.from(sim.p);
  const d0 = sim.diagnostics();
  sim.dispose();
  const { m, d } = dspModel(mj, 'RK4', q, p);
  try {
    const { e, L } = measure(mj, m, d);
    const xipos = Array.from(d.xipos); // body 0 is the world
    for (let i = 0; i < 6; i++) assert.ok(Math.abs(xipos[3 + i] - q[i]) < 1e-12, `bob coordinate ${i}: ${xipos[3 + i]} vs ${q[i]}`);
    assert.ok(Math.abs(e + DSP_ENERGY_OFFSET - d0.energy) / d0.energy < 1e-6, `energy ${e + DSP_ENERGY_OFFSET} vs ${d0.energy}`);
    assert.ok(Math.abs(L[2] - d0.momentum[0]) / Math.abs(d0.momentum[0]) < 1e-6, `J_z ${L[2]} vs ${d0.momentum[0]}`);
  } finally {
    m.delete();
    d.delete();
  }
});

test('MuJoCo free body: the dzhanibekov preset (energy and spatial angular momentum to 1e-12)', () => {
  const preset = JSON.parse(readFileSync(new URL('../../scenes/rigid_body_presets.json', import.meta.url))).find(
    (x) => x.id === 'dzhanibekov',
  ).scenario;
  const sim = lab.simulate(preset);
  const d0 = sim.diagnostics();
  sim.dispose();
  const { m, d } = bodyModel(mj, 'RK4', preset.params.inertia, preset.initial.omega);
  try {
    const { e, L } = measure(mj, m, d);
    assert.ok(Math.abs(e - d0.energy) < 1e-12 * d0.energy, `energy ${e} vs ${d0.energy}`);
    for (let i = 0; i < 3; i++) assert.ok(Math.abs(L[i] - d0.momentum[i]) < 1e-12, `L[${i}] ${L[i]} vs ${d0.momentum[i]}`);
  } finally {
    m.delete();
    d.delete();
  }
});

test('the app imports no benchmark-only package (@mujoco/mujoco, vega, vega-lite)', () => {
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const path = `${dir}/${name}`;
      if (statSync(path).isDirectory()) walk(path);
      else if (/\.(m?js|ts|html)$/.test(name)) files.push(path);
    }
  };
  walk(new URL('../../web', import.meta.url).pathname);
  assert.ok(files.length > 10);
  for (const f of files) assert.doesNotMatch(readFileSync(f, 'utf8'), /from\s+['"](@mujoco\/|vega)/, f);
});

// The bench's results as JSON and the previous run beside each row (bench/previous.mjs).
const { Table } = await import('../../bench/common.mjs');
const { change, loadRuns, parseResults, previousRows, resultsJson, rowKey } = await import('../../bench/previous.mjs');
const { mkdtempSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
const { tmpdir } = await import('node:os');
const { pathToFileURL } = await import('node:url');

const run = (commit, finished, slug, rows) =>
  resultsJson(rows, {
    commit,
    date: finished.slice(0, 10),
    finished,
    machine: { cpu: slug, slug, cores: 2 },
    sections: ['limit'],
    rounds: 5,
  });
const row = (section, what, median, unit = '×') => ({
  section,
  key: rowKey(section, what),
  what,
  median,
  min: median,
  max: median,
  n: 1,
  unit,
});

test('bench rows: keys leave out the numbers of the run in parentheses, keep the rest', () => {
  assert.equal(rowKey('wasm', 'DSP midpoint: wasm/native (native 247 ns/step)'), 'wasm: DSP midpoint: wasm/native');
  assert.equal(rowKey('limit', 'AD path (generalized, chart, jets) ÷ midpoint'), 'limit: AD path (generalized, chart, jets) ÷ midpoint');
  assert.notEqual(rowKey('wasm', 'chain N=8 midpoint: wasm/native'), rowKey('wasm', 'chain N=64 midpoint: wasm/native'));
});

test('bench results JSON: a round trip keeps every row; other JSON is not a run', () => {
  const doc = run('abc1234', '2026-11-28T10:00:00.000Z', 'amd-epyc', [
    row('limit', 'history ÷ none', 1.19),
    row('scaling', 'slope', 1.07, ''),
  ]);
  const back = parseResults(JSON.stringify(doc));
  assert.deepEqual(back, doc);
  assert.equal(back.rows[0].median, 1.19);
  assert.equal(parseResults('{"date": "2026-11-28", "modules": {}}'), null);
  assert.equal(parseResults('not json'), null);
  assert.equal(parseResults(JSON.stringify({ ...doc, version: 99 })), null);
});

test('bench: each row beside the newest earlier run holding it (same machine first), with the change; new rows have none', () => {
  const dir = mkdtempSync(`${tmpdir()}/vilab-bench-`);
  try {
    const url = pathToFileURL(`${dir}/`);
    mkdirSync(`${dir}/runs`);
    // The committed run (older), a newer partial run in runs/, another machine's newest, and a hardening report.
    writeFileSync(
      `${dir}/2026-11-26-amd-epyc.json`,
      JSON.stringify(
        run('a83be17', '2026-11-26T12:00:00.000Z', 'amd-epyc', [row('limit', 'history ÷ none', 1.18), row('scaling', 'slope', 1.07, '')]),
      ),
    );
    writeFileSync(
      `${dir}/runs/b.json`,
      JSON.stringify(run('bd5bc69', '2026-11-28T12:00:00.000Z', 'amd-epyc', [row('limit', 'history ÷ none', 1.36)])),
    );
    writeFileSync(
      `${dir}/runs/c.json`,
      JSON.stringify(run('fff0000', '2026-11-28T13:00:00.000Z', 'intel-xeon', [row('limit', 'history ÷ none', 9)])),
    );
    writeFileSync(`${dir}/hardening.json`, JSON.stringify({ date: '2026-11-28', modules: {} }));
    writeFileSync(
      `${dir}/runs/future.json`,
      JSON.stringify(run('later00', '2099-01-01T00:00:00.000Z', 'amd-epyc', [row('limit', 'history ÷ none', 7)])),
    );
    const runs = loadRuns(url);
    assert.equal(runs.length, 4);
    const previous = previousRows(runs, 'amd-epyc', '2026-11-28T14:00:00.000Z');
    assert.deepEqual(previous.get('limit: history ÷ none'), { median: 1.36, unit: '×', commit: 'bd5bc69', date: '2026-11-28' });
    // The newest run lacks the slope: the committed one gives it.
    assert.equal(previous.get('scaling: slope').commit, 'a83be17');
    // A machine with no runs of its own compares with any.
    assert.equal(previousRows(runs, 'arm-neoverse', '2026-11-28T14:00:00.000Z').get('limit: history ÷ none').median, 9);
    const table = new Table(previous);
    const log = console.log;
    console.log = () => {};
    try {
      table.add('limit', 'history ÷ none', { median: 1.02, min: 1.01, max: 1.04, n: 5 }, { unit: '×', goal: '≤ 1.05', met: true });
      table.add('limit', 'a new row', { median: 3, min: 3, max: 3, n: 1 });
    } finally {
      console.log = log;
    }
    const md = table.markdown().split('\n');
    assert.match(md[0], /previous \(commit\) \| change \|$/);
    assert.equal(md[2], '| limit | history ÷ none | 1.02× | 1.01–1.04 | ≤ 1.05 | yes | 1.36× (bd5bc69) | −25 % |');
    assert.equal(md[3], '| limit | a new row | 3 |  |  |  |  |  |');
    // What this run writes is read back as the next run's previous.
    writeFileSync(`${dir}/runs/d.json`, JSON.stringify(run('new0000', '2026-11-28T15:00:00.000Z', 'amd-epyc', table.rows)));
    const next = previousRows(loadRuns(url), 'amd-epyc', '2026-11-28T16:00:00.000Z');
    assert.equal(next.get('limit: history ÷ none').median, 1.02);
    assert.equal(next.get('limit: a new row').commit, 'new0000');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(change(1.02, { median: 1.36 }), '−25 %');
  assert.equal(change(1.1, { median: 1.0 }), '+10 %');
  assert.equal(change(1.01, { median: 1.0 }), '+1.0 %');
  assert.equal(change(1, undefined), '');
});

test('bench: the committed results JSON is a run whose rows the current labels find (a fresh clone has a previous run)', () => {
  const dir = new URL('../../bench/results/', import.meta.url);
  const runs = loadRuns(dir);
  assert.ok(runs.length >= 1);
  const previous = previousRows(runs, 'amd-epyc');
  for (const key of [
    'limit: DSP midpoint: history recorded every step ÷ not recorded',
    'wasm: DSP midpoint: wasm/native',
    'limit: flops per cycle: library / kernel',
    'scaling: chain midpoint: log–log slope of step cost in N',
  ])
    assert.ok(previous.has(key), key);
});
