// Scene furniture of a system defined by data: the entries of params.bodies whose
// `kind` is not "body" (a hoop, a pulley, a wire, a curve, a floor or a wall). Drawn
// only; the core evaluates where each is: the visual state holds 3 numbers per entry
// (its position), then per furniture entry its angle about its axis, a hoop's or
// pulley's radius and, for a wire or a curve, 3 numbers per point (in the entry's own
// frame, before the turn).
import {
  BoxGeometry,
  CatmullRomCurve3,
  CurvePath,
  CylinderGeometry,
  DoubleSide,
  Group,
  LineCurve3,
  Mesh,
  PlaneGeometry,
  Quaternion,
  TorusGeometry,
  TubeGeometry,
  Vector3,
} from 'three';

const Z = new Vector3(0, 0, 1);
const FURNITURE_KINDS = new Set(['hoop', 'pulley', 'wire', 'curve', 'floor', 'wall']);

/** True for an entry of params.bodies that is furniture, not a body. */
export const isFurniture = (entry) => FURNITURE_KINDS.has(entry?.kind);

/** How many points a furniture entry carries in the visual state (a wire's points, a curve's samples). */
const pointCount = (entry) => (entry.kind === 'wire' ? (entry.points?.length ?? 0) : entry.kind === 'curve' ? (entry.samples ?? 0) : 0);

const isRound = (entry) => entry.kind === 'hoop' || entry.kind === 'pulley';

/**
 * Where each furniture entry's numbers are in the visual state: [{ index, entry, angle
 * (offset of its angle), radius (offset of a hoop's or pulley's radius, else -1), points
 * (offset of its first point), count }], for the normalized params.bodies.
 */
export function furnitureLayout(bodies) {
  let at = 3 * bodies.length;
  const out = [];
  bodies.forEach((entry, index) => {
    if (!isFurniture(entry)) return;
    const count = pointCount(entry);
    const radius = isRound(entry) ? at + 1 : -1;
    const points = at + (isRound(entry) ? 2 : 1);
    out.push({ index, entry, angle: at, radius, points, count });
    at = points + 3 * count;
  });
  return out;
}

/** A unit vector from three numbers (fallback when absent or zero). */
function unit(v, fallback) {
  const u = Array.isArray(v) && v.length === 3 ? new Vector3(v[0], v[1], v[2]) : fallback.clone();
  return u.lengthSq() > 0 ? u.normalize() : fallback.clone();
}

/**
 * What of a furniture entry the picture frames, from a visual state: [[x, y, z, r], …]
 * (a hoop's or pulley's ball around its place; a wire's or curve's points at its
 * place, before its turn); a floor or wall frames nothing (it is as large as the picture).
 */
export function furnitureFrame(item, visual) {
  const i = item.index;
  const [x, y, z] = [visual?.[3 * i], visual?.[3 * i + 1], visual?.[3 * i + 2]];
  if (![x, y, z].every(Number.isFinite)) return [];
  if (item.radius >= 0) {
    const r = Math.abs(visual[item.radius]);
    return Number.isFinite(r) ? [[x, y, z, r]] : [];
  }
  const out = [];
  for (let k = 0; k < item.count; k++) {
    const o = item.points + 3 * k;
    const p = [x + visual[o], y + visual[o + 1], z + visual[o + 2]];
    if (p.every(Number.isFinite)) out.push([...p, 0]);
  }
  return out;
}

/** One piece of furniture: a three.js object placed and turned from the visual state. */
export class FurniturePiece {
  /**
   * @param item   an entry of furnitureLayout
   * @param size   the picture's extent (a floor's default half-size, the tube's thickness)
   * @param theme  the scene theme (colours)
   * @param lit    makes a lit surface's material (common.js's litMaterial; not imported here,
   *               so the editor, which imports isFurniture, shares no module with the page)
   */
  constructor(item, { size, theme, material, lit, visual0 }) {
    this.item = item;
    this.entry = item.entry;
    this.axis = unit(this.entry.axis, Z);
    // the shape's resting orientation: its normal (z of the geometries below) along entry.normal
    this.rest = new Quaternion().setFromUnitVectors(Z, unit(this.entry.normal, this.#defaultNormal()));
    this.turn = new Quaternion();
    this.tube = Math.max(0.004, size * 0.012);
    this.size = size;
    this.material = material;
    this.lit = lit;
    this.object = new Group();
    this.mesh = null;
    this.angle = 0;
    this.lastPoints = null;
    // a hoop or pulley is built at its first radius and scaled when the radius changes
    this.radius0 = item.radius >= 0 && Math.abs(visual0?.[item.radius]) > 0 ? Math.abs(visual0[item.radius]) : 1;
    this.#build(theme);
  }

  #defaultNormal() {
    const k = this.entry.kind;
    return k === 'floor' ? Z : k === 'wall' ? new Vector3(1, 0, 0) : new Vector3(0, 1, 0);
  }

  #build(theme) {
    const e = this.entry;
    if (e.kind === 'hoop') this.#add(new TorusGeometry(this.radius0, this.tube * 1.4, 12, 96), this.material);
    if (e.kind === 'pulley') this.#buildPulley(this.radius0);
    if (e.kind === 'floor' || e.kind === 'wall') {
      const half = Number.isFinite(e.size) ? e.size : this.size * 1.2;
      const plane = this.lit({
        color: theme.grid,
        roughness: 0.9,
        transparent: true,
        opacity: 0.55,
        side: DoubleSide,
        depthWrite: false,
      });
      this.planeMaterial = plane;
      this.#add(new PlaneGeometry(2 * half, 2 * half), plane);
    }
  }

