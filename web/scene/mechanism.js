// Mechanisms (model "mechanism"): each body of params.bodies drawn with its shape (box,
// capsule, cylinder, sphere or tee; without one, the box of its principal moments, or a
// sphere for a point mass (inertia 0)), its +x
// face marked (a tee: the + half of its crossbar), at the pose of sim.visualState() (per body [x, y, z, w, qx, qy, qz], body →
// space, z up); a small ball at every joint to the world; a rod along every hinge's axis
// through its joint point, the axle its child turns on (spanning the child, carried by the
// hinge's parent, fixed for the world's); the last body's centre traced. A body whose pose is not finite is left where it was last drawn.
import { BoxGeometry, CapsuleGeometry, CylinderGeometry, Group, Mesh, Quaternion, SphereGeometry, Vector3 } from 'three';
import { GHOST_SCALE, solidMaterial } from './common.js';
import { OKABE_ITO } from './palette.js';
import { shapePieces } from './rigid.js';
import { tHandleMoments } from './rigid-shape.js';
import { Trail } from './trail.js';

const finitePose = (v, i) => {
  for (let k = 7 * i; k < 7 * i + 7; k++) if (!Number.isFinite(v[k])) return false;
  return true;
};

const vec3 = (v, fallback) => (Array.isArray(v) && v.length === 3 && v.every(Number.isFinite) ? v : fallback);

/** The principal moments [I1, I2, I3] of a body's inertia (a diagonal's entries for a 3×3). */
function moments(inertia) {
  if (Array.isArray(inertia?.[0])) return [inertia[0][0], inertia[1][1], inertia[2][2]];
  return vec3(inertia, [1, 1, 1]);
}

/**
 * The sides of the uniform box with these moments and mass: I1 = m (b² + c²)/12 …, so
 * a² = 6 (I2 + I3 − I1)/m; flat directions get a tenth of the largest side.
 */
export function inertiaBox(inertia, mass) {
  const [i1, i2, i3] = moments(inertia);
  const m = Number.isFinite(mass) && mass > 0 ? mass : 1;
  const side = (a, b, c) => Math.sqrt(Math.max(0, (6 * (b + c - a)) / m));
  const s = [side(i1, i2, i3), side(i2, i3, i1), side(i3, i1, i2)];
  const largest = Math.max(...s, 1e-3);
  return s.map((x) => Math.max(x, largest * 0.1));
}

/**
 * A body's pieces along its body axes (capsules and cylinders along z; a tee's crossbar
 * along y, its shaft along z, both thin uniform rods about the centre of mass) and its
 * half-extent: { pieces: [{ geometry, marked }], half, markedShape }.
 */
export function bodyGeometry(body) {
  const shape = body?.shape;
  const size = Array.isArray(shape?.size) ? shape.size.filter((x) => Number.isFinite(x) && x > 0) : [];
  const one = (geometry, half) => ({ pieces: [{ geometry, marked: false }], half, markedShape: false });
  if (shape?.type === 'sphere' || (!shape && body?.inertia === 0)) {
    const r = size[0] ?? 0.1;
    return one(new SphereGeometry(r, 24, 16), r);
  }
  if (shape?.type === 'capsule' || shape?.type === 'cylinder') {
    const r = size[0] ?? 0.05;
    const length = size[1] ?? 1;
    const g =
      shape.type === 'capsule' ? new CapsuleGeometry(r, Math.max(length - 2 * r, 1e-3), 6, 16) : new CylinderGeometry(r, r, length, 20);
    g.rotateX(Math.PI / 2); // three.js builds them along y; the body's axis is z
    return one(g, length / 2 + r);
  }
  if (shape?.type === 'tee' && size.length >= 2) {
    const [bar, shaft] = size;
    const thickness = size[2] ?? 0.1 * Math.max(bar, shaft);
    const { y } = tHandleMoments(bar, shaft);
    const pieces = shapePieces({ kind: 't-handle', shaftAxis: 2, barAxis: 1, bar, shaft, thickness, offset: -y });
    const half = Math.max(bar / 2, y + thickness / 2, shaft - y);
    return { pieces: pieces.map(({ geometry, marked }) => ({ geometry, marked: !!marked })), half, markedShape: true };
  }
  const sides = shape?.type === 'box' && size.length === 3 ? size : inertiaBox(body?.inertia, body?.mass);
  return one(new BoxGeometry(...sides), Math.max(...sides) / 2);
}

