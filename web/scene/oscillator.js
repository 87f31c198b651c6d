// The harmonic oscillator: a block on a spring along x (visualState = [x, 0, 0],
// x measured from the spring's rest position).
import { BoxGeometry, BufferAttribute, BufferGeometry, Group, Line, LineBasicMaterial, Mesh } from 'three';
import { solidMaterial } from './common.js';

const COILS = 14;
const SEGMENTS = COILS * 16;

export class OscillatorBody {
  constructor({ scenario, color, role, theme }) {
    const x0 = Math.abs(scenario.initial?.position ?? 1);
    const v0 = Math.abs(scenario.initial?.velocity ?? 0);
    const k = scenario.params?.stiffness ?? 1;
    const m = scenario.params?.mass ?? 1;
    const amplitude = Math.hypot(x0, v0 / Math.sqrt(k / m)) || 1;
    this.scale = 1 / amplitude; // draw amplitude 1
    this.wall = -2.2;
    this.role = role;
    this.object = new Group();
    this.material = solidMaterial(color, role);
    this.block = new Mesh(new BoxGeometry(0.5, 0.5, 0.5), this.material);
    this.block.position.z = 0.25;
    this.object.add(this.block);
    const pts = new Float32Array((SEGMENTS + 1) * 3);
    for (let i = 0; i <= SEGMENTS; i++) {
      const u = i / SEGMENTS;
      const a = u * COILS * 2 * Math.PI;
      const taper = i < 8 || i > SEGMENTS - 8 ? 0 : 1;
      pts.set([u, 0.12 * Math.sin(a) * taper, 0.25 + 0.12 * Math.cos(a) * taper], i * 3);
    }
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(pts, 3));
    this.springMaterial = new LineBasicMaterial({
      color: role === 'A' ? theme.rod : color,
      transparent: role !== 'A',
      opacity: role === 'A' ? 1 : 0.6,
    });
    this.spring = new Line(g, this.springMaterial);
    this.spring.position.x = this.wall;
    this.object.add(this.spring);
    // B runs on a parallel track so both blocks stay visible
    if (role !== 'A') this.object.position.y = 0.85;
    this.focusPoint = this.block.position;
    this.extent = 2.5;
  }

  update(visual) {
    const x = visual[0] * this.scale;
    this.block.position.x = x;
    this.spring.scale.x = Math.max(x - 0.25 - this.wall, 0.05);
  }

  clearTrails() {}
  focus() {
    return this.focusPoint;
  }
  dispose() {
    this.block.geometry.dispose();
    this.spring.geometry.dispose();
    this.material.dispose();
    this.springMaterial.dispose();
  }
}
