// Exact solutions in JS for the studies: the planar pendulum by Jacobi elliptic
// functions, and the clock of the midpoint rule on the linear oscillator (Lu 1995).
// The same algorithms and conventions as the core's exact/elliptic.hpp and
// exact/pendulum.hpp (DLMF ch. 19 and 22, parameter m = k², mc = 1 − m): K by the
// arithmetic–geometric mean, F by Carlson's R_F (duplication, DLMF 19.36.1), sn, cn, dn
// by the descending Landen transformation (DLMF 22.7.1–3). They are references that
// errors are measured against, never a step of a run, so JS Math is fine here.

/** K(m) = ∫₀^{π/2} dθ/√(1 − m sin²θ) = π / (2 AGM(1, √mc)); +∞ at mc = 0. */
export function ellipK(m, mc = 1 - m) {
  if (mc === 0) return Infinity;
  let a = 1;
  let b = Math.sqrt(mc);
  for (let i = 0; i < 64 && Math.abs(a - b) > 1e-15 * a; i++) [a, b] = [0.5 * (a + b), Math.sqrt(a * b)];
  return Math.PI / (a + b);
}

/** Carlson's R_F(x, y, z), x, y, z ≥ 0 (at most one zero), by duplication and the series of DLMF 19.36.1. */
export function carlsonRF(x0, y0, z0) {
  const A0 = (x0 + y0 + z0) / 3;
  const Q = 600 * Math.max(Math.abs(A0 - x0), Math.abs(A0 - y0), Math.abs(A0 - z0));
  let [A, x, y, z, f] = [A0, x0, y0, z0, 1];
  for (let i = 0; i < 100 && f * Q >= Math.abs(A); i++) {
    const [sx, sy, sz] = [Math.sqrt(x), Math.sqrt(y), Math.sqrt(z)];
    const lam = sx * sy + sx * sz + sy * sz;
    A = 0.25 * (A + lam);
    x = 0.25 * (x + lam);
    y = 0.25 * (y + lam);
    z = 0.25 * (z + lam);
    f *= 0.25;
  }
  const X = ((A0 - x0) * f) / A;
  const Y = ((A0 - y0) * f) / A;
  const Z = -(X + Y);
  const E2 = X * Y - Z * Z;
  const E3 = X * Y * Z;
  const series = 1 - E2 / 10 + E3 / 14 + (E2 * E2) / 24 - (3 * E2 * E3) / 44 - (5 * E2 * E2 * E2) / 208 + (3 * E3 * E3) / 104 + (E2 * E2 * E3) / 16;
  return series / Math.sqrt(A);
}

/** F(φ|m) = ∫₀^φ dθ/√(1 − m sin²θ) for any real φ (DLMF 19.25.5 with φ = jπ + φr). */
export function ellipF(phi, m, mc = 1 - m) {
  const j = Math.floor(phi / Math.PI + 0.5);
  const r = phi - j * Math.PI;
  const s = Math.sin(r);
  const c = Math.cos(r);
  let F = s * carlsonRF(c * c, mc + m * c * c, 1);
  if (j !== 0) F += 2 * j * ellipK(m, mc);
  return F;
}

/** sn, cn, dn at 0 ≤ z ≤ K, 0 ≤ m < 1: descending Landen to m ≤ 1e-10, then DLMF 22.10.4–6. */
function landen(z, m, mc) {
  const k1s = [];
  let mm = m;
  let kc = Math.sqrt(mc);
  while (mm > 1e-10 && k1s.length < 64) {
    const onepkc = 1 + kc;
    const k1 = mm / (onepkc * onepkc); // (1 − k')/(1 + k') without cancellation
    kc = (2 * Math.sqrt(kc)) / onepkc;
    k1s.push(k1);
    z /= 1 + k1;
    mm = k1 * k1;
  }
  const s = Math.sin(z);
  const c = Math.cos(z);
  const t = 0.25 * mm * (z - s * c);
  let sn = s - t * c;
  let cn = c + t * s;
  let dn = 1 - 0.5 * mm * s * s;
  for (let i = k1s.length - 1; i >= 0; i--) {
    const k1 = k1s[i];
    const ks2 = k1 * sn * sn;
    const den = 1 + ks2;
    [sn, cn, dn] = [((1 + k1) * sn) / den, (cn * dn) / den, (1 - ks2) / den];
  }
  return { sn, cn, dn };
}

/** u = 2jK + r with |r| ≤ K; sn, cn, dn at r (m = 1: tanh, sech, sech). */
function reduced(u, m, mc) {
  if (mc === 0) {
    const e = Math.exp(-Math.abs(u));
    const th = (1 - e * e) / (1 + e * e);
    const sech = (2 * e) / (1 + e * e);
    return { j: 0, v: { sn: u < 0 ? -th : th, cn: sech, dn: sech } };
  }
  const K = ellipK(m, mc);
  const j = Math.floor(u / (2 * K) + 0.5);
  const r = u - 2 * j * K;
  const v = landen(Math.abs(r), m, mc);
  if (r < 0) v.sn = -v.sn;
  return { j, v };
}

function checkParameter(m, mc) {
  if (!(m >= 0 && m <= 1 && mc >= 0 && mc <= 1)) throw new RangeError('vilab: jacobi: the parameter m must lie in [0, 1] (and mc = 1 − m)');
}

