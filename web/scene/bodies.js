// Systems defined by data (model "lagrangian"): a sphere per body of the definition
// (params.bodies), at the positions of sim.visualState() (flat [x, y, z] per body, z
// up), each joined to its anchor (a fixed point or an earlier body) by a rod
// (cylinder) or a spring (a helix that stretches with the distance), with trails.
// A body whose position is not finite is left where it was last drawn. Entries of another
// kind are furniture (a hoop, a wire, a floor …: furniture.js), drawn by A's scene.
import { CatmullRomCurve3, CylinderGeometry, Group, Mesh, Quaternion, SphereGeometry, TubeGeometry, Vector3 } from 'three';
import { GHOST_SCALE, litMaterial, solidMaterial } from './common.js';
import { FurniturePiece, furnitureLayout, furnitureFrame, isFurniture } from './furniture.js';
import { Trail } from './trail.js';

const Y = new Vector3(0, 1, 0);
const SPRING_TURNS = 9;

/** A helix of unit length along +y (from y = 0 to 1), coil radius r, as a tube. */
function springGeometry(r, tube) {
  const pts = [];
  const n = SPRING_TURNS * 16;
  // straight leads at both ends, the coil between
  pts.push(new Vector3(0, 0, 0), new Vector3(0, 0.06, 0));
  for (let i = 0; i <= n; i++) {
    const s = i / n;
    const a = s * SPRING_TURNS * 2 * Math.PI;
    pts.push(new Vector3(r * Math.cos(a), 0.1 + 0.8 * s, r * Math.sin(a)));
  }
  pts.push(new Vector3(0, 0.94, 0), new Vector3(0, 1, 0));
  return new TubeGeometry(new CatmullRomCurve3(pts), n * 2, tube, 6, false);
}

const finite3 = (v, i) => Number.isFinite(v[3 * i]) && Number.isFinite(v[3 * i + 1]) && Number.isFinite(v[3 * i + 2]);

/** The bodies' anchors from the normalized params: { kind: 'point', point } | { kind: 'body', index } | null, and the link. */
export function anchorsOf(bodies) {
  return bodies.map((b, i) => {
    if (isFurniture(b)) return null;
    const a = b?.anchor;
    const link = b?.link === 'spring' || b?.link === 'none' ? b.link : 'rod';
    if (Array.isArray(a) && a.length === 3 && a.every(Number.isFinite))
      return { kind: 'point', point: new Vector3(a[0], a[1], a[2]), link };
    if (Number.isInteger(a) && a >= 0 && a < i) return { kind: 'body', index: a, link };
    return null;
  });
}

/**
 * The frame of the picture: centre, extent (half the largest side of the box) and the
 * lowest z of the box around the fixed anchors and the positions of `samples` (the
 * initial visualState, and any later ones the caller has: a short look-ahead), and,
 * for a body swinging on a rod (or on a spring straight from a fixed point), the ball
 * it can reach around its pivot with its initial distances: a pendulum's whole swing.
 */
export function frameOf(samples, anchors, furniture = []) {
  const lo = new Vector3(Infinity, Infinity, Infinity);
  const hi = new Vector3(-Infinity, -Infinity, -Infinity);
  const p = new Vector3();
  const add = (x, y, z, r = 0) => {
    lo.min(p.set(x - r, y - r, z - r));
    hi.max(p.set(x + r, y + r, z + r));
  };
  const list = (Array.isArray(samples) ? samples : [samples]).filter((v) => v && v.length);
  for (const v of list) {
    const n = Math.min(anchors.length, Math.floor(v.length / 3));
    for (let i = 0; i < n; i++) if (finite3(v, i)) add(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  }
  for (const a of anchors) if (a?.kind === 'point') add(a.point.x, a.point.y, a.point.z);
  // furniture at the start: a hoop's ball, a wire's points
  for (const item of furniture) for (const [x, y, z, r] of furnitureFrame(item, list[0])) add(x, y, z, r);
  // swings, from the initial positions: pivot[i] (a point) and reach[i] of body i
  const v0 = list[0];
  const n0 = v0 ? Math.min(anchors.length, Math.floor(v0.length / 3)) : 0;
  const pos = [];
  for (let i = 0; i < n0; i++) pos.push(finite3(v0, i) ? new Vector3(v0[3 * i], v0[3 * i + 1], v0[3 * i + 2]) : null);
  const pivot = [];
  const reach = [];
  for (let i = 0; i < n0; i++) {
    const a = anchors[i];
    pivot[i] = null;
    reach[i] = 0;
    if (!pos[i] || !a || a.link === 'none') continue;
    if (a.kind === 'point') {
      pivot[i] = a.point;
      reach[i] = pos[i].distanceTo(a.point);
    } else if (a.kind === 'body' && a.link === 'rod' && pos[a.index]) {
      // on a rod from an earlier body: around that body's own pivot when it swings too, else around it
      pivot[i] = pivot[a.index] ?? pos[a.index];
      reach[i] = (pivot[a.index] ? reach[a.index] : 0) + pos[i].distanceTo(pos[a.index]);
    }
    if (pivot[i]) add(pivot[i].x, pivot[i].y, pivot[i].z, reach[i]);
  }
  if (!Number.isFinite(lo.x)) return { center: new Vector3(), extent: 1, low: -1 };
  const center = lo.clone().add(hi).multiplyScalar(0.5);
  const side = hi.clone().sub(lo);
  const extent = Math.max(0.25, Math.max(side.x, side.y, side.z) / 2);
  return { center, extent, low: lo.z };
}

/** The shortest distance between two bodies' finite positions in a visual state (Infinity when none). */
function closestPair(visual, isBody) {
  let closest = Infinity;
  const n = Math.min(isBody.length, Math.floor((visual?.length ?? 0) / 3));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < i; j++) {
      if (!isBody[i] || !isBody[j] || !finite3(visual, i) || !finite3(visual, j)) continue;
      const d = Math.hypot(visual[3 * i] - visual[3 * j], visual[3 * i + 1] - visual[3 * j + 1], visual[3 * i + 2] - visual[3 * j + 2]);
      if (d > 1e-9) closest = Math.min(closest, d);
    }
  }
  return closest;
}

