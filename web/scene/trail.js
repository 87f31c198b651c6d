// A fading trail: a line through the last N positions, alpha falling to zero
// at its tail. Positions shift in a preallocated buffer (no allocation per frame).
import { BufferAttribute, BufferGeometry, Color, Line, LineBasicMaterial } from 'three';

export class Trail {
  constructor(color, length = 240, opacity = 1) {
    this.length = length;
    this.count = 0;
    this.positions = new Float32Array(length * 3);
    const colors = new Float32Array(length * 4);
    const c = new Color(color);
    for (let i = 0; i < length; i++) {
      // index 0 is the newest point
      const a = opacity * (1 - i / length) ** 1.6;
      colors.set([c.r, c.g, c.b, a], i * 4);
    }
    this.geometry = new BufferGeometry();
    this.attr = new BufferAttribute(this.positions, 3);
    this.geometry.setAttribute('position', this.attr);
    this.geometry.setAttribute('color', new BufferAttribute(colors, 4));
    this.geometry.setDrawRange(0, 0);
    this.material = new LineBasicMaterial({ vertexColors: true, transparent: true, depthWrite: false });
    this.object = new Line(this.geometry, this.material);
    this.object.frustumCulled = false;
  }

  clear() {
    this.count = 0;
    this.geometry.setDrawRange(0, 0);
  }

  push(x, y, z) {
    const p = this.positions;
    if (this.count > 0) {
      // skip points that did not move (paused or tiny steps)
      const dx = p[0] - x;
      const dy = p[1] - y;
      const dz = p[2] - z;
      if (dx * dx + dy * dy + dz * dz < 1e-10) return;
    }
    p.copyWithin(3, 0, (this.length - 1) * 3);
    p[0] = x;
    p[1] = y;
    p[2] = z;
    this.count = Math.min(this.count + 1, this.length);
    this.geometry.setDrawRange(0, this.count);
    this.attr.needsUpdate = true;
  }

  dispose() {
    this.geometry.dispose();
    this.material.dispose();
  }
}
