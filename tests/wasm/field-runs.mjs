// The field scenes of scenes/fields/ and the runs their hashes are checked on: every scene
// on every field integrator (a typed density, of one component or several, runs them all:
// the box scheme, `midpoint`, the leapfrog, the AVI, RK4 and DOPRI5), the AVI also with
// two step sizes. Not a test file: tests/wasm/field.test.mjs
// (native = Node) and tests/e2e/determinism.test.mjs (native = Chromium) read it.
import { readdirSync, readFileSync } from 'node:fs';

const dir = new URL('../../scenes/fields/', import.meta.url);

/** The shipped field scenes: { id, about, scenario } with the `about` block apart. */
export const fieldScenes = () =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => {
      const { about, ...scenario } = JSON.parse(readFileSync(new URL(f, dir), 'utf8'));
      return { id: f.replace(/\.json$/, ''), about, scenario };
    });

/**
 * [{ name, scenario }] of every scene × integrator; integrators: the field
 * system's. The scene's options are its own integrator's only. Some runs go beyond a
 * method's limit (the stiff string's leapfrog at h): the checks compare the refused step.
 */
export function fieldSceneRuns(integrators) {
  const runs = [];
  for (const { id, scenario } of fieldScenes()) {
    const { options, ...base } = scenario;
    for (const integrator of integrators) {
      const own = integrator === scenario.integrator && options ? { options } : {};
      const variants = integrator === 'avi' ? [{}, { options: { fine: 3, from: 0.5 } }] : [{}];
      for (const extra of variants)
        runs.push({
          name: `${id}/${integrator}${extra.options ? ' (two steps)' : ''}`,
          scenario: { ...base, integrator, ...own, ...extra },
        });
    }
  }
  return runs;
}
