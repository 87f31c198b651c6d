// Direct manipulation: grab a bob of A with the mouse or a finger and move it to set
// the start. The drag moves the bob on the plane through it facing the camera; the
// result is projected onto the constraint manifold (its link keeps its length, the
// links below it keep their directions) and handed over as bob positions; the page
// turns them into the scenario's initial angles, so a link carries them.
import { Plane, Raycaster, Vector2, Vector3 } from 'three';

/**
 * Positions of a chain with bob i moved towards `target`: link i points from its anchor
 * (bob i − 1, or the pivot at the origin) towards the target with its own length;
 * the bobs below follow rigidly. planar: the motion stays in the x–z plane.
 */
export function dragChain(positions, lengths, i, target, planar) {
  const out = Float64Array.from(positions);
  const ax = i > 0 ? out[3 * (i - 1)] : 0;
  const ay = i > 0 ? out[3 * (i - 1) + 1] : 0;
  const az = i > 0 ? out[3 * (i - 1) + 2] : 0;
  let dx = target.x - ax;
  let dy = planar ? 0 : target.y - ay;
  let dz = target.z - az;
  const len = Math.hypot(dx, dy, dz);
  if (!(len > 1e-9)) return out;
  const s = lengths[i] / len;
  dx *= s;
  dy *= s;
  dz *= s;
  const shift = [ax + dx - out[3 * i], ay + dy - out[3 * i + 1], az + dz - out[3 * i + 2]];
  for (let k = i; k < lengths.length; k++) for (let c = 0; c < 3; c++) out[3 * k + c] += shift[c];
  return out;
}

/** The initial angles of a chain from bob positions (θ from the downward vertical, φ azimuth), rates zero. */
export function chainInitial(positions, n, planar, digits = 6) {
  const round = (x) => Number(x.toFixed(digits));
  const angles = [];
  let px = 0;
  let py = 0;
  let pz = 0;
  for (let i = 0; i < n; i++) {
    const dx = positions[3 * i] - px;
    const dy = positions[3 * i + 1] - py;
    const dz = positions[3 * i + 2] - pz;
    if (planar) angles.push(round(Math.atan2(dx, -dz)));
    else {
      const rho = Math.hypot(dx, dy);
      angles.push([round(Math.atan2(rho, -dz)), rho > 0 ? round(Math.atan2(dy, dx)) : 0]);
    }
    px = positions[3 * i];
    py = positions[3 * i + 1];
    pz = positions[3 * i + 2];
  }
  const rates = planar ? angles.map(() => 0) : angles.map(() => [0, 0]);
  return { angles, rates };
}

export class BobDrag {
  /**
   * @param view  the View (camera, controls, canvas, A: a LinkageBody)
   * @param hooks { enabled() → bool, positions() → A's bob positions, lengths() → link lengths,
   *               planar() → bool, onGrab(), onMove(positions), onDrop(positions) }
   */
  constructor(view, hooks) {
    this.view = view;
    this.hooks = hooks;
    this.ray = new Raycaster();
    this.ndc = new Vector2();
    this.plane = new Plane();
    this.hit = new Vector3();
    this.grab = null;
    const canvas = view.canvas;
    // capture phase: a grabbed bob must not also start an orbit
    canvas.addEventListener('pointerdown', (e) => this.#down(e), { capture: true });
    canvas.addEventListener('pointermove', (e) => this.#move(e), { capture: true });
    canvas.addEventListener('pointerup', (e) => this.#up(e), { capture: true });
    canvas.addEventListener('pointercancel', (e) => this.#up(e), { capture: true });
  }

  #setRay(e) {
    const r = this.view.canvas.getBoundingClientRect();
    this.ndc.set(((e.clientX - r.left) / r.width) * 2 - 1, -((e.clientY - r.top) / r.height) * 2 + 1);
    this.ray.setFromCamera(this.ndc, this.view.camera);
  }

  #down(e) {
    const body = this.view.A;
    if (!body?.bobs || !this.hooks.enabled()) return;
    this.#setRay(e);
    const hits = this.ray.intersectObject(body.bobs, false);
    if (!hits.length || hits[0].instanceId == null) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    const i = hits[0].instanceId;
    const positions = this.hooks.positions();
    const at = new Vector3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
    const normal = new Vector3();
    this.view.camera.getWorldDirection(normal);
    this.plane.setFromNormalAndCoplanarPoint(normal, at);
    this.grab = { i, pointer: e.pointerId, positions };
    this.view.controls.enabled = false;
    this.view.canvas.setPointerCapture?.(e.pointerId);
    this.hooks.onGrab();
  }

  #move(e) {
    if (!this.grab || e.pointerId !== this.grab.pointer) return;
    e.stopImmediatePropagation();
    this.#setRay(e);
    if (!this.ray.ray.intersectPlane(this.plane, this.hit)) return;
    this.grab.positions = dragChain(this.grab.positions, this.hooks.lengths(), this.grab.i, this.hit, this.hooks.planar());
    this.hooks.onMove(this.grab.positions);
  }

  #up(e) {
    if (!this.grab || e.pointerId !== this.grab.pointer) return;
    e.stopImmediatePropagation();
    const { positions } = this.grab;
    this.grab = null;
    this.view.controls.enabled = true;
    this.view.canvas.releasePointerCapture?.(e.pointerId);
    this.hooks.onDrop(positions);
  }

  /** Client coordinates of A's bob i (tests, and the hint). */
  screenOf(positions, i) {
    const v = new Vector3(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]).project(this.view.camera);
    const r = this.view.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }
}
