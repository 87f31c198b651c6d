// The run fingerprint in Chromium equals the native one: for every system ×
// integrator pair of the registry, the same scenario and step count give the same
// hash() in the browser's wasm as `vilab hash` natively, in the full build and, for
// the pairs it runs, in the lean build the page starts on; and every field scene on every
// integrator it accepts (tests/wasm/field-runs.mjs), a few hundred steps each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { launch, openPage } from './helpers.mjs';
import { fieldSceneRuns } from '../wasm/field-runs.mjs';

const nativeCli = new URL('../../build/native/vilab', import.meta.url).pathname;
const FIELD_STEPS = 300;

// The field scenes (in the full build) hash as `vilab hash` does after the same steps.
async function checkFieldScenes(page, runAll) {
  const runs = fieldSceneRuns(await page.evaluate(() => window.vilabPage.lab.system('field').integrators));
  assert.ok(runs.length >= 30, `only ${runs.length} field runs`);
  const got = await runAll(runs.map(({ scenario }) => ({ scenario, steps: FIELD_STEPS })));
  const nativeHash = (scenario, steps) =>
    execFileSync(nativeCli, ['hash', '-', '--steps', String(steps)], { input: JSON.stringify(scenario), encoding: 'utf8' }).trim();
  runs.forEach(({ name, scenario }, i) => {
    const { failure, step, hash } = got[i];
    if (failure) {
      // beyond the method's limit (the stiff string's leapfrog at h): refused natively at
      // the same step, and the same state before it
      assert.equal(failure.step, step + 1, `${name}: ${failure.message}`);
      assert.throws(
        () => nativeHash(scenario, FIELD_STEPS),
        (e) => String(e.stderr).includes(`step ${failure.step} refused`),
        name,
      );
      assert.equal(hash, nativeHash(scenario, step), `${name} before the refused step`);
      return;
    }
    assert.equal(hash, nativeHash(scenario, FIELD_STEPS), name);
  });
}

test('Chromium wasm hashes equal native hashes for every system × integrator pair and every field scene', async () => {
  const browser = await launch();
  const dir = mkdtempSync(join(tmpdir(), 'vilab-hash-'));
  try {
    const { page, errors } = await openPage(browser.context, '#', { reducedMotion: 'reduce' });
    const runAll = (cases) =>
      page.evaluate(
        (cases) =>
          cases.map(({ scenario, steps }) => {
            let sim;
            try {
              sim = window.vilabPage.lab.simulate(scenario, { historyStride: 1000 });
            } catch (e) {
              if (e.code === 'full-module') return null; // not in this build
              throw e;
            }
            let failure = null;
            try {
              sim.advance(steps); // exactly, or a refused step throws
            } catch (e) {
              failure = { name: e.name, step: e.step, code: e.code, message: e.message };
            }
            const out = { hash: sim.hash(), step: sim.step, failure };
            sim.dispose();
            return out;
          }),
        cases,
      );
    // An integrator that refuses the default definition of a system defined by data
    // (it needs a constant mass matrix or no constraints) runs the Hénon–Heiles scene.
    const { about, ...henonHeiles } = JSON.parse(
      readFileSync(new URL('../../scenes/lagrangian/henon-heiles.json', import.meta.url), 'utf8'),
    );
    assert.equal(await page.evaluate(() => window.vilabPage.lab.build), 'lean');
    const leanPairs = await page.evaluate(() =>
      window.vilabPage.lab.systems.flatMap((s) => s.integrators.map((integrator) => ({ system: s.id, integrator }))),
    );
    // Steps per pair: enough to exercise every branch, few enough for the slow AD pairs.
    const steps = (p) => (['quaternion', 'generalized', 'penalty', 'angles-midpoint'].includes(p.integrator) ? 2000 : 10000);
    const leanHashes = await runAll(leanPairs.map((p) => ({ scenario: p, steps: steps(p) })));
    assert.ok(leanHashes.filter(Boolean).length >= 40, 'pairs the lean build runs');
    assert.equal(await page.evaluate(() => window.vilabPage.loadFull()), 'full');
    const pairs = await page.evaluate(
      (fallback) =>
        window.vilabPage.lab.systems.flatMap((s) =>
          s.integrators.map((integrator) => {
            const scenario = { system: s.id, integrator };
            if (!s.definition) return scenario;
            try {
              window.vilabPage.lab.simulate(scenario).dispose();
              return scenario;
            } catch (e) {
              if (e.field !== 'integrator') throw e;
              return { ...fallback, integrator };
            }
          }),
        ),
      henonHeiles,
    );
    assert.ok(pairs.length >= 30, `only ${pairs.length} pairs`);
    const { refusalCodes } = await page.evaluate(() => window.vilabPage.lab.vocabulary);
    const browserHashes = await runAll(pairs.map((p) => ({ scenario: p, steps: steps(p) })));
    // the lean build's runs are the full build's, bit for bit
    leanPairs.forEach((p, i) => {
      if (!leanHashes[i]) return;
      const j = pairs.findIndex((q) => q.system === p.system && q.integrator === p.integrator);
      assert.deepEqual(leanHashes[i], browserHashes[j], `${p.system}/${p.integrator}: lean and full`);
    });
    pairs.forEach((p, i) => {
      const file = join(dir, `${p.system}-${p.integrator}.json`);
      writeFileSync(file, JSON.stringify(p));
      const got = browserHashes[i];
      if (got.failure !== null) {
        // A refused step must be refused at the same step natively, with the same message;
        // compare the state before it.
        assert.equal(got.failure.name, 'VilabError', `${p.system}/${p.integrator}: ${got.failure.message}`);
        assert.equal(got.step, got.failure.step - 1);
        assert.ok(refusalCodes.includes(got.failure.code), `${p.system}/${p.integrator}: code ${got.failure.code}`);
        let native = '';
        try {
          execFileSync(nativeCli, ['hash', file, '--steps', String(steps(p))], { stdio: 'pipe' });
        } catch (e) {
          native = String(e.stderr);
        }
        assert.equal(native, `${got.failure.message}\n`, `${p.system}/${p.integrator}`);
        const before = execFileSync(nativeCli, ['hash', file, '--steps', String(got.step)], { encoding: 'utf8' });
        assert.equal(got.hash, before.trim(), `${p.system}/${p.integrator} before the refused step`);
      } else {
        const native = execFileSync(nativeCli, ['hash', file, '--steps', String(steps(p))], { encoding: 'utf8' });
        assert.equal(got.hash, native.trim(), `${p.system}/${p.integrator}`);
      }
    });
    await checkFieldScenes(page, runAll);
    assert.deepEqual(errors, []);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await browser.close();
  }
});