/** The joints' points fixed in the world: [Vector3]. */
function worldPoints(joints) {
  return (Array.isArray(joints) ? joints : [])
    .filter((j) => j?.parent === undefined || j?.parent === 'world')
    .map((j) => new Vector3(...vec3(j.parentPoint, [0, 0, 0])));
}

/** A joint's parent as a body index, or -1 for the world (a body is named by its name or its index). */
function parentIndex(joint, bodies) {
  const p = joint?.parent;
  if (p === undefined || p === 'world') return -1;
  if (Number.isInteger(p)) return p >= 0 && p < bodies.length ? p : null;
  const i = bodies.findIndex((b) => b?.name === p);
  return i >= 0 ? i : null;
}

/**
 * The hinges' rods: per hinge joint its parent (a body index, or -1 for the world), its
 * child's index, the joint's point and unit axis in the parent's frame:
 * [{ parent, child, point, axis }].
 */
export function hingeRods(joints, bodies) {
  const out = [];
  for (const j of Array.isArray(joints) ? joints : []) {
    if (j?.type !== 'hinge') continue;
    const parent = parentIndex(j, bodies);
    const child = parentIndex({ parent: j.child }, bodies);
    const axis = new Vector3(...vec3(j.parentAxis, [0, 0, 1]));
    if (parent === null || child === null || child < 0 || !(axis.length() > 0)) continue;
    out.push({ parent, child, point: new Vector3(...vec3(j.parentPoint, [0, 0, 0])), axis: axis.normalize() });
  }
  return out;
}

/** Centre, extent and lowest z of what may be drawn: the bodies swinging around the world's joints. */
export function mechanismFrame(visual0, halves, anchors) {
  const n = halves.length;
  const pts = [];
  for (let i = 0; i < n; i++)
    if (visual0 && finitePose(visual0, i)) pts.push([new Vector3(visual0[7 * i], visual0[7 * i + 1], visual0[7 * i + 2]), halves[i]]);
  if (!pts.length) return { center: new Vector3(), extent: 1, low: -1 };
  const pivot = anchors[0] ?? null;
  let reach = 0;
  for (const [p, half] of pts) reach = Math.max(reach, (pivot ? p.distanceTo(pivot) : 0) + half);
  if (pivot) return { center: pivot.clone(), extent: Math.max(0.25, reach), low: pivot.z - reach };
  const center = pts.reduce((c, [p]) => c.add(p), new Vector3()).multiplyScalar(1 / pts.length);
  let extent = 0.25;
  for (const [p, half] of pts) extent = Math.max(extent, p.distanceTo(center) + half);
  return { center, extent, low: center.z - extent };
}