/** The Jacobi elliptic functions { sn, cn, dn } of u at parameter m (0 ≤ m ≤ 1). */
export function jacobi(u, m, mc = 1 - m) {
  checkParameter(m, mc);
  const { j, v } = reduced(u, m, mc);
  if (j % 2 !== 0) {
    v.sn = -v.sn;
    v.cn = -v.cn;
  }
  return v;
}

/** The Jacobi amplitude am(u|m), continuous in u (am(u + 2K) = am(u) + π). */
export function jacobiAm(u, m, mc = 1 - m) {
  checkParameter(m, mc);
  const { j, v } = reduced(u, m, mc);
  return j * Math.PI + Math.atan2(v.sn, v.cn);
}

/**
 * The exact planar pendulum θ'' = −w² sin θ, w² = g/l, from θ(0) = θ0, θ'(0) = ω0
 * (the core's exact::Pendulum). With θ0 = 2πj + θr, k² = sin²(θr/2) + ω0²/(4w²):
 * libration (k < 1) sin(θ/2) = k sn(w t + u0 | k²), θ' = 2kw cn; rotation (k > 1)
 * θ/2 = am(σ k w t + u0 | 1/k²), θ' = 2σkw dn; the separatrix with m = 1.
 * Returns { theta(t), omega(t), period, regime, modulus }.
 */
export function exactPendulum(g, l, theta0, omega0) {
  if (!(g / l > 0) || !Number.isFinite(g / l)) throw new RangeError('vilab: exact pendulum: need g/l > 0 and finite');
  const w = Math.sqrt(g / l);
  const offset = Math.floor(theta0 / (2 * Math.PI) + 0.5) * 2 * Math.PI;
  const thr = theta0 - offset;
  const s0 = Math.sin(0.5 * thr);
  const c0 = Math.cos(0.5 * thr);
  const v = omega0 / (2 * w);
  const k2 = s0 * s0 + v * v;
  const kc2 = c0 * c0 - v * v; // 1 − k², computed without cancellation
  let k = Math.sqrt(k2);
  if (kc2 > 0) {
    const u0 = ellipF(Math.atan2(s0, v), k2, kc2);
    return {
      regime: 'libration',
      modulus: k,
      period: (4 * ellipK(k2, kc2)) / w,
      theta: (t) => {
        const f = jacobi(w * t + u0, k2, kc2);
        return offset + 2 * Math.atan2(k * f.sn, f.dn);
      },
      omega: (t) => 2 * k * w * jacobi(w * t + u0, k2, kc2).cn,
    };
  }
  const separatrix = kc2 === 0;
  const [m, mc] = separatrix ? [1, 0] : [1 / k2, -kc2 / k2];
  if (separatrix) k = 1;
  const sigma = omega0 < 0 ? -1 : 1;
  const resting = omega0 === 0; // only on the separatrix: at rest at the top
  const u0 = resting ? 0 : ellipF(0.5 * thr, m, mc);
  return {
    regime: separatrix ? 'separatrix' : 'rotation',
    modulus: k,
    period: separatrix ? Infinity : (2 * ellipK(m, mc)) / (k * w),
    theta: (t) => (resting ? theta0 : offset + 2 * jacobiAm(sigma * k * w * t + u0, m, mc)),
    omega: (t) => (resting ? 0 : 2 * sigma * k * w * jacobi(sigma * k * w * t + u0, m, mc).dn),
  };
}

/**
 * The exact state of a normalized `pendulum` scenario (one planar link, undamped) at t,
 * in its canonical coordinates: the bob at q = l (sin θ, 0, −cos θ), p = m l θ' (cos θ, 0, sin θ).
 * null for anything else (damped, more links, spherical).
 */
export function exactPendulumScenario(normalized) {
  const { params, initial } = normalized;
  if (normalized.system !== 'pendulum' || params.lengths?.length !== 1 || Number(params.damping ?? 0) !== 0) return null;
  const [l] = params.lengths;
  const [mass] = params.masses;
  const [theta0] = initial.angles;
  const [omega0] = initial.rates;
  if (typeof theta0 !== 'number' || typeof omega0 !== 'number') return null;
  const ex = exactPendulum(params.g, l, theta0, omega0);
  return {
    ...ex,
    state(t) {
      const th = ex.theta(t);
      const om = ex.omega(t);
      return { q: [l * Math.sin(th), 0, -l * Math.cos(th)], p: [mass * l * om * Math.cos(th), 0, mass * l * om * Math.sin(th)] };
    },
  };
}

/**
 * Lu's clock (Lu 1995, §2.3, eqs. 16–18 corrected): one midpoint step of size h on the
 * oscillator q'' = −ω²q is the exact flow over Δt = (2/ω) arctan(ωh/2) (the core's
 * exact/midpoint_clock.hpp; the arctangent form keeps the digits that arccos loses).
 */
export function midpointClockStep(h, omega) {
  return omega === 0 ? h : (2 * Math.atan2(0.5 * omega * h, 1)) / omega;
}

/** The exact undamped oscillator of a normalized `oscillator` scenario at t: { q: [x], p: [m v] }. */
export function exactOscillator(normalized, t) {
  const { mass, stiffness, damping } = normalized.params;
  if (damping !== 0) return null;
  const w = Math.sqrt(stiffness / mass);
  const { position: x0, velocity: v0 } = normalized.initial;
  const x = x0 * Math.cos(w * t) + (v0 / w) * Math.sin(w * t);
  const v = -x0 * w * Math.sin(w * t) + v0 * Math.cos(w * t);
  return { q: [x], p: [mass * v] };
}
