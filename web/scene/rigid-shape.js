// The shape a free rigid body is drawn with, from its principal moments alone (the
// registry's `principal-moments` parameter): a body with three distinct moments whose
// largest is nearly the sum of the other two (a flat body, by the perpendicular-axis
// theorem) is a T-handle of two uniform rods whose moments are the body's; any other is
// the uniform box with its moments. The face normal to the intermediate axis, the axis
// that flips (the tennis-racket theorem), is marked.

/** Box sides (a, b, c) of a uniform box with principal moments I (mass cancels), max side = size. */
export function boxSides(I, size = 1.4) {
  const [I1, I2, I3] = I;
  let s = [I2 + I3 - I1, I1 + I3 - I2, I1 + I2 - I3].map((x) => Math.sqrt(Math.max(x, 1e-6)));
  const m = Math.max(...s);
  s = s.map((x) => Math.max((x / m) * size, size * 0.08));
  return s;
}

/** Principal moments of a uniform box with sides s (unit mass): I_i = (s_j² + s_k²)/12. */
export function boxMoments([a, b, c]) {
  return [(b * b + c * c) / 12, (a * a + c * c) / 12, (a * a + b * b) / 12];
}

/**
 * A T-handle of thin uniform rods of one thickness (mass ∝ length): a crossbar of
 * length a, a shaft of length b from the crossbar's middle. About the centre of mass:
 * I_shaft (about the shaft's own line) = a³/12, I_cross (about the line parallel to the
 * crossbar) = a·y² + b³/12 + b(b/2 − y)², y = b²/(2(a + b)) the centre of mass on the
 * shaft, and I_normal = I_shaft + I_cross (a flat body).
 */
export function tHandleMoments(a, b) {
  const y = (b * b) / (2 * (a + b));
  const shaft = (a * a * a) / 12;
  const cross = a * y * y + (b * b * b) / 12 + b * (b / 2 - y) ** 2;
  return { shaft, cross, normal: shaft + cross, y };
}

const order = (I) => [0, 1, 2].sort((i, j) => I[i] - I[j]);

/** True when the moments ask for a T-handle: three distinct moments, I_max within 10 % of I_min + I_mid. */
export function isFlatAsymmetric(I) {
  const [lo, mid, hi] = order(I).map((i) => I[i]);
  if (!(lo > 0)) return false;
  const distinct = mid - lo > 0.05 * hi && hi - mid > 0.03 * hi;
  return distinct && Math.abs(hi - (lo + mid)) <= 0.1 * hi;
}

/**
 * The shape for principal moments I (body axes e1, e2, e3), its longest part `size`:
 * { kind: 'box', sides, marked } or { kind: 't-handle', shaftAxis, barAxis, normalAxis,
 * bar, shaft, thickness, offset (the crossbar's place on the shaft axis, from the centre
 * of mass), marked }, with `marked` the intermediate axis (its + face is marked), and
 * `reach` [r1, r2, r3] how far the shape extends from the centre of mass along each axis.
 */
export function rigidShape(I, size = 1.4) {
  const [lo, mid, hi] = order(I);
  if (!isFlatAsymmetric(I)) {
    const sides = boxSides(I, size);
    return { kind: 'box', sides, marked: mid, reach: sides.map((s) => s / 2) };
  }
  // shaft along the least axis, crossbar along the intermediate one: solve
  // I_cross/I_shaft = I_mid/I_min for the shaft's length b (a = 1; the ratio grows with b)
  const target = I[mid] / I[lo];
  let b0 = 1e-3;
  let b1 = 1e3;
  for (let k = 0; k < 200; k++) {
    const b = Math.sqrt(b0 * b1);
    const m = tHandleMoments(1, b);
    if (m.cross / m.shaft < target) b0 = b;
    else b1 = b;
  }
  const b = Math.sqrt(b0 * b1);
  const scale = size / Math.max(1, b);
  const { y } = tHandleMoments(1, b);
  const bar = scale;
  const shaft = b * scale;
  const thickness = 0.1 * size;
  const reach = [0, 0, 0];
  reach[mid] = bar / 2;
  reach[lo] = Math.max(y * scale + thickness / 2, shaft - y * scale);
  reach[hi] = thickness / 2;
  return { kind: 't-handle', shaftAxis: lo, barAxis: mid, normalAxis: hi, bar, shaft, thickness, offset: -y * scale, marked: mid, reach };
}

/** The principal moments of a T-handle shape (thin rods of unit mass per length), by body axis. */
export function shapeMoments(shape) {
  if (shape.kind === 'box') return boxMoments(shape.sides);
  const m = tHandleMoments(shape.bar, shape.shaft);
  const out = [0, 0, 0];
  out[shape.shaftAxis] = m.shaft;
  out[shape.barAxis] = m.cross;
  out[shape.normalAxis] = m.normal;
  return out;
}
