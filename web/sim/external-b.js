// Integrators B from outside vilab's registry (compare mode only): their ids beside the
// registry's (a link's compare=), the engine, its method and order, the systems they take;
// their titles are the words mechanics.compare.<id>. Their code and engine load on demand
// (web/page/external-compare.js, web/sim/mujoco-compare.js), never in the first load: only
// this list is in it.
// msPerStep: a step's cost in the page (MuJoCo's step and vilab's measure of its state),
// ≈ 0.19 ms measured on the compound double pendulum in Chromium: B brought to A's step
// at once only when that is quick (web/page/run.js), else in slices between frames.
const mujoco = (id, method, order) =>
  Object.freeze({ id, engine: 'MuJoCo', method, order, systems: ['mechanism'], titleKey: `mechanics.compare.${id}`, msPerStep: 0.19 });

export const EXTERNAL_B = Object.freeze([mujoco('mujoco-rk4', 'RK4', 4), mujoco('mujoco-implicit', 'implicit', 1)]);

/** The external B of a compare id, or null. */
export const externalB = (id) => EXTERNAL_B.find((e) => e.id === id) ?? null;

/**
 * Why `id` cannot be B of a run of `system` (a registry integrator or an external one), as
 * { code, message } naming it, or null. Links (compare=) and the embed's vilab:load say the same.
 */
export function compareRefusal(lab, id, system) {
  const entry = lab.integrator(id) ?? externalB(id);
  if (!entry) return { code: 'unknown-id', message: `unknown integrator "${id}"` };
  if (!entry.systems.includes(system)) return { code: 'not-applicable', message: `integrator "${id}" does not support ${system}` };
  return null;
}

/** The external Bs offered for a system. */
export const externalBFor = (system) => EXTERNAL_B.filter((e) => e.systems.includes(system));
