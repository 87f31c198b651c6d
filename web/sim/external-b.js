// Integrators B from outside vilab's registry (compare mode only): their ids beside the
// registry's (a link's compare=), the engine, its method and order, the systems they take;
// their titles are the words mechanics.compare.<id>. Their code and engine load on demand
// (web/page/external-compare.js, web/sim/mujoco-compare.js), never in the first load: only
// this list is in it.
const mujoco = (id, method, order) =>
  Object.freeze({ id, engine: 'MuJoCo', method, order, systems: ['mechanism'], titleKey: `mechanics.compare.${id}` });

export const EXTERNAL_B = Object.freeze([mujoco('mujoco-rk4', 'RK4', 4), mujoco('mujoco-implicit', 'implicit', 1)]);

/** The external B of a compare id, or null. */
export const externalB = (id) => EXTERNAL_B.find((e) => e.id === id) ?? null;

/** The external Bs offered for a system. */
export const externalBFor = (system) => EXTERNAL_B.filter((e) => e.systems.includes(system));
