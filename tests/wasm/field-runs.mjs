// The field scenes of scenes/fields/ and the runs their hashes are checked on: every scene
// on every field integrator it accepts (a typed density of one component runs the box
// scheme, `midpoint`, and the AVI; one of several components also the leapfrog, RK4 and DOPRI5),
// the AVI also with two step sizes. Not a test file: tests/wasm/field.test.mjs
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

export const isTypedDensity = (scenario) => typeof scenario.params.density.lagrangian === 'string';

/** A typed density of several components (or with symmetries): the field system's rule. */
const hasComponents = ({ params: { density } }) =>
  (Array.isArray(density.fields) && (density.fields.length > 1 || density.fields[0] !== 'u')) || density.symmetries !== undefined;

/** Whether the field system runs the scene on the integrator. */
export const acceptsIntegrator = (scenario, integrator) =>
  !isTypedDensity(scenario) ||
  integrator === 'midpoint' ||
  integrator === 'avi' ||
  (hasComponents(scenario) && ['trapezoid', 'rk4', 'dopri5'].includes(integrator));

/**
 * [{ name, scenario }] of every scene × integrator it accepts; integrators: the field
 * system's. The scene's options are its own integrator's only. Some runs go beyond a
 * method's limit (the stiff string's leapfrog at h): the checks compare the refused step.
 */
export function fieldSceneRuns(integrators) {
  const runs = [];
  for (const { id, scenario } of fieldScenes()) {
    const { options, ...base } = scenario;
    for (const integrator of integrators) {
      if (!acceptsIntegrator(scenario, integrator)) continue;
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