/** The median initial length of the springs (Infinity when there are none). */
function typicalSpringLength(anchors, visual0) {
  const lengths = [];
  anchors.forEach((a, i) => {
    if (a?.link !== 'spring' || !finite3(visual0 ?? [], i)) return;
    const from =
      a.kind === 'point'
        ? a.point
        : finite3(visual0, a.index)
          ? new Vector3(visual0[3 * a.index], visual0[3 * a.index + 1], visual0[3 * a.index + 2])
          : null;
    const d = from ? from.distanceTo(new Vector3(visual0[3 * i], visual0[3 * i + 1], visual0[3 * i + 2])) : 0;
    if (d > 1e-9) lengths.push(d);
  });
  lengths.sort((x, y) => x - y);
  return lengths.length ? lengths[lengths.length >> 1] : Infinity;
}

export class BodiesScene {
  /**
   * @param scenario normalized scenario (params.bodies)
   * @param role     'A' (solid) or 'B' (the ghost: a rim that never hides A, common.js ghostMaterial)
   * @param visual0  the initial visualState() (for the frame and the sizes)
   * @param samples  later visual states to frame as well (a short look-ahead), optional
   */
  constructor({ scenario, color, role, theme, visual0, samples = [], trails = true }) {
    const bodies = Array.isArray(scenario.params?.bodies) ? scenario.params.bodies : [];
    this.n = bodies.length;
    this.role = role;
    this.anchors = anchorsOf(bodies);
    this.isBody = bodies.map((b) => !isFurniture(b));
    this.visual0 = visual0;
    this.furnitureItems = furnitureLayout(bodies);
    const frame = frameOf([visual0, ...samples], this.anchors, this.furnitureItems);
    this.center = frame.center;
    this.extent = frame.extent;
    this.low = frame.low;
    // sizes: a fraction of the frame, smaller when bodies are many or close together
    const base = Math.max(0.01, Math.min(0.08 * this.extent, 0.3 * closestPair(visual0, this.isBody)));
    const grow = role === 'A' ? 1 : GHOST_SCALE;
    // radius: the definition's (0: an invisible point, e.g. a wall a spring is fixed to), else from the frame
    this.radii = bodies.map((b, i) => (!this.isBody[i] ? 0 : Number.isFinite(b?.radius) && b.radius >= 0 ? b.radius : base) * grow);
    this.rodRadius = Math.max(0.006, base * 0.18) * (role === 'A' ? 1 : 1.6);
    this.object = new Group();
    this.bodyMaterial = solidMaterial(color, role);
    this.linkMaterial = solidMaterial(role === 'A' ? theme.rod : color, role);
    this.pivotMaterial = solidMaterial(theme.pivot, role);
    this.sphere = new SphereGeometry(1, 28, 18);
    this.rodGeometry = new CylinderGeometry(1, 1, 1, 10);
    this.rodGeometry.translate(0, 0.5, 0);
    // a spring's coil: slender beside its initial length (a short spring of a long chain stays a spring)
    const typical = typicalSpringLength(this.anchors, visual0);
    const shown = this.radii.filter((r) => r > 0);
    const coil = Math.min(
      Math.max(base * 0.45, this.rodRadius * 2.5),
      0.07 * typical,
      0.6 * (shown.length ? Math.min(...shown) : Infinity),
    );
    this.springGeometry = springGeometry(coil, Math.min(this.rodRadius * 0.6, coil * 0.3));
    this.#buildMeshes(bodies, role);
    this.furniture = role === 'A' ? this.#buildFurniture(theme) : [];
    this.trails = trails && this.n > 0 ? this.#buildTrails(color, role) : [];
    this.positions = bodies.map(() => new Vector3());
    this.drawn = bodies.map(() => false);
    this.q = new Quaternion();
    this.d = new Vector3();
    this.focusPoint = this.center.clone();
    if (visual0) this.update(visual0);
  }

