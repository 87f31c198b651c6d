// Rigid body and heavy top. visualState = orientation quaternion [w, x, y, z]
// (body → space). Diagnostics give Π (bodyMomentum, body frame) and the spatial
// angular momentum (momentum, 3 components).
//
//   body          the shape of its principal moments (rigid-shape.js: a uniform box, or
//                 a T-handle for a flat body with three distinct moments), the face
//                 normal to the intermediate axis marked; coloured principal axes e1 e2 e3
//   ω, L          angular velocity ω = R I⁻¹Π and angular momentum L = RΠ
//   tip trail     the heavy top's axis tip traced (its nutation's loops or cusps)
//   ghost         role 'B': the rim of a larger copy behind A (common.js ghostMaterial)
//                 and its edges; 'exact': edges and faint faces (grey)
//   MomentumSphere   the inset: Π's path on |Π| = const with the energy ellipsoid
import {
  BoxGeometry,
  CylinderGeometry,
  BufferAttribute,
  BufferGeometry,
  EdgesGeometry,
  Group,
  Line,
  LineBasicMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  PerspectiveCamera,
  Quaternion,
  Scene,
  SphereGeometry,
  Vector3,
  AmbientLight,
  DirectionalLight,
} from 'three';
import { Arrow, ghostMaterial, GHOST_SCALE, litMaterial, makeLabel, quantityOf } from './common.js';
import { OKABE_ITO } from './palette.js';
import { boxSides, rigidShape } from './rigid-shape.js';
import { Trail } from './trail.js';

export { boxSides };

/** The principal moments of inertia of a rigid body's scenario (its system says which parameter holds them). */
export const principalMoments = (system, params) => quantityOf(system, params, 'principal-moments') ?? [1, 1, 1];

/** The heavy top's axle reaches AXLE |ρ| from the pivot, past the body: its tip is traced. */
const AXLE = 2;

/** The colour of the marked face (the one normal to the intermediate axis). */
const MARK = OKABE_ITO.yellow;

/** A box of `size` [sx, sy, sz] centred at c, its + face along `marked` (an axis or -1) in its own group. */
function boxPiece(size, c = [0, 0, 0], marked = -1) {
  const g = new BoxGeometry(...size);
  g.translate(...c);
  return { geometry: g, markedGroup: marked >= 0 ? 2 * marked : -1 };
}

/**
 * The pieces of a body's shape (rigid-shape.js) as box geometries: a box with its marked
 * face, or a T-handle's shaft and crossbar, the crossbar's + half marked.
 */
export function shapePieces(shape) {
  if (shape.kind === 'box') return [boxPiece(shape.sides, [0, 0, 0], shape.marked)];
  const { shaftAxis, barAxis, bar, shaft, thickness, offset } = shape;
  const along = (axis, length, centre) => {
    const size = [thickness, thickness, thickness];
    size[axis] = length;
    const c = [0, 0, 0];
    c[shaftAxis] = offset;
    c[axis] += centre;
    return [size, c];
  };
  const [shaftSize, shaftCentre] = along(shaftAxis, shaft - thickness / 2, thickness / 4 + shaft / 2);
  const [halfSize, minusCentre] = along(barAxis, bar / 2, -bar / 4);
  const [, plusCentre] = along(barAxis, bar / 2, bar / 4);
  const plus = boxPiece(halfSize, plusCentre);
  plus.marked = true;
  return [boxPiece(shaftSize, shaftCentre), boxPiece(halfSize, minusCentre), plus];
}

export class RigidBody {
  constructor({ system, scenario, color, role, theme, heavy = false }) {
    this.role = role;
    this.I = principalMoments(system, scenario.params);
    this.rho = heavy ? (quantityOf(system, scenario.params, 'center-of-mass') ?? [0, 0, 1]) : null;
    const r = this.rho ? Math.hypot(...this.rho) : 0;
    this.geometries = [];
    this.object = new Group(); // rotates with the body
    const body = new Group();
    const pieces = this.#shape(system, scenario, heavy, r);
    if (this.rho) {
      body.position.set(this.rho[0], this.rho[1], this.rho[2]);
      this.#buildAxle(theme, color, role, r);
    }
    this.object.add(body);
    if (role === 'A') this.#buildSolid(body, pieces, color, theme);
    else this.#buildGhost(body, pieces, color, role);
    // spatial vectors ω and L (not rotating with the body)
    this.world = new Group();
    if (role === 'A') {
      this.omega = new Arrow(OKABE_ITO.purple, { radius: 0.03, label: 'ω', labelColor: OKABE_ITO.purple });
      this.L = new Arrow(theme.fg, { radius: 0.03, label: 'L', labelColor: theme.fg });
      this.world.add(this.omega.object, this.L.object);
    }
    // the heavy top's axis tip (the end of its axle), traced: nutation's loops or cusps
    this.tipTrail = null;
    if (this.rho && r > 0 && role !== 'exact') {
      this.tipLocal = new Vector3(...this.rho).multiplyScalar(AXLE);
      this.tipTrail = new Trail(color, 1200, role === 'A' ? 0.95 : 0.8);
      this.tipTrail.object.renderOrder = role === 'A' ? 3 : 2;
      this.world.add(this.tipTrail.object);
    }
    this.trails = this.tipTrail ? [this.tipTrail] : [];
    this.quat = new Quaternion();
    this.tmp = new Vector3();
    this.scaleL = null;
    this.scaleW = null;
    this.focusPoint = new Vector3();
    this.extent = heavy ? 2.2 : 1.8;
  }

