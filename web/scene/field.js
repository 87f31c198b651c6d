// Fields (model "field"): the string u(x, t) drawn as a tube through its grid points, x
// along the scene's x axis (the length drawn as 2, centred), u upwards. The scale comes
// from the scenario alone: params.grid (length, points, ends) and the largest |u| of the
// initial state (visual0 = u at the nodes, sim.visualState()); fixed ends get a post.
// A non-finite u leaves the string where it was last drawn. A field of several components
// (web/sim/field-components.js) is drawn in 3-D: its first two components are the string's
// two transverse displacements, the first upwards and the second across (the whirling string). Where the wave speed varies
// (stiffness: c² per cell from the core, web/sim/stiffness.js) the stiffer stretches are drawn in
// the theme's foreground colour, with a bar under each as thick as its wave speed c/c_min is
// times the softest's.
import { BoxGeometry, BufferAttribute, BufferGeometry, Color, CylinderGeometry, Group, Line, LineBasicMaterial, Mesh } from 'three';
import { solidMaterial } from './common.js';
import { stiffSegments } from '../sim/stiffness.js';
import { fieldComponents } from '../sim/field-components.js';

const WIDTH = 2; // the drawn length

/**
 * Where node i of n is drawn, and the height scale: x in [−1, 1] (periodic ends leave
 * the closing cell's gap), u scaled so that the initial largest |u| (or the span of u
 * when it is far from 0: a kink from 0 to 2π) is drawn 0.4 high.
 */
export function fieldLayout(grid, visual0, components = 1) {
  const n = Math.max(2, Math.floor(grid?.points ?? (visual0?.length ?? 2) / components));
  const periodic = grid?.ends === 'periodic';
  const xs = Array.from({ length: n }, (_, i) => -WIDTH / 2 + (WIDTH * i) / (periodic ? n : n - 1));
  let lo = 0;
  let hi = 0;
  for (const u of visual0 ?? []) {
    if (!Number.isFinite(u)) continue;
    lo = Math.min(lo, u);
    hi = Math.max(hi, u);
  }
  // several components turn about the axis u = 0: drawn from it, each as far as the largest |u|
  if (components > 1) {
    const most = Math.max(Math.abs(lo), Math.abs(hi), 1e-9);
    return { n, xs, components, scale: 0.2 / most, offset: 0 };
  }
  const span = Math.max(hi - lo, 1e-9);
  return { n, xs, components, scale: 0.4 / span, offset: -(lo + hi) / 2 };
}

/** Whether node i (at i·dx) touches a cell of a stiff stretch (from, to in m; cells dx long). */
function stiffNode(i, segments, dx) {
  const x = i * dx;
  return segments.some((s) => x >= s.from - dx / 2 && x <= s.to + dx / 2);
}

export class FieldBody {
  constructor({ scenario, color, role, theme, visual0, stiffness = null }) {
    const grid = scenario.params?.grid;
    const layout = fieldLayout(grid, visual0, fieldComponents(scenario).length);
    Object.assign(this, layout);
    this.role = role;
    this.object = new Group();
    this.positions = new Float32Array(3 * layout.n);
    for (let i = 0; i < layout.n; i++) this.positions[3 * i] = layout.xs[i];
    this.geometry = new BufferGeometry();
    this.geometry.setAttribute('position', new BufferAttribute(this.positions, 3));
    // the stiff stretches: [{ from, to (m), speed2 }], none where c² is the same everywhere
    this.stiff = stiffSegments(stiffness, grid);
    const length = grid?.length ?? 1;
    this.colors = new Float32Array(3 * layout.n);
    const own = new Color(color);
    const stiffColour = new Color(theme.fg);
    const dx = length / (grid?.ends === 'periodic' ? layout.n : layout.n - 1);
    for (let i = 0; i < layout.n; i++) (stiffNode(i, this.stiff, dx) ? stiffColour : own).toArray(this.colors, 3 * i);
    this.geometry.setAttribute('color', new BufferAttribute(this.colors, 3));
    this.material = new LineBasicMaterial({ vertexColors: true, transparent: role !== 'A', opacity: role === 'A' ? 1 : 0.6 });
    this.line = new Line(this.geometry, this.material);
    // B runs just behind A so both strings stay visible
    if (role !== 'A') this.object.position.y = 0.15;
    this.object.add(this.line);
    this.postMaterial = solidMaterial(theme.pivot, role);
    this.post = new CylinderGeometry(0.012, 0.012, 0.5, 10);
    if (grid?.ends === 'fixed' && role === 'A')
      for (const x of [layout.xs[0], layout.xs[layout.n - 1]]) {
        const p = new Mesh(this.post, this.postMaterial);
        p.rotation.x = Math.PI / 2;
        p.position.set(x, 0, 0);
        this.object.add(p);
      }
    this.bars = role === 'A' ? this.stiff.map((s) => this.#bar(s, length, Math.min(...stiffness), theme)) : [];
    this.center = this.object.position.clone();
    this.extent = 1.2;
    this.low = -0.4;
    this.focusPoint = this.center.clone();
    if (visual0) this.update(visual0);
  }

  /**
   * Puts node i at (x_i, 0, (u_i + offset)·scale), or with several components at (x_i, v_i·scale,
   * u_i·scale); a non-finite value keeps its last place.
   */
  update(visual) {
    const n = Math.min(this.n, Math.floor((visual?.length ?? 0) / this.components));
    for (let i = 0; i < n; i++) if (Number.isFinite(visual[i])) this.positions[3 * i + 2] = (visual[i] + this.offset) * this.scale;
    if (this.components > 1)
      for (let i = 0; i < n; i++) {
        const v = visual[this.n + i];
        if (Number.isFinite(v)) this.positions[3 * i + 1] = v * this.scale;
      }
    this.geometry.attributes.position.needsUpdate = true;
    this.geometry.computeBoundingSphere();
  }

  /** A bar under a stiff stretch, from its start to its end, as thick as c/c_min times a soft one's. */
  #bar({ from, to, speed2 }, length, soft, theme) {
    const thick = 0.012 * Math.sqrt(speed2 / soft);
    const bar = new Mesh(new BoxGeometry((WIDTH * (to - from)) / length, thick, thick), solidMaterial(theme.fg, 'A'));
    bar.position.set(-WIDTH / 2 + (WIDTH * (from + to)) / 2 / length, 0, -0.3);
    this.object.add(bar);
    return bar;
  }

  /** Where the view marks the string stiff: [{ from, to, speed2 }] and the bars' x extents as drawn. */
  stiffFacts() {
    return {
      segments: this.stiff.map((s) => ({ ...s })),
      bars: this.bars.map((b) => ({ x: b.position.x, width: b.geometry.parameters.width, thick: b.geometry.parameters.height })),
    };
  }

  /** The string as drawn (for tests): its components and every node's drawn position [x, y, z]. */
  stringFacts() {
    return { components: this.components, positions: Array.from(this.positions) };
  }

  clearTrails() {}
  focus() {
    return this.focusPoint;
  }
  dispose() {
    this.geometry.dispose();
    this.material.dispose();
    this.post.dispose();
    this.postMaterial.dispose();
    for (const b of this.bars) {
      b.geometry.dispose();
      b.material.dispose();
    }
  }
}
