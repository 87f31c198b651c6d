// Presets: scenes/presets.json (pendulums) and, when it exists,
// scenes/rigid_body_presets.json; both are arrays of
// { id, title, explanation, scenario, compare? } shared with tests and benchmarks.
// Presets whose system or integrators this build lacks are left out.

const files = import.meta.glob(['../../scenes/presets.json', '../../scenes/rigid_body_presets.json'], { eager: true, import: 'default' });

export function loadPresets(lab) {
  const order = ['../../scenes/presets.json', '../../scenes/rigid_body_presets.json'];
  const out = [];
  const seen = new Set();
  for (const path of order) {
    const list = files[path];
    if (!Array.isArray(list)) continue;
    for (const p of list) {
      if (!p || typeof p.id !== 'string' || seen.has(p.id) || !p.scenario) continue;
      try {
        lab.normalize(p.scenario);
        if (p.compare && !lab.integrator(p.compare)?.systems.includes(p.scenario.system)) continue;
      } catch {
        continue;
      }
      seen.add(p.id);
      out.push(p);
    }
  }
  return out;
}