export class MechanismScene {
  constructor({ scenario, color, role, theme, visual0, trails = true }) {
    const bodies = Array.isArray(scenario.params?.bodies) ? scenario.params.bodies : [];
    this.n = bodies.length;
    this.object = new Group();
    this.bodyMaterial = solidMaterial(color, role);
    this.markMaterial = solidMaterial(OKABE_ITO.yellow, role);
    this.pivotMaterial = solidMaterial(theme.pivot, role);
    this.theme = theme;
    const grow = role === 'A' ? 1 : GHOST_SCALE;
    const shapes = bodies.map(bodyGeometry);
    this.geometries = shapes.flatMap((s) => s.pieces.map((p) => p.geometry));
    this.meshes = shapes.map(({ pieces, half, markedShape }) => {
      const group = new Group();
      for (const { geometry, marked } of pieces) group.add(new Mesh(geometry, marked ? this.markMaterial : this.bodyMaterial));
      if (!markedShape) {
        // the marked face: a thin yellow plate on the body's +x side
        const mark = new Mesh(new BoxGeometry(0.02 * half, 0.6 * half, 0.6 * half), this.markMaterial);
        mark.position.x = half * 0.35;
        this.geometries.push(mark.geometry);
        group.add(mark);
      }
      group.scale.setScalar(grow);
      group.visible = false; // until a finite pose arrives
      this.object.add(group);
      return group;
    });
    this.anchors = worldPoints(scenario.params?.joints);
    const frame = mechanismFrame(
      visual0,
      shapes.map((s) => s.half),
      this.anchors,
    );
    Object.assign(this, { center: frame.center, extent: frame.extent, low: frame.low });
    this.sphere = new SphereGeometry(1, 16, 12);
    if (role === 'A')
      for (const a of this.anchors) {
        const p = new Mesh(this.sphere, this.pivotMaterial);
        p.scale.setScalar(Math.max(0.012, frame.extent * 0.02));
        p.position.copy(a);
        this.object.add(p);
      }
    // each hinge's rod: in the world's group or its parent's
    this.rods =
      role === 'A'
        ? this.#hingeRods(
            scenario.params?.joints,
            bodies,
            shapes.map((s) => s.half),
            frame.extent,
          )
        : [];
    this.trails = trails && this.n > 0 ? [new Trail(color, role === 'A' ? 260 : 200, role === 'A' ? 0.95 : 0.8)] : [];
    for (const tr of this.trails) this.object.add(tr.object);
    this.focusPoint = this.center.clone();
    if (visual0) this.update(visual0);
  }

  #hingeRods(joints, bodies, halves, extent) {
    const rods = hingeRods(joints, bodies);
    if (!rods.length) return [];
    this.rodGeometry = new CylinderGeometry(1, 1, 1, 12); // along y, scaled per rod
    this.rodMaterial = solidMaterial(this.theme.rod, 'A');
    const along = new Vector3(0, 1, 0);
    return rods.map(({ parent, child, point, axis }) => {
      const rod = new Mesh(this.rodGeometry, this.rodMaterial);
      const grown = parent >= 0 ? this.meshes[parent].scale.x : 1; // inside a scaled body group: undo its scale
      const radius = (0.008 * extent) / grown;
      rod.scale.set(radius, (2.4 * halves[child]) / grown, radius);
      rod.position.copy(point);
      rod.quaternion.copy(new Quaternion().setFromUnitVectors(along, axis));
      (parent >= 0 ? this.meshes[parent] : this.object).add(rod);
      return rod;
    });
  }

  /** Places the bodies at visual = [x, y, z, w, qx, qy, qz] per body; non-finite bodies keep their last pose. */
  update(visual) {
    const n = Math.min(this.n, Math.floor((visual?.length ?? 0) / 7));
    for (let i = 0; i < n; i++) {
      if (!finitePose(visual, i)) continue;
      const m = this.meshes[i];
      m.position.set(visual[7 * i], visual[7 * i + 1], visual[7 * i + 2]);
      m.quaternion.set(visual[7 * i + 4], visual[7 * i + 5], visual[7 * i + 6], visual[7 * i + 3]);
      m.visible = true;
    }
    const last = n - 1;
    if (last >= 0 && this.meshes[last].visible) {
      this.focusPoint.copy(this.meshes[last].position);
      for (const tr of this.trails) tr.push(this.focusPoint.x, this.focusPoint.y, this.focusPoint.z);
    }
  }

  clearTrails() {
    for (const tr of this.trails) tr.clear();
  }

  /** Where 'follow' looks: the last body. */
  focus() {
    return this.focusPoint;
  }

  dispose() {
    for (const g of this.geometries) g.dispose();
    this.sphere.dispose();
    this.rodGeometry?.dispose();
    this.rodMaterial?.dispose();
    this.bodyMaterial.dispose();
    this.markMaterial.dispose();
    this.pivotMaterial.dispose();
    for (const tr of this.trails) tr.dispose();
  }
}
