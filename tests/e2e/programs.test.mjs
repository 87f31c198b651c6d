// In Chromium, under the page's CSP, the page runs a scene defined by data on expression
// programs compiled to WebAssembly (the lab's counts: programs compiled, the steps' runs
// compiled, none interpreted, none failed) and shows the fingerprint the interpreter
// gives for the same scenario and step.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser } from './helpers.mjs';

const browser = useBrowser();
const STEPS = 3000;

test("a scene defined by data runs compiled programs in the page, with the interpreter's fingerprint", async () => {
  const { page, errors } = await openPage(browser.context, '', { reducedMotion: 'reduce' });
  const hook = (fn, arg) => page.evaluate(fn, arg);
  await hook(() => window.vilabPage.pause());
  assert.equal(await hook(() => window.vilabPage.loadFull()), 'full');
  const before = await hook(() => window.vilabPage.lab.programCounts());
  await hook(() => window.vilabPage.applyPreset(window.vilabPage.preset('double-pendulum')));
  await page.waitForFunction(() => window.vilabPage.state().scenario.system === 'lagrangian');
  await hook(() => window.vilabPage.pause());
  await hook((k) => window.vilabPage.runTo(k), STEPS);
  const step = await hook(() => window.vilabPage.sim().step);
  assert.ok(step >= STEPS, `stepped to ${step}`);
  const fingerprint = await hook(() => window.vilabPage.fingerprint());
  const after = await hook(() => window.vilabPage.lab.programCounts());
  assert.equal(after.enabled, true);
  assert.ok(after.compiled - before.compiled >= 4, `${after.compiled - before.compiled} programs compiled`);
  assert.ok(after.compiledRuns - before.compiledRuns >= step, `${after.compiledRuns - before.compiledRuns} compiled runs`);
  assert.equal(after.interpretedRuns, before.interpretedRuns, 'no program interpreted');
  assert.equal(after.failed, before.failed, 'no compilation failed');
  // The same scenario and step on the interpreter alone.
  const reference = await hook(
    ({ scenario, steps }) => {
      const { lab } = window.vilabPage;
      lab.setCompiledPrograms(false);
      try {
        const sim = lab.simulate(scenario, { historyStride: 1000 });
        sim.advance(steps);
        const hash = sim.hash();
        sim.dispose();
        return { hash, counts: lab.programCounts() };
      } finally {
        lab.setCompiledPrograms(true);
      }
    },
    { scenario: (await hook(() => window.vilabPage.state())).scenario, steps: step },
  );
  assert.ok(reference.counts.interpretedRuns - after.interpretedRuns >= step, 'the reference ran on the interpreter');
  assert.equal(fingerprint, reference.hash, 'the page shows the interpreter fingerprint');
  assert.deepEqual(errors, []);
  await page.close();
});