  /** The body's pieces: a gyroscope's disc (an axisymmetric heavy top), a heavy top's box, or the free body's shape. */
  #shape(system, scenario, heavy, r) {
    const [I1, I2, I3] = this.I;
    const gyro = heavy && Math.abs(I1 - I2) <= 1e-9 * Math.max(I1, I2) && Math.abs(this.rho[0]) + Math.abs(this.rho[1]) < 1e-12;
    if (gyro) {
      const mass = quantityOf(system, scenario.params, 'mass') ?? 1;
      const discR = Math.min(Math.max(Math.sqrt((2 * I3) / mass), 0.2), 0.6);
      const geometry = new CylinderGeometry(discR, discR, discR * 0.16, 48);
      geometry.rotateX(Math.PI / 2); // the disc's axis along the body's e3
      this.sides = [discR * 2, discR * 2, discR * 0.16];
      this.reach = this.sides.map((x) => x / 2);
      return [{ geometry, markedGroup: -1 }];
    }
    // a heavy top's body reaches from near the pivot: its longest side ≈ 1.8 |ρ|
    this.shape = heavy ? { kind: 'box', sides: boxSides(this.I, Math.max(0.3, 1.8 * (r || 0.5))) } : rigidShape(this.I, 1.4);
    this.sides = this.shape.kind === 'box' ? this.shape.sides : this.shape.reach.map((x) => 2 * x);
    this.reach = this.sides.map((x) => x / 2);
    if (this.shape.kind === 't-handle') this.reach = this.shape.reach;
    return shapePieces(heavy ? { ...this.shape, marked: -1 } : this.shape);
  }

  /** An axle from the pivot through the centre of mass. */
  #buildAxle(theme, color, role, r) {
    const axle = new CylinderGeometry(0.025, 0.025, 1, 12);
    axle.rotateX(Math.PI / 2);
    axle.translate(0, 0, 0.5);
    this.geometries.push(axle);
    this.axleMaterial =
      role === 'B'
        ? ghostMaterial(color)
        : litMaterial({ color: role === 'A' ? theme.rod : color, transparent: role !== 'A', opacity: role === 'A' ? 1 : 0.5 });
    const axleMesh = new Mesh(axle, this.axleMaterial);
    axleMesh.scale.set(role === 'B' ? 1.6 : 1, role === 'B' ? 1.6 : 1, r * AXLE);
    axleMesh.lookAt(this.rho[0], this.rho[1], this.rho[2]);
    this.object.add(axleMesh);
    // a knob on the axle's tip, the point whose trail shows the nutation
    const knob = new SphereGeometry(0.045, 16, 12);
    this.geometries.push(knob);
    this.knobMaterial = role === 'A' ? litMaterial({ color, roughness: 0.45 }) : this.axleMaterial;
    const knobMesh = new Mesh(knob, this.knobMaterial);
    knobMesh.position.set(...this.rho).multiplyScalar(AXLE);
    if (role === 'B') knobMesh.scale.setScalar(GHOST_SCALE);
    this.object.add(knobMesh);
  }

  /** A: the shape in A's colour with its marked face, its edges, and the principal axes e1, e2, e3. */
  #buildSolid(body, pieces, color, theme) {
    this.material = litMaterial({ color, roughness: 0.5, metalness: 0.05, transparent: true, opacity: 0.9 });
    this.markMaterial = litMaterial({ color: MARK, roughness: 0.5, metalness: 0.05 });
    this.edgeMaterial = new LineBasicMaterial({ color: theme.fg, transparent: true, opacity: 0.5 });
    for (const { geometry, markedGroup, marked } of pieces) {
      const mats =
        markedGroup >= 0
          ? [0, 1, 2, 3, 4, 5].map((k) => (k === markedGroup ? this.markMaterial : this.material))
          : marked
            ? this.markMaterial
            : this.material;
      const edges = new EdgesGeometry(geometry, 30);
      this.geometries.push(geometry, edges);
      body.add(new Mesh(geometry, mats), new LineSegments(edges, this.edgeMaterial));
    }
    // coloured principal axes e1, e2, e3 (they turn with the body)
    this.axes = [OKABE_ITO.vermillion, OKABE_ITO.green, OKABE_ITO.sky].map((c, i) => {
      const a = new Arrow(c, { radius: 0.025, label: `e${i + 1}`, labelColor: c });
      const d = [0, 0, 0];
      d[i] = this.reach[i] + 0.35;
      a.set(...d);
      body.add(a.object);
      return a;
    });
  }

  /** B: a larger copy's back faces (a rim behind A) and its edges; the exact ghost: edges and faint faces. */
  #buildGhost(body, pieces, color, role) {
    const grow = role === 'B' ? 1 + (GHOST_SCALE - 1) / 4 : 1.03;
    this.edgeMaterial = new LineBasicMaterial({ color, transparent: true, opacity: 0.95 });
    // the exact ghost stands apart (beside A), so its faces can be denser
    this.material =
      role === 'B' ? ghostMaterial(color) : new MeshBasicMaterial({ color, transparent: true, opacity: 0.3, depthWrite: false });
    for (const { geometry } of pieces) {
      const g2 = geometry.clone();
      g2.scale(grow, grow, grow);
      const edges = new EdgesGeometry(g2, 30);
      this.geometries.push(geometry, g2, edges);
      body.add(new Mesh(g2, this.material), new LineSegments(edges, this.edgeMaterial));
    }
  }

  /** visual = [w, x, y, z]; diag = sim.diagnostics() (bodyMomentum Π when present). */
  update(visual, diag) {
    const [w, x, y, z] = visual;
    this.quat.set(x, y, z, w).normalize();
    this.object.quaternion.copy(this.quat);
    if (this.tipTrail) {
      this.tmp.copy(this.tipLocal).applyQuaternion(this.quat);
      this.tipTrail.push(this.tmp.x, this.tmp.y, this.tmp.z);
    }
    if (!this.omega || !diag?.bodyMomentum) return;
    const Pi = diag.bodyMomentum;
    const I = this.I;
    // ω and L in space: R·(Π/I) and R·Π, drawn at a fixed scale set by the first frame
    this.tmp.set(Pi[0] / I[0], Pi[1] / I[1], Pi[2] / I[2]).applyQuaternion(this.quat);
    const wn = this.tmp.length();
    if (this.scaleW == null && wn > 0) this.scaleW = 1.3 / wn;
    const sw = this.scaleW ?? 1;
    this.omega.set(this.tmp.x * sw, this.tmp.y * sw, this.tmp.z * sw);
    this.tmp.set(Pi[0], Pi[1], Pi[2]).applyQuaternion(this.quat);
    const ln = this.tmp.length();
    if (this.scaleL == null && ln > 0) this.scaleL = 1.5 / ln;
    const sl = this.scaleL ?? 1;
    this.L.set(this.tmp.x * sl, this.tmp.y * sl, this.tmp.z * sl);
  }

  /** The labels of ω and L (for the page: they must not lie under its overlays). */
  vectorLabels() {
    if (!this.omega) return [];
    return [
      { text: 'ω', sprite: this.omega.label },
      { text: 'L', sprite: this.L.label },
    ];
  }

  /** ω and L live in a separate (non-rotating) group the view adds to the scene. */
  get extras() {
    return this.world;
  }

  clearTrails() {
    this.tipTrail?.clear();
  }

  focus() {
    return this.focusPoint;
  }

  dispose() {
    this.geometries.forEach((g) => g.dispose());
    this.material?.dispose();
    this.markMaterial?.dispose();
    if (this.knobMaterial !== this.axleMaterial) this.knobMaterial?.dispose();
    this.tipTrail?.dispose();
    this.edgeMaterial?.dispose();
    this.axleMaterial?.dispose();
    this.axes?.forEach((a) => a.dispose());
    this.omega?.dispose();
    this.L?.dispose();
  }
}

