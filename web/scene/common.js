// Shared scene pieces: text labels, arrows, materials, disposal.
import {
  BackSide,
  CanvasTexture,
  ConeGeometry,
  CylinderGeometry,
  Group,
  InstancedMesh,
  Mesh,
  MeshBasicMaterial,
  MeshPhongMaterial,
  MeshStandardMaterial,
  Quaternion,
  SRGBColorSpace,
  Sprite,
  SpriteMaterial,
  Vector3,
} from 'three';

/** A camera-facing text label drawn on a small canvas (no font files needed). */
/**
 * The value in a scenario's params of the parameter that the system's registry entry says
 * is `quantity` (ParamInfo.quantity: 'gravity', 'principal-moments', …), or undefined.
 */
export function quantityOf(system, params, quantity) {
  const spec = system?.params?.find((p) => p.quantity === quantity);
  return spec ? params?.[spec.name] : undefined;
}

export function makeLabel(text, color, size = 0.18) {
  const canvas = document.createElement('canvas');
  const px = 64;
  canvas.width = px * Math.max(1, text.length * 0.75);
  canvas.height = px;
  const ctx = canvas.getContext('2d');
  ctx.font = `600 ${px * 0.7}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.fillStyle = color;
  ctx.fillText(text, canvas.width / 2, px / 2 + 2);
  const texture = new CanvasTexture(canvas);
  texture.colorSpace = SRGBColorSpace;
  const sprite = new Sprite(new SpriteMaterial({ map: texture, transparent: true, depthWrite: false }));
  sprite.scale.set((size * canvas.width) / px, size, 1);
  return sprite;
}

const Y = new Vector3(0, 1, 0);
const shaftGeometry = new CylinderGeometry(1, 1, 1, 12);
shaftGeometry.translate(0, 0.5, 0);
const headGeometry = new ConeGeometry(1, 1, 16);
headGeometry.translate(0, -0.5, 0);

/**
 * A mesh, or with `instanced` an instanced mesh of one instance drawn the same: the solids
 * around bodies that are drawn instanced (a chain's bobs and rods) are made so, so that all
 * share one shader program (each program compiled for the first picture costs ≈ 60 ms of
 * the main thread with software WebGL).
 */
export function solidPart(geometry, material, instanced = false) {
  return instanced ? new InstancedMesh(geometry, material, 1) : new Mesh(geometry, material);
}

/**
 * A solid arrow from the origin of its group along a direction; set() is allocation-free.
 * `instanced`: its parts made by solidPart for a scene of instanced bodies.
 */
export class Arrow {
  constructor(color, { radius = 0.02, opacity = 1, label = null, labelColor = color, instanced = false } = {}) {
    this.radius = radius;
    const mat = litMaterial({ color, roughness: 0.5, transparent: opacity < 1, opacity, depthWrite: opacity >= 1 });
    this.material = mat;
    this.shaft = solidPart(shaftGeometry, mat, instanced);
    this.head = solidPart(headGeometry, mat, instanced);
    this.object = new Group();
    this.object.add(this.shaft, this.head);
    this.label = label ? makeLabel(label, labelColor, 0.16) : null;
    if (this.label) this.object.add(this.label);
    this.q = new Quaternion();
    this.d = new Vector3();
  }

  /** Points the arrow along (x, y, z) with that length (hidden when ~0). */
  set(x, y, z, length = Math.hypot(x, y, z)) {
    if (!(length > 1e-9) || !Number.isFinite(length)) {
      this.object.visible = false;
      return;
    }
    this.object.visible = true;
    this.d.set(x, y, z).normalize();
    this.q.setFromUnitVectors(Y, this.d);
    const headLen = Math.min(length * 0.35, this.radius * 6);
    const shaftLen = Math.max(length - headLen, 1e-6);
    this.shaft.quaternion.copy(this.q);
    this.shaft.scale.set(this.radius, shaftLen, this.radius);
    this.head.quaternion.copy(this.q);
    this.head.position.copy(this.d).multiplyScalar(length);
    this.head.scale.set(this.radius * 2.6, headLen, this.radius * 2.6);
    if (this.label) this.label.position.copy(this.d).multiplyScalar(length + 0.12);
  }

  dispose() {
    this.material.dispose();
    this.shaft.dispose?.(); // an instanced part's instance buffer
    this.head.dispose?.();
    if (this.label) {
      this.label.material.map.dispose();
      this.label.material.dispose();
    }
  }
}

// Where WebGL runs on a software rasterizer (View's probe), lit surfaces are shaded by
// Blinn–Phong instead of three's physically based model: there every shader is compiled
// and every pixel shaded on the CPU, and the physically based program costs several times
// more of both. Set once by the View, before any scene is built.
let softwareShading = false;

/** Whether lit surfaces use the software rasterizer's cheaper shading (set by the View). */
export function setSoftwareShading(on) {
  softwareShading = on;
}

/**
 * A lit surface's material: three's MeshStandardMaterial, or on a software rasterizer a
 * MeshPhongMaterial with a highlight of about the same width (shininess ≈ 2/roughness⁴ − 2,
 * the Blinn–Phong exponent matching a Beckmann lobe) and a dielectric's weak specular.
 */
export function litMaterial({ roughness = 1, metalness = 0, ...rest }) {
  if (!softwareShading) return new MeshStandardMaterial({ roughness, metalness, ...rest });
  return new MeshPhongMaterial({ ...rest, shininess: Math.max(1, 2 / roughness ** 4 - 2), specular: 0x141414 });
}

export function solidMaterial(color, role) {
  if (role === 'A') return litMaterial({ color, roughness: 0.45, metalness: 0.05 });
  if (role === 'B') return ghostMaterial(color);
  return litMaterial({ color, roughness: 0.6, transparent: true, opacity: 0.42, depthWrite: false });
}

/** How much larger than A's body B's is drawn: the rim of B that shows around A where they coincide. */
export const GHOST_SCALE = 1.3;

/**
 * B, the run compared with A: flat, opaque, B's colour on the back faces only, drawn
 * GHOST_SCALE larger. Where A and B overlap, B's far side lies behind A's near side, so
 * A is drawn whole with B's rim around it; no translucent fill blends over A.
 */
export function ghostMaterial(color) {
  return new MeshBasicMaterial({ color, side: BackSide });
}

export function basicMaterial(color, opacity = 1) {
  return new MeshBasicMaterial({ color, transparent: opacity < 1, opacity, depthWrite: opacity >= 1 });
}

/** Disposes geometries/materials/textures under an object (shared geometries excepted). */
export function disposeTree(root, keep = new Set([shaftGeometry, headGeometry])) {
  root.traverse((o) => {
    if (o.isInstancedMesh) o.dispose(); // its instance buffer
    if (o.geometry && !keep.has(o.geometry)) o.geometry.dispose();
    const mats = Array.isArray(o.material) ? o.material : o.material ? [o.material] : [];
    for (const m of mats) {
      m.map?.dispose();
      m.dispose();
    }
  });
}
