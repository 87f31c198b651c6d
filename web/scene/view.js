// The three.js view: renderer, camera (z up, like the physics), OrbitControls
// (mouse and touch: one finger orbits, two pinch-zoom), the scene of the run's view
// (SCENES in scenes.js: the bodies of A, B and the exact solution, their environment,
// the home camera), floor grid, gravity arrow, the momentum-sphere inset, camera
// reset/follow, PNG export.
//
// It renders only when something changed (a new state, camera motion, resize).
import {
  AmbientLight,
  BufferAttribute,
  Color,
  DirectionalLight,
  GridHelper,
  Group,
  HemisphereLight,
  PerspectiveCamera,
  Quaternion,
  Scene,
  Vector3,
  WebGLRenderer,
} from 'three';
import { Arrow, disposeTree, makeLabel, quantityOf, setSoftwareShading } from './common.js';
import { RotatingFrame } from './frame.js';
import { MomentumSphere, principalMoments } from './rigid.js';
import { SCENES } from './scenes.js';
import { COLOR_A, COLOR_B, COLOR_EXACT, sceneTheme } from './palette.js';

/**
 * Which scene (SCENES) a system gets: its registry entry says (`view`: 'linkage' for the
 * pendulums and chains, 'oscillator', 'rigid' for a free rigid body, 'top' for a rigid body
 * under gravity, 'bodies' for the bodies a definition lists).
 */
export function viewOf(system) {
  return system.view;
}

/**
 * Samples of the exact Π(t) along one period (closed), or over 60 s when the period
 * is infinite (Π constant, or on the separatrix), as [x, y, z, …].
 */
function exactOrbit(exact, n = 360) {
  const T = Number.isFinite(exact.period) && exact.period > 0 ? exact.period : 60;
  const out = new Float64Array(3 * (n + 1));
  for (let i = 0; i <= n; i++) out.set(exact.Pi((T * i) / n), 3 * i);
  return out;
}

/**
 * A WebGL2 context without MSAA and whether it runs on a software rasterizer
 * (SwiftShader, llvmpipe): there MSAA is skipped and the context is kept for the
 * renderer; on a GPU it is given back and the renderer makes one with MSAA.
 */
function probeGL() {
  try {
    const canvas = document.createElement('canvas');
    const gl = canvas.getContext('webgl2', { antialias: false, alpha: false, powerPreference: 'high-performance' });
    if (!gl) return { software: false };
    const info = gl.getExtension('WEBGL_debug_renderer_info');
    const name = String(gl.getParameter(info ? info.UNMASKED_RENDERER_WEBGL : gl.RENDERER));
    if (/swiftshader|llvmpipe|softpipe|software/i.test(name)) return { software: true, canvas, context: gl };
    gl.getExtension('WEBGL_lose_context')?.loseContext();
    return { software: false };
  } catch {
    return { software: false };
  }
}

/**
 * The camera's controls until OrbitControls arrive (fetched after the first frame, which
 * they do not draw): the camera looks at the target and nothing moves it.
 */
class StillControls {
  constructor(camera) {
    this.camera = camera;
    this.target = new Vector3();
    this.enabled = true;
  }

  update() {
    this.camera.lookAt(this.target);
    return false;
  }

  dispose() {}
}

