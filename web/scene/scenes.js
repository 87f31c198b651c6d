// The scenes, one row per view id (viewOf in view.js says which one a system gets):
//
//   Body         the class drawn for A, B and the exact ghost:
//                new Body({ system, scenario, role, color, theme, heavy, visual0, samples });
//                body.instanced: its solids are instanced meshes, and the environment's
//                are made so too (common.js solidPart: one shader program for all)
//   environment  ({ env, body, theme, exactOffset }) → { target, floorZ, extent }: adds what
//                stands around the body (pivot, wall) to env and says where the home camera
//                looks, the floor's height and the extent to frame
//   camera       extent → the home camera's distance
//   gravityArrow extent → the height of the gravity arrow (only where the view draws one)
//   heavy        a rigid body on a pivot under gravity (its body, inset and caption know)
//   inset        the momentum-sphere inset
//   exactGhost   an exact solution may stand beside A as a grey ghost (page/run.js exactOf)
//   lookAhead    the camera frames the run's first seconds (a short separate run: page/run.js)
//   spaceTime    the visual state is u at a grid's nodes: the page adds the space–time image
//                and the kink tracker (plots/field-plots.js)
//   drag         its bobs can be dragged (paused) to set the start (page/drag.js)
import { BoxGeometry, CylinderGeometry, Mesh, SphereGeometry, Vector3 } from 'three';
import { solidMaterial, solidPart } from './common.js';
import { LinkageBody } from './linkage.js';
import { OscillatorBody } from './oscillator.js';
import { RigidBody } from './rigid.js';

// The scenes of systems only the full build runs (defined by data, mechanisms, fields):
// their code comes with that build (web/sim/page-lab.js withFullBuild: loadFullBuildScenes),
// not in the page's first load. Their rows' Body reads it once in.
const fullBuildBodies = { bodies: null, mechanism: null, field: null };
let loadingScenes = null;
/** Fetches the mechanism and field scenes once; resolves when their rows can draw. */
export function loadFullBuildScenes() {
  loadingScenes ??= import('./full-build-scenes.js').then(
    ({ BodiesScene, MechanismScene, FieldBody }) =>
      Object.assign(fullBuildBodies, { bodies: BodiesScene, mechanism: MechanismScene, field: FieldBody }),
    (e) => {
      loadingScenes = null; // a later call tries again
      throw e;
    },
  );
  return loadingScenes;
}
const fullBuildBody = (kind) => {
  const Body = fullBuildBodies[kind];
  if (!Body) throw new Error(`the ${kind} scene comes with the full build, which is not in yet`);
  return Body;
};

/** A chain hanging from its pivot: a small ball on a short post from above. */
function hangingFromPivot({ env, body, theme }) {
  const extent = body.extent;
  const r = Math.max(0.015, extent * 0.022);
  const instanced = body.instanced === true;
  const pivot = solidPart(new SphereGeometry(r, 16, 12), solidMaterial(theme.pivot, 'A'), instanced);
  const post = solidPart(new CylinderGeometry(r * 0.35, r * 0.35, extent * 0.12, 10), solidMaterial(theme.pivot, 'A'), instanced);
  post.rotation.x = Math.PI / 2;
  post.position.z = extent * 0.06;
  env.add(pivot, post);
  return { target: new Vector3(0, 0, -extent * 0.45), floorZ: -extent * 1.08, extent };
}

/** A block on a spring: the wall it is fixed to. */
function besideWall({ env, theme }) {
  const wall = new Mesh(new BoxGeometry(0.08, 1.9, 0.9), solidMaterial(theme.rod, 'A'));
  wall.position.set(-2.24, 0.42, 0.45);
  env.add(wall);
  return { target: new Vector3(-0.4, 0, 0.25), floorZ: 0, extent: 2.6 };
}

/** Bodies defined by data: framed on their initial positions and fixed anchors, the floor below the lowest. */
function aroundBodies({ body }) {
  return { target: body.center.clone(), floorZ: body.low - body.extent * 0.15, extent: body.extent };
}

/**
 * A top on its pivot, framed on the middle of what it draws: from the floor to the labels
 * of ω and L above it (so the page's overlays at the top of the view leave them free).
 */
function onPivot({ env, theme }) {
  env.add(new Mesh(new SphereGeometry(0.05, 16, 12), solidMaterial(theme.pivot, 'A')));
  return { target: new Vector3(0, 0, 0.75), floorZ: -0.25, extent: 1.6 };
}

/** A free body in space, framed with its exact ghost when it has one. */
function inSpace({ body, exactOffset }) {
  const target = new Vector3(0, 0, 0);
  const floorZ = -body.extent * 1.1;
  if (!exactOffset) return { target, floorZ, extent: body.extent };
  target.copy(exactOffset).multiplyScalar(0.5);
  return { target, floorZ, extent: body.extent + exactOffset.length() * 0.4 };
}

const standOff = (factor) => (extent) => Math.max(extent, 1) * factor;

export const SCENES = Object.freeze({
  linkage: {
    Body: LinkageBody,
    environment: hangingFromPivot,
    camera: standOff(3.3),
    gravityArrow: (extent) => -extent * 0.05,
    drag: true,
  },
  oscillator: { Body: OscillatorBody, environment: besideWall, camera: standOff(3.1) },
  rigid: { Body: RigidBody, environment: inSpace, camera: standOff(3.1), inset: true, exactGhost: true },
  top: { Body: RigidBody, environment: onPivot, camera: standOff(3.1), gravityArrow: () => 1.2, heavy: true, inset: true },
  // the frame is the reach around the anchors, which the bodies may approach from any side
  bodies: {
    get Body() {
      return fullBuildBody('bodies');
    },
    environment: aroundBodies,
    camera: (extent) => extent * 4.2,
    lookAhead: true,
  },
  // framed on the reach of its bodies around the world's joints
  mechanism: {
    get Body() {
      return fullBuildBody('mechanism');
    },
    environment: aroundBodies,
    camera: (extent) => extent * 3.4,
    gravityArrow: (extent) => -extent * 0.05,
  },
  // a string along x, framed on its drawn length
  field: {
    get Body() {
      return fullBuildBody('field');
    },
    environment: aroundBodies,
    camera: standOff(2.4),
    spaceTime: true,
  },
});