/**
 * The momentum-sphere inset: Π(t) of A (and B) on the sphere |Π| = |Π₀|, with
 * the energy ellipsoid Σ Π_i²/I_i = 2H; for the free body the exact orbits are
 * their intersection curves; the exact orbit (setExactPath) is drawn whole, in grey.
 * Drawn into a corner viewport by the view.
 */
export class MomentumSphere {
  constructor({ Pi0, I, theme, colors, free = true }) {
    this.scene = new Scene();
    this.camera = new PerspectiveCamera(35, 1, 0.1, 50);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(4.2, 3.1, 2.8);
    this.camera.lookAt(0, 0, 0);
    this.scene.add(new AmbientLight(0xffffff, 1.4));
    const dl = new DirectionalLight(0xffffff, 1.6);
    dl.position.set(2, 3, 4);
    this.scene.add(dl);
    const r = Math.hypot(...Pi0) || 1;
    this.norm = 1 / r;
    this.geoms = [];
    this.mats = [];
    const sphereG = new SphereGeometry(1, 24, 14);
    this.geoms.push(sphereG);
    const sphereM = new MeshBasicMaterial({ color: theme.muted, wireframe: true, transparent: true, opacity: 0.14, depthWrite: false });
    this.mats.push(sphereM);
    this.scene.add(new Mesh(sphereG, sphereM));
    // energy ellipsoid, semi-axes sqrt(2H I_i) (normalized by |Π₀|)
    const twoH = Pi0.reduce((s, p, i) => s + (p * p) / I[i], 0);
    const ellM = litMaterial({ color: colors.A, transparent: true, opacity: 0.08, depthWrite: false, roughness: 0.9 });
    this.mats.push(ellM);
    const ell = new Mesh(sphereG, ellM);
    ell.scale.set(...I.map((Ii) => Math.sqrt(twoH * Ii) * this.norm));
    if (free) this.scene.add(ell); // with gravity neither |Π| nor this energy is conserved
    // principal axes
    [OKABE_ITO.vermillion, OKABE_ITO.green, OKABE_ITO.sky].forEach((c, i) => {
      const g = new BufferGeometry();
      const p = new Float32Array(6);
      p[i] = -1.3;
      p[3 + i] = 1.3;
      g.setAttribute('position', new BufferAttribute(p, 3));
      const m = new LineBasicMaterial({ color: c });
      this.geoms.push(g);
      this.mats.push(m);
      this.scene.add(new Line(g, m));
      const label = makeLabel(`Π${'₁₂₃'[i]}`, c, 0.22);
      label.position.set(i === 0 ? 1.5 : 0, i === 1 ? 1.5 : 0, i === 2 ? 1.5 : 0);
      this.scene.add(label);
      this.mats.push(label.material);
    });
    this.trailA = new Trail(colors.A, 1500, 1);
    this.trailB = new Trail(colors.B, 1500, 0.9);
    // A's trail over B's, both over the exact orbit they follow
    this.trailA.object.renderOrder = 3;
    this.trailB.object.renderOrder = 2;
    this.scene.add(this.trailA.object, this.trailB.object);
    this.dotM = new MeshBasicMaterial({ color: colors.A });
    this.mats.push(this.dotM);
    const dotG = new SphereGeometry(0.05, 12, 8);
    this.geoms.push(dotG);
    this.dot = new Mesh(dotG, this.dotM);
    this.scene.add(this.dot);
    // the exact orbit of Π (a whole closed curve, grey) and the exact Π now (a grey dot)
    // (the theme's muted grey: darker than the ghost's, to stand out from the wireframe)
    this.exactColor = theme.muted ?? colors.exact ?? '#8a8f98';
    this.exactDot = null;
    this.exactPoints = 0;
  }