export class View {
  constructor(container, { reducedMotion = false } = {}) {
    this.container = container;
    this.reducedMotion = reducedMotion;
    const probe = probeGL();
    this.software = probe.software;
    setSoftwareShading(this.software);
    this.renderer = new WebGLRenderer({
      antialias: !this.software,
      alpha: false,
      powerPreference: 'high-performance',
      canvas: probe.canvas,
      context: probe.context,
    });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, this.software ? 1 : 2));
    this.canvas = this.renderer.domElement;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('tabindex', '0');
    // the canvas fills the container whatever its drawing buffer's size (#fitBuffer)
    this.canvas.style.width = '100%';
    this.canvas.style.height = '100%';
    container.prepend(this.canvas);
    this.scene = new Scene();
    this.camera = new PerspectiveCamera(38, 1, 0.01, 500);
    this.camera.up.set(0, 0, 1);
    this.controls = new StillControls(this.camera);
    this.theme = sceneTheme();
    this.scene.background = new Color(this.theme.background);
    this.scene.add(new HemisphereLight(0xffffff, 0x8090a0, 1.4));
    const key = new DirectionalLight(0xffffff, 1.8);
    key.position.set(3, -4, 6);
    this.scene.add(key, new AmbientLight(0xffffff, 0.35));
    this.env = new Group();
    this.bodies = new Group();
    this.scene.add(this.env, this.bodies);
    this.A = null;
    this.B = null;
    this.exact = null;
    this.inset = null;
    this.follow = false;
    this.inFrame = true; // a lesson's rotating frame, when it has one: the bodies drawn in it
    this.dirty = true;
    this.home = { position: new Vector3(3, -4, 1), target: new Vector3() };
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(container);
    this.resize();
  }

  /** Fetches OrbitControls (once) and hands them the camera where it is; resolves when they drive it. */
  startControls() {
    this.controlsLoaded ??= import('three/addons/controls/OrbitControls.js').then(({ OrbitControls }) => {
      const still = this.controls;
      const controls = new OrbitControls(this.camera, this.canvas);
      controls.target.copy(still.target);
      controls.enabled = still.enabled; // a drag under way keeps them off
      controls.enableDamping = !this.reducedMotion;
      controls.dampingFactor = 0.12;
      controls.listenToKeyEvents?.(this.canvas); // arrow keys pan when the canvas has focus
      controls.addEventListener('change', () => {
        this.dirty = true;
      });
      controls.addEventListener('start', () => {
        this.userMoved = true;
      });
      controls.update();
      this.controls = controls;
    });
    return this.controlsLoaded;
  }

  setTheme(dark) {
    this.theme = sceneTheme(dark);
    this.scene.background.set(this.theme.background);
    if (this.lastBuild) {
      const cam = this.getCamera();
      const moved = this.userMoved;
      this.build(this.lastBuild);
      if (moved) this.setCamera(cam);
    }
  }

  resize() {
    // the size is cached here (resize observer), so the frame loop never reads layout;
    // the drawing buffer follows at the next render (#fitBuffer)
    this.width = this.container.clientWidth;
    this.height = this.container.clientHeight;
    const w = Math.max(1, this.width);
    const h = Math.max(1, this.height);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.dirty = true;
  }

  /**
   * Gives the drawing buffer the view's size before a render. Setting a canvas's size
   * reallocates its buffer even when unchanged, and the page's start-up reports several
   * sizes before its first picture: only the one drawn with is allocated.
   */
  #fitBuffer() {
    const w = Math.max(1, this.width);
    const h = Math.max(1, this.height);
    const ratio = this.renderer.getPixelRatio();
    if (w === this.bufferSize?.w && h === this.bufferSize?.h && ratio === this.bufferSize?.ratio) return;
    this.renderer.setSize(w, h, false);
    this.bufferSize = { w, h, ratio };
    this.bufferAllocations = (this.bufferAllocations ?? 0) + 1;
  }

  /**
   * Builds the scene for a run.
   * spec = { kind (the view id: SCENES), system (the registry entry: which params are gravity, inertia, …), scenarioA, scenarioB|null, exact|null (object with orientation(t)), visualLength,
   *          visual0 (A's initial visualState), lookahead (later visual states of A to frame, SCENES[kind].lookAhead only),
   *          stiffness (a field's c² per cell, web/sim/stiffness.js; null for other systems),
   *          frame (a lesson's rotating frame, web/sim/lesson-view.js; null without one) }
   */
  build(spec) {
    this.lastBuild = spec;
    for (const o of [...this.env.children]) {
      this.env.remove(o);
      disposeTree(o);
    }
    for (const b of [this.A, this.B, this.exact]) b?.dispose();
    this.bodies.clear();
    this.inset?.dispose();
    this.inset = null;
    const { kind, scenarioA, scenarioB } = spec;
    const theme = this.theme;
    const scene = SCENES[kind];
    const make = (scenario, role, color) =>
      new scene.Body({
        system: spec.system,
        scenario,
        role,
        color,
        theme,
        heavy: !!scene.heavy,
        visual0: spec.visual0,
        samples: spec.lookahead ?? [],
        stiffness: spec.stiffness ?? null,
      });
    // B first so the translucent ghost blends over the solid A correctly
    this.A = make(scenarioA, 'A', COLOR_A);
    this.B = scenarioB ? make(scenarioB, 'B', COLOR_B) : null;
    this.exact = spec.exact ? make(scenarioA, 'exact', COLOR_EXACT) : null;
    this.exactSolution = spec.exact ?? null;
    this.exactOffset = null;
    this.exactTime = null;
    this.exactLabel = null;
    if (this.exact) {
      // the exact ghost stands beside the integrated body, to its left as the home
      // camera sees it (the inset takes the lower right), labelled
      const gap = Math.max(...this.exact.sides) + 1.1;
      this.exactOffset = new Vector3(-0.876, -0.482, 0).multiplyScalar(gap);
      this.exact.object.position.copy(this.exactOffset);
      const label = makeLabel('exact', theme.muted, 0.22);
      // below the ghost: the page's overlays (legend, caption) cover the top left
      label.position.copy(this.exactOffset).add(new Vector3(0, 0, -(Math.max(...this.exact.sides) * 0.5 + 0.35)));
      this.env.add(label);
      this.exactLabel = label;
    }
    this.trailsVisible = true;
    for (const b of [this.A, this.exact, this.B]) {
      if (!b) continue;
      this.bodies.add(b.object);
      if (b.extras) this.bodies.add(b.extras);
    }
    if (this.B) this.B.object.renderOrder = 2;
    if (this.exact) {
      this.exact.object.renderOrder = 1;
      if (this.exactVisible === false) this.setExactVisible(false); // kept across rebuilds (theme)
    }
    this.#buildEnvironment(scene, spec.system, scenarioA);
    this.bodies.quaternion.identity();
    this.frame = spec.frame ? new RotatingFrame(spec.frame, { extent: this.extent, theme }) : null;
    if (this.frame) this.env.add(this.frame.object);
    if (scene.inset && spec.Pi0) {
      this.inset = new MomentumSphere({
        Pi0: spec.Pi0,
        I: principalMoments(spec.system, scenarioA.params),
        theme,
        colors: { A: COLOR_A, B: COLOR_B, exact: COLOR_EXACT },
        free: !scene.heavy,
      });
      if (this.exactSolution) {
        try {
          this.inset.setExactPath(exactOrbit(this.exactSolution));
        } catch {
          /* the exact solution is optional */
        }
      }
    }
    this.dirty = true;
  }

  /** The scene's environment (SCENES[kind].environment), the floor grid, the gravity arrow and the home camera. */
  #buildEnvironment(scene, system, scenario) {
    const theme = this.theme;
    const { target, floorZ, extent } = scene.environment({ env: this.env, body: this.A, theme, exactOffset: this.exactOffset });
    this.extent = extent;
    // floor grid in the x–y plane
    const size = Math.max(2, Math.ceil(extent * 2.6));
    const grid = new GridHelper(size, Math.min(40, size * 4), theme.gridCenter, theme.grid);
    grid.rotation.x = Math.PI / 2;
    grid.position.z = floorZ;
    grid.material.transparent = true;
    grid.material.opacity = 0.7;
    // its colours with an alpha of 1, as the trails' (red, green, blue, alpha): both lines
    // then share one shader program (each costs ≈ 60 ms at the first picture with software WebGL)
    const rgb = grid.geometry.getAttribute('color');
    const rgba = new Float32Array(rgb.count * 4).fill(1);
    for (let i = 0; i < rgb.count; i++) rgba.set([rgb.getX(i), rgb.getY(i), rgb.getZ(i)], 4 * i);
    grid.geometry.setAttribute('color', new BufferAttribute(rgba, 4));
    this.env.add(grid);
    // gravity arrow (not for the free body or the spring)
    const g = quantityOf(system, scenario.params, 'gravity');
    if (scene.gravityArrow && g !== 0) {
      const arrow = new Arrow(theme.muted, {
        radius: extent * 0.012,
        label: 'g',
        labelColor: theme.fg,
        instanced: this.A?.instanced === true,
      });
      arrow.label.scale.multiplyScalar(Math.max(1, extent * 0.9));
      arrow.set(0, 0, -extent * 0.35);
      arrow.object.position.set(extent * 0.95, extent * 0.95, scene.gravityArrow(extent));
      this.env.add(arrow.object);
    }
    // home camera: from the front-left, slightly above, fitting the extent
    let dist = scene.camera(extent);
    if (this.exactOffset) {
      // body and ghost side by side: on a narrow (portrait) view, back off until both fit across
      const halfSpan = this.exactOffset.length() / 2 + Math.max(...this.exact.sides) * 0.6 + 0.5;
      const tanHalfH = Math.tan(((this.camera.fov / 2) * Math.PI) / 180) * Math.max(this.camera.aspect, 0.3);
      dist = Math.max(dist, (halfSpan / tanHalfH) * 1.05);
    }
    const dir = new Vector3(0.55, -1, 0.38).normalize();
    this.home = { position: target.clone().addScaledVector(dir, dist), target };
    this.resetCamera();
  }

  resetCamera() {
    this.camera.position.copy(this.home.position);
    this.controls.target.copy(this.home.target);
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.userMoved = false;
    this.dirty = true;
  }

  /** [px, py, pz, tx, ty, tz] */
  getCamera() {
    const p = this.camera.position;
    const t = this.controls.target;
    return [p.x, p.y, p.z, t.x, t.y, t.z];
  }

  setCamera(c) {
    if (!c || c.length !== 6) return;
    this.camera.position.set(c[0], c[1], c[2]);
    this.controls.target.set(c[3], c[4], c[5]);
    this.controls.update();
    this.userMoved = true;
    this.dirty = true;
  }

  /** Draws the bodies in the lesson's rotating frame (on) or in space; kept across runs. The trails start afresh. */
  setFrameView(on) {
    this.inFrame = on;
    if (!this.frame) return;
    this.frame.place(this.bodies, this.time ?? 0, on);
    for (const b of [this.A, this.B]) b?.clearTrails?.();
    this.dirty = true;
  }

  /** { available, on, angle (rad), x: the first body's drawn x axis [x, y, z] or null } (the test hook reads it). */
  frameView() {
    const mesh = this.A?.meshes?.[0];
    const x = mesh ? new Vector3(1, 0, 0).applyQuaternion(mesh.getWorldQuaternion(new Quaternion())) : null;
    return { available: !!this.frame, on: !!this.inFrame, angle: this.frame?.angle ?? 0, x: x ? x.toArray() : null };
  }

  setFollow(on) {
    this.follow = on;
    if (!on) {
      // glide back to the home target, keeping the viewing direction
      const delta = this.home.target.clone().sub(this.controls.target);
      this.controls.target.add(delta);
      this.camera.position.add(delta);
      this.controls.update();
    }
    this.dirty = true;
  }

  /** Updates bodies from the runner's tracks (visual states are finite by construction). */
  update(trackA, trackB, time) {
    if (!this.A || !trackA) return;
    this.A.update(trackA.visual, trackA.diag);
    this.time = time;
    this.frame?.place(this.bodies, time, this.inFrame);
    if (this.B && trackB) {
      // a broken-down B is hidden: its last state is usually already garbage
      this.B.object.visible = !trackB.failure;
      if (this.B.extras) this.B.extras.visible = !trackB.failure;
      if (!trackB.failure) this.B.update(trackB.visual, trackB.diag);
    }
    let PiExact = null;
    if (this.exact && this.exactSolution) {
      try {
        const q = this.exactSolution.orientation(time);
        if (q && q.length === 4 && Array.from(q).every(Number.isFinite)) {
          this.exact.update(q, null);
          this.exactTime = time;
        }
        const Pi = typeof this.exactSolution.Pi === 'function' ? this.exactSolution.Pi(time) : null;
        if (Pi && Pi.length === 3 && Array.from(Pi).every(Number.isFinite)) PiExact = Pi;
      } catch {
        /* the exact solution is optional */
      }
    }
    if (this.inset) this.inset.update(trackA.diag?.bodyMomentum, trackB && !trackB.failure ? trackB.diag?.bodyMomentum : null, PiExact);
    if (this.follow) {
      const f = this.A.focus();
      const t = this.controls.target;
      const k = this.reducedMotion ? 1 : 0.12;
      const dx = (f.x - t.x) * k;
      const dy = (f.y - t.y) * k;
      const dz = (f.z - t.z) * k;
      t.x += dx;
      t.y += dy;
      t.z += dz;
      this.camera.position.x += dx;
      this.camera.position.y += dy;
      this.camera.position.z += dz;
    }
    this.dirty = true;
  }

  /** Shows or hides the exact solution (the ghost, its label and the inset's orbit). */
  setExactVisible(on) {
    this.exactVisible = on;
    if (this.exact) this.exact.object.visible = on;
    if (this.exactLabel) this.exactLabel.visible = on;
    this.inset?.setExactVisible(on);
    this.dirty = true;
  }

  /** The drawn exact ghost: { orientation: [w, x, y, z], time, orbitPoints (of the inset's exact orbit) } or null. */
  exactGhost() {
    if (!this.exact || this.exactTime == null) return null;
    const q = this.exact.quat;
    return {
      orientation: [q.w, q.x, q.y, q.z],
      time: this.exactTime,
      orbitPoints: this.inset?.exactPoints ?? 0,
      visible: this.exact.object.visible,
    };
  }

  /** Shows or hides B (its ghost and its extras) until the next update: what A looks like without it. */
  setComparisonVisible(on) {
    if (!this.B) return;
    this.B.object.visible = on;
    if (this.B.extras) this.B.extras.visible = on;
    this.dirty = true;
  }

  /**
   * What the scene draws, as numbers (for tests): A's furniture (kind, world position,
   * angle about its axis, radius), the points of A's and B's trails (a heavy top's
   * tip trail among them), A's rigid shape (kind, sides, reach per body axis), and a
   * field's stiff stretches and drawn string.
   */
  sceneFacts() {
    const trailPoints = (b) => (b?.trails ?? []).map((tr) => tr.count);
    const furniture = (this.A?.furniture ?? []).map((piece) => ({
      kind: piece.entry.kind,
      position: piece.object.position.toArray(),
      angle: piece.angle,
      scale: piece.object.scale.x,
      visible: piece.object.visible,
    }));
    const shape = this.A?.shape ? { kind: this.A.shape.kind, sides: this.A.sides, reach: this.A.reach } : null;
    const stiff = this.A?.stiffFacts?.() ?? null; // a field's stiff stretches (web/scene/field.js)
    const string = this.A?.stringFacts?.() ?? null; // a field's drawn string
    return {
      furniture,
      trails: { A: trailPoints(this.A), B: trailPoints(this.B) },
      shape,
      labels: this.#labelPoints(),
      stiff,
      string,
      drawingBuffer: { ...this.bufferSize, allocations: this.bufferAllocations },
      shaderPrograms: this.renderer.info.programs?.length ?? 0, // compiled so far
    };
  }

  /** Where A's vector labels (ω, L) are on the page, in client pixels: [{ text, x, y }] of the visible ones. */
  #labelPoints() {
    const r = this.canvas.getBoundingClientRect();
    const p = new Vector3();
    return (this.A?.vectorLabels?.() ?? [])
      .filter(({ sprite }) => sprite.visible && sprite.parent?.visible)
      .map(({ text, sprite }) => {
        sprite.getWorldPosition(p).project(this.camera);
        return { text, x: r.left + ((p.x + 1) / 2) * r.width, y: r.top + ((1 - p.y) / 2) * r.height };
      });
  }

  setTrailsVisible(on) {
    if (this.trailsVisible === on) return;
    this.trailsVisible = on;
    for (const b of [this.A, this.B]) for (const tr of b?.trails ?? []) tr.object.visible = on;
    if (!on) this.clearTrails();
  }

  clearTrails() {
    this.A?.clearTrails();
    this.B?.clearTrails();
    this.inset?.clear();
    this.dirty = true;
  }

  /** The inset's rectangle in CSS px (for its caption), or null; fresh: measure the container now. */
  insetRect(fresh = false) {
    if (!this.inset) return null;
    const w = fresh ? this.container.clientWidth : this.width;
    const h = fresh ? this.container.clientHeight : this.height;
    const s = Math.round(Math.min(220, Math.max(110, Math.min(w, h) * 0.32)));
    return { left: w - s - 12, top: h - s - 12, size: s };
  }

  render(force = false) {
    const moved = this.controls.update();
    if (!force && !this.dirty && !moved) return false;
    this.dirty = false;
    this.#fitBuffer();
    const r = this.renderer;
    const w = this.width;
    const h = this.height;
    r.setScissorTest(false);
    r.setViewport(0, 0, w, h);
    r.render(this.scene, this.camera);
    const rect = this.insetRect();
    if (rect) {
      const y = h - rect.top - rect.size;
      r.setScissorTest(true);
      r.setScissor(rect.left, y, rect.size, rect.size);
      r.setViewport(rect.left, y, rect.size, rect.size);
      this.inset.camera.aspect = 1;
      this.inset.camera.updateProjectionMatrix();
      const bg = this.inset.scene.background;
      this.inset.scene.background = this.scene.background;
      r.render(this.inset.scene, this.inset.camera);
      this.inset.scene.background = bg;
      r.setScissorTest(false);
      r.setViewport(0, 0, w, h);
    }
    return true;
  }

  /** A PNG of the view: render, then read the drawing buffer in the same task. */
  toPNG() {
    this.render(true);
    return this.canvas.toDataURL('image/png');
  }

  dispose() {
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
  }
}

export { makeLabel };
