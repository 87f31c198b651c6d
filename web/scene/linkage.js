// Pendulum-like systems: pendulum, spherical pendulum, double spherical
// pendulum, chain of N links. visualState = bob positions [x, y, z]*, hung
// from the origin, gravity along −z (the scene's up is +z).
import { CylinderGeometry, Group, InstancedMesh, Matrix4, Quaternion, SphereGeometry, Vector3 } from 'three';
import { GHOST_SCALE, solidMaterial } from './common.js';
import { Trail } from './trail.js';

const Y = new Vector3(0, 1, 0);

export class LinkageBody {
  /**
   * @param scenario normalized scenario (params.masses, params.lengths)
   * @param role     'A' (solid) or 'B' (the ghost: a rim that never hides A, common.js ghostMaterial)
   */
  constructor({ scenario, color, role, theme, trails = true }) {
    const masses = scenario.params?.masses ?? [1];
    const lengths = scenario.params?.lengths ?? [1];
    this.n = masses.length;
    this.role = role;
    const total = lengths.reduce((a, b) => a + b, 0);
    const mMax = Math.max(...masses);
    // bob radius ∝ m^(1/3), scaled to the link length so chains stay slender
    const base = Math.min(0.11 * Math.max(total, 0.5), 0.55 * Math.min(...lengths)) * (this.n > 4 ? 0.6 : 1);
    this.radii = masses.map((m) => base * Math.cbrt(m / mMax) * (role === 'A' ? 1 : GHOST_SCALE));
    this.rodRadius = Math.max(0.008, base * 0.2) * (role === 'A' ? 1 : 1.6);
    this.object = new Group();
    this.bobMaterial = solidMaterial(color, role);
    this.rodMaterial = solidMaterial(role === 'A' ? theme.rod : color, role);
    this.bobs = new InstancedMesh(new SphereGeometry(1, 28, 18), this.bobMaterial, this.n);
    const rodGeometry = new CylinderGeometry(1, 1, 1, 10);
    rodGeometry.translate(0, 0.5, 0);
    this.rods = new InstancedMesh(rodGeometry, this.rodMaterial, this.n);
    this.bobs.frustumCulled = this.rods.frustumCulled = false;
    this.instanced = true; // the scene's other solids are drawn instanced too (one shader program)
    this.object.add(this.rods, this.bobs);
    // trails: every bob for ≤ 2 bobs, the last one for chains
    this.trails = [];
    if (trails) {
      const which = this.n <= 2 ? [...Array(this.n).keys()] : [this.n - 1];
      for (const i of which) {
        const tr = new Trail(color, role === 'A' ? 260 : 200, role === 'A' ? 0.95 : 0.8);
        tr.index = i;
        tr.object.renderOrder = role === 'A' ? 3 : 2; // A's trail on top of B's where they coincide
        this.trails.push(tr);
        this.object.add(tr.object);
      }
    }
    this.m = new Matrix4();
    this.q = new Quaternion();
    this.v = new Vector3();
    this.s = new Vector3();
    this.p = new Vector3();
    this.focusPoint = new Vector3();
    this.extent = total;
  }

  update(visual) {
    const n = Math.min(this.n, Math.floor(visual.length / 3));
    let px = 0;
    let py = 0;
    let pz = 0;
    for (let i = 0; i < n; i++) {
      const x = visual[3 * i];
      const y = visual[3 * i + 1];
      const z = visual[3 * i + 2];
      const r = this.radii[i];
      this.m.makeScale(r, r, r).setPosition(x, y, z);
      this.bobs.setMatrixAt(i, this.m);
      const dx = x - px;
      const dy = y - py;
      const dz = z - pz;
      const len = Math.hypot(dx, dy, dz);
      this.v.set(dx, dy, dz);
      if (len > 1e-12) this.v.multiplyScalar(1 / len);
      else this.v.copy(Y);
      this.q.setFromUnitVectors(Y, this.v);
      this.s.set(this.rodRadius, len, this.rodRadius);
      this.p.set(px, py, pz);
      this.m.compose(this.p, this.q, this.s);
      this.rods.setMatrixAt(i, this.m);
      px = x;
      py = y;
      pz = z;
    }
    this.bobs.instanceMatrix.needsUpdate = true;
    this.rods.instanceMatrix.needsUpdate = true;
    for (const tr of this.trails) {
      const i = tr.index;
      if (i < n) tr.push(visual[3 * i], visual[3 * i + 1], visual[3 * i + 2]);
    }
    this.focusPoint.set(px, py, pz);
  }

  clearTrails() {
    for (const tr of this.trails) tr.clear();
  }

  /** Where 'follow' looks: the last bob. */
  focus() {
    return this.focusPoint;
  }

  dispose() {
    this.bobs.geometry.dispose();
    this.rods.geometry.dispose();
    this.bobMaterial.dispose();
    this.rodMaterial.dispose();
    this.bobs.dispose();
    this.rods.dispose();
    for (const tr of this.trails) tr.dispose();
  }
}
