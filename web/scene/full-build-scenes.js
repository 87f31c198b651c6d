// The scenes of systems only the full build runs (defined by data, mechanisms, fields), as
// one chunk: web/scene/scenes.js loadFullBuildScenes fetches it with that build.
export { BodiesScene } from './bodies.js';
export { MechanismScene } from './mechanism.js';
export { FieldBody } from './field.js';