  /** A pulley: a rim, a disc and two spokes (so its turning shows), facing its normal. */
  #buildPulley(r) {
    this.#add(new TorusGeometry(r, this.tube * 1.6, 10, 64), this.material);
    const disc = new CylinderGeometry(r * 0.96, r * 0.96, this.tube * 1.2, 48);
    disc.rotateX(Math.PI / 2);
    this.discMaterial = this.lit({ color: this.material.color, roughness: 0.7, transparent: true, opacity: 0.35 });
    this.#add(disc, this.discMaterial);
    for (const a of [0, Math.PI / 2]) {
      const spoke = new BoxGeometry(2 * r, this.tube * 2.4, this.tube * 2.4);
      spoke.rotateZ(a);
      this.#add(spoke, this.material);
    }
  }

  #add(geometry, material) {
    const m = new Mesh(geometry, material);
    this.object.add(m);
    return m;
  }

  /** The wire's or curve's points (own frame) from the visual state, as Vector3s; null when not finite. */
  #pointsOf(visual) {
    const pts = [];
    for (let k = 0; k < this.item.count; k++) {
      const o = this.item.points + 3 * k;
      const p = new Vector3(visual[o], visual[o + 1], visual[o + 2]);
      if (!Number.isFinite(p.x) || !Number.isFinite(p.y) || !Number.isFinite(p.z)) return null;
      pts.push(p);
    }
    return pts;
  }

  /** A wire's tube, rebuilt only when its points move (a still wire is built once). */
  #updateWire(visual) {
    const pts = this.#pointsOf(visual);
    if (!pts || pts.length < 2) return;
    const flat = pts.flatMap((p) => [p.x, p.y, p.z]);
    if (this.lastPoints && flat.every((x, i) => Math.abs(x - this.lastPoints[i]) <= 1e-9)) return;
    this.lastPoints = flat;
    if (this.mesh) {
      this.object.remove(this.mesh);
      this.mesh.geometry.dispose();
    }
    const closed = !!this.entry.closed;
    // a wire is straight between its points; a curve is smooth through its samples
    let path;
    if (this.entry.kind === 'curve') path = new CatmullRomCurve3(pts, closed, 'centripetal');
    else {
      path = new CurvePath();
      for (let k = 1; k < pts.length; k++) path.add(new LineCurve3(pts[k - 1], pts[k]));
      if (closed) path.add(new LineCurve3(pts[pts.length - 1], pts[0]));
    }
    const segments = Math.min(1024, Math.max(64, pts.length * 16));
    this.mesh = this.#add(new TubeGeometry(path, segments, this.tube, 8, closed), this.material);
  }

  /** Places and turns the piece from the visual state (non-finite numbers keep its last place). */
  update(visual) {
    const i = this.item.index;
    const x = visual[3 * i];
    const y = visual[3 * i + 1];
    const z = visual[3 * i + 2];
    if (Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z)) this.object.position.set(x, y, z);
    const angle = visual[this.item.angle];
    if (Number.isFinite(angle)) this.angle = angle;
    this.turn.setFromAxisAngle(this.axis, this.angle);
    this.object.quaternion.copy(this.turn);
    if (this.item.radius >= 0) {
      const r = Math.abs(visual[this.item.radius]);
      this.object.visible = r > 0 && Number.isFinite(r);
      if (this.object.visible) this.object.scale.setScalar(r / this.radius0);
    }
    // the resting orientation applies to the shapes (hoop, pulley, plane), not to a wire's own points
    for (const child of this.object.children) if (child !== this.mesh) child.quaternion.copy(this.rest);
    if (this.item.count > 0) this.#updateWire(visual);
  }

  dispose() {
    for (const child of this.object.children) child.geometry?.dispose();
    this.discMaterial?.dispose();
    this.planeMaterial?.dispose();
  }
}