  /** A sphere per body, a rod or spring per link, and (A only; B shares them) a small grey ball per fixed anchor. */
  #buildMeshes(bodies, role) {
    this.spheres = bodies.map((_, i) => {
      const m = new Mesh(this.sphere, this.bodyMaterial);
      m.scale.setScalar(Math.max(this.radii[i], 1e-6));
      m.visible = false; // until a finite position arrives
      this.object.add(m);
      return m;
    });
    this.links = this.anchors.map((a) => {
      if (!a || a.link === 'none') return null;
      const m = new Mesh(a.link === 'spring' ? this.springGeometry : this.rodGeometry, this.linkMaterial);
      m.visible = false;
      this.object.add(m);
      return m;
    });
    this.pivots = [];
    if (role !== 'A') return;
    for (const a of this.anchors) {
      if (a?.kind !== 'point' || a.link === 'none') continue;
      const p = new Mesh(this.sphere, this.pivotMaterial);
      p.scale.setScalar(Math.max(this.rodRadius * 2.2, 0.012));
      p.position.copy(a.point);
      this.pivots.push(p);
      this.object.add(p);
    }
  }

  /** The furniture (drawn once, by A: it is where the run's own bodies move), in the rods' grey. */
  #buildFurniture(theme) {
    if (!this.furnitureItems.length) return [];
    this.furnitureMaterial = litMaterial({ color: theme.rod, roughness: 0.55, metalness: 0.1 });
    return this.furnitureItems.map((item) => {
      const piece = new FurniturePiece(item, {
        size: this.extent,
        theme,
        material: this.furnitureMaterial,
        lit: litMaterial,
        visual0: this.visual0,
      });
      this.object.add(piece.object);
      return piece;
    });
  }

  /** Trails: every body for ≤ 3 bodies, else the last one. */
  #buildTrails(color, role) {
    const bodies = [...Array(this.n).keys()].filter((i) => this.isBody[i]);
    const which = bodies.length <= 3 ? bodies : bodies.slice(-1);
    return which.map((i) => {
      const tr = new Trail(color, role === 'A' ? 260 : 200, role === 'A' ? 0.95 : 0.8);
      tr.index = i;
      tr.object.renderOrder = role === 'A' ? 3 : 2;
      this.object.add(tr.object);
      return tr;
    });
  }

  /** Places the bodies at visual = [x, y, z] per body; non-finite bodies keep their last place. */
  update(visual) {
    const n = Math.min(this.n, Math.floor((visual?.length ?? 0) / 3));
    for (let i = 0; i < n; i++) {
      if (!finite3(visual, i)) continue;
      this.positions[i].set(visual[3 * i], visual[3 * i + 1], visual[3 * i + 2]);
      this.spheres[i].position.copy(this.positions[i]);
      this.spheres[i].visible = this.isBody[i] && this.radii[i] > 0;
      this.drawn[i] = true;
    }
    for (let i = 0; i < this.n; i++) {
      const link = this.links[i];
      if (!link) continue;
      const a = this.anchors[i];
      const from = a.kind === 'point' ? a.point : this.drawn[a.index] ? this.positions[a.index] : null;
      if (!from || !this.drawn[i]) {
        link.visible = false;
        continue;
      }
      this.d.subVectors(this.positions[i], from);
      const len = this.d.length();
      if (!(len > 1e-9) || !Number.isFinite(len)) {
        link.visible = false;
        continue;
      }
      this.d.multiplyScalar(1 / len);
      this.q.setFromUnitVectors(Y, this.d);
      link.position.copy(from);
      link.quaternion.copy(this.q);
      if (a.link === 'spring') link.scale.set(1, len, 1);
      else link.scale.set(this.rodRadius, len, this.rodRadius);
      link.visible = true;
    }
    for (const tr of this.trails)
      if (this.drawn[tr.index] && tr.index < n && finite3(visual, tr.index))
        tr.push(visual[3 * tr.index], visual[3 * tr.index + 1], visual[3 * tr.index + 2]);
    for (const piece of this.furniture) piece.update(visual);
    const last = this.isBody.lastIndexOf(true);
    if (last >= 0 && this.drawn[last]) this.focusPoint.copy(this.positions[last]);
  }

  clearTrails() {
    for (const tr of this.trails) tr.clear();
  }

  /** Where 'follow' looks: the last body. */
  focus() {
    return this.focusPoint;
  }

  dispose() {
    this.sphere.dispose();
    this.rodGeometry.dispose();
    this.springGeometry.dispose();
    this.bodyMaterial.dispose();
    this.linkMaterial.dispose();
    this.pivotMaterial.dispose();
    this.furnitureMaterial?.dispose();
    for (const piece of this.furniture) piece.dispose();
    for (const tr of this.trails) tr.dispose();
  }
}
