// The shipped presets' files, as data: scenes/presets.json, scenes/rigid_body_presets.json
// and the scene files (scenes/lagrangian, mechanisms, fields), in the page's order. A chunk
// of its own (web/sim/presets.js imports it): the page's default first run is no preset, so
// these bytes come after its first frame.
const files = import.meta.glob(['../../scenes/presets.json', '../../scenes/rigid_body_presets.json'], { eager: true, import: 'default' });
const scenes = import.meta.glob(['../../scenes/lagrangian/*.json', '../../scenes/mechanisms/*.json', '../../scenes/fields/*.json'], {
  eager: true,
  import: 'default',
});

/**
 * Every candidate preset, in file order (the scene files sorted by path, each made a preset by
 * fromScene: web/sim/preset-data.js presetFromScene, passed in so that this chunk imports nothing), unchecked.
 */
export function presetCandidates(fromScene) {
  const order = ['../../scenes/presets.json', '../../scenes/rigid_body_presets.json'];
  const candidates = [];
  for (const path of order) if (Array.isArray(files[path])) candidates.push(...files[path]);
  for (const path of Object.keys(scenes).sort()) candidates.push(fromScene(path, scenes[path]));
  return candidates;
}