  /** points: Π(t) samples of the exact solution, [x, y, z, …] (not normalized); drawn once. */
  setExactPath(points) {
    const s = this.norm;
    const pos = new Float32Array(points.length);
    for (let i = 0; i < points.length; i++) pos[i] = points[i] * s;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(pos, 3));
    const m = new LineBasicMaterial({ color: this.exactColor, transparent: true, opacity: 0.85, depthWrite: false });
    this.geoms.push(g);
    this.mats.push(m);
    const line = new Line(g, m);
    line.renderOrder = 1;
    this.scene.add(line);
    this.exactPoints = pos.length / 3;
    const dm = new MeshBasicMaterial({ color: this.exactColor });
    const dg = new SphereGeometry(0.035, 10, 6);
    this.geoms.push(dg);
    this.mats.push(dm);
    this.exactDot = new Mesh(dg, dm);
    this.exactDot.position.set(pos[0], pos[1], pos[2]);
    this.scene.add(this.exactDot);
    this.exactLine = line;
  }

  setExactVisible(on) {
    if (this.exactLine) this.exactLine.visible = on;
    if (this.exactDot) this.exactDot.visible = on;
  }

  update(PiA, PiB, PiExact = null) {
    const s = this.norm;
    if (PiExact && this.exactDot) this.exactDot.position.set(PiExact[0] * s, PiExact[1] * s, PiExact[2] * s);
    if (PiA) {
      this.trailA.push(PiA[0] * s, PiA[1] * s, PiA[2] * s);
      this.dot.position.set(PiA[0] * s, PiA[1] * s, PiA[2] * s);
    }
    if (PiB) this.trailB.push(PiB[0] * s, PiB[1] * s, PiB[2] * s);
  }

  clear() {
    this.trailA.clear();
    this.trailB.clear();
  }

  dispose() {
    this.geoms.forEach((g) => g.dispose());
    this.mats.forEach((m) => {
      m.map?.dispose();
      m.dispose();
    });
    this.trailA.dispose();
    this.trailB.dispose();
  }
}
