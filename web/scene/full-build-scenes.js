// The scenes of systems only the full build runs, as one chunk (web/scene/scenes.js
// loadFullBuildScenes fetches it with that build).
export { MechanismScene } from './mechanism.js';
export { FieldBody } from './field.js';
