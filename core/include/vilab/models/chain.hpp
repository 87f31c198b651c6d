// The chain model: n bobs hung from the origin by rigid massless links, gravity along
// −z. Link i joins bob i−1 (the anchor at the origin for i = 0) to bob i. The planar
// pendulum (n = 1, motion in the x–z plane), the spherical pendulum (n = 1), the
// double spherical pendulum (n = 2) and the chain (n ≤ 64) are all this model.
//
// Canonical state: q = bob positions [x1,y1,z1, …] with |x_i − x_{i−1}| = l_i,
// p = bob momenta m_i ẋ_i. Potential V = Σ m_i g (z_i + Σ_{j≤i} l_j): zero in the
// rest state (all links hanging straight down), so energies are positive and
// relative energy errors are meaningful.
//
// Damping (optional): a drag F_i = −c ẋ_i on every bob, a force outside L
// (Lagrange–d'Alembert, M–W §3.2). It is parallel to each bob's velocity, so it keeps
// neither the energy nor J_z.
//
// Validation, projection onto the manifold, diagnostics and the visual mapping of
// this model are written here once; every integrator of a chain uses them.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "vilab/limits.hpp"
#include "vilab/state.hpp"

namespace vilab {

// Link i's vector d_i = x_i − x_{i−1}, with x_0 the origin.
[[gnu::always_inline]] inline Vec3 chainLink(const double* x, int i) {
  Vec3 d(x[3 * i], x[3 * i + 1], x[3 * i + 2]);
  if (i > 0) d -= Vec3(x[3 * i - 3], x[3 * i - 2], x[3 * i - 1]);
  return d;
}

// 1/m when it is exact (m a power of two whose inverse is a normal number), else 0.
// Then x·(1/m) and x/m are the same real number correctly rounded: the same bits, with a
// multiplication instead of a division (the default chains' unit masses).
[[gnu::always_inline]] inline double exactInverse(double m) {
  std::uint64_t bits;
  std::memcpy(&bits, &m, sizeof bits);
  const std::uint64_t exponent = (bits >> 52) & 0x7ff;
  if ((bits & 0x800fffffffffffffULL) != 0 || exponent == 0 || exponent >= 2046) return 0;
  const std::uint64_t inverse = (2046 - exponent) << 52;
  double out;
  std::memcpy(&out, &inverse, sizeof out);
  return out;
}
// x/m, bit for bit, given inv = exactInverse(m).
[[gnu::always_inline]] inline double overMass(double x, double m, double inv) { return inv != 0 ? x * inv : x / m; }

struct ChainModel {
  std::vector<double> masses;
  std::vector<double> lengths;
  double g = 9.81;
  bool planar = false;  // the planar pendulum: motion confined to the x–z plane
  double damping = 0;   // c ≥ 0: the drag −c ẋ_i on every bob (N·s/m)

  int bobs() const { return static_cast<int>(masses.size()); }
  // Forces other than the potential's: damping.
  bool forced() const { return damping != 0; }

  // Depth of bob i's rest position below the anchor: Σ_{j≤i} l_j.
  double restDepth(int i) const {
    double d = 0;
    for (int j = 0; j <= i; ++j) d += lengths[j];
    return d;
  }

  // N > 0 fixes the bob count at compile time (the fixed-size chain steps' energy): the
  // same arithmetic in the same order, so the same bits as N = 0.
  template <int N = 0>
  double potential(const double* x) const {
    double V = 0, depth = 0;
    for (int i = 0; i < (N > 0 ? N : bobs()); ++i) {
      depth += lengths[i];
      V += masses[i] * g * (x[3 * i + 2] + depth);
    }
    return V;
  }

  template <int N = 0>
  double kinetic(const double* p) const {
    double T = 0;
    for (int i = 0; i < (N > 0 ? N : bobs()); ++i)
      T += overMass(0.5 * (p[3 * i] * p[3 * i] + p[3 * i + 1] * p[3 * i + 1] + p[3 * i + 2] * p[3 * i + 2]), masses[i],
                    exactInverse(masses[i]));
    return T;
  }

  // H(q, p) as given, radial momenta included.
  double hamiltonian(const State& s) const { return kinetic(s.p.data()) + potential(s.q.data()); }

  // The kinetic energy in velocity along the links: with G the constraints' Jacobian
  // (rows ±e_i = ±d_i/|d_i| on bobs i, i−1) and v = M⁻¹p, the M-orthogonal split of v
  // into the tangent motion and M⁻¹Gᵀκ puts ½ bᵀA⁻¹b in the second part, A = G M⁻¹ Gᵀ
  // (tridiagonal), b = G v the links' length rates: Σ b̂_i²/D_i over the LDLᵀ factors.
  // With kappa, also κ = A⁻¹b (Thomas' algorithm, O(N)). With linkNorms, each |d_i| it
  // forms, up to the first that is not positive (the last one written).
  double radialKinetic(const double* q, const double* p, double* kappa = nullptr, double* linkNorms = nullptr) const {
    const int n = bobs();
    double removed = 0, prevPivot = 0, prevRhs = 0, prevMass = 0, prevInverse = 0;
    Vec3 prevUnit = Vec3::Zero();
    for (int i = 0; i < n; ++i) {
      const Vec3 d = chainLink(q, i);
      const double len = d.norm();
      if (linkNorms) linkNorms[i] = len;
      if (!(len > 0)) return 0;
      const Vec3 e = d / len;
      const double m = masses[i], inverse = exactInverse(m);
      Vec3 w(overMass(p[3 * i], m, inverse), overMass(p[3 * i + 1], m, inverse), overMass(p[3 * i + 2], m, inverse));
      double pivot = overMass(1, m, inverse), rhs = 0, ratio = 0;
      if (i > 0) {
        w -= Vec3(overMass(p[3 * i - 3], prevMass, prevInverse), overMass(p[3 * i - 2], prevMass, prevInverse),
                  overMass(p[3 * i - 1], prevMass, prevInverse));
        pivot += overMass(1, prevMass, prevInverse);
        const double off = overMass(-prevUnit.dot(e), prevMass, prevInverse);
        ratio = off / prevPivot;
        pivot -= ratio * off;
      }
      rhs = e.dot(w) - ratio * prevRhs;
      removed += rhs * rhs / pivot;
      if (kappa) {
        kappa[2 * i] = rhs / pivot;  // forward-substituted κ̂_i, then the multiplier
        kappa[2 * i + 1] = ratio;
      }
      prevPivot = pivot;
      prevRhs = rhs;
      prevUnit = e;
      prevMass = m;
      prevInverse = inverse;
    }
    if (kappa)  // back substitution: κ_i = κ̂_i − (L_{i+1,i}) κ_{i+1}
      for (int i = n - 2; i >= 0; --i) kappa[2 * i] -= kappa[2 * i + 3] * kappa[2 * i + 2];
    return 0.5 * removed;
  }

  // Removes the momenta's components along the links' length rates (the M-orthogonal
  // projection onto Dg(q) M⁻¹ p = 0): p ← p − Gᵀκ.
  void projectMomentum(const double* q, double* p) const {
    const int n = bobs();
    std::vector<double> kappa(2 * n);
    radialKinetic(q, p, kappa.data());
    for (int i = 0; i < n; ++i) {
      const Vec3 e = chainLink(q, i).normalized();
      for (int c = 0; c < 3; ++c) {
        p[3 * i + c] -= kappa[2 * i] * e[c];
        if (i > 0) p[3 * i - 3 + c] += kappa[2 * i] * e[c];
      }
    }
  }

  // The physical energy: H at the momentum projected onto the hidden constraint
  // Dg(q) M⁻¹ p = 0 (the energy of the tangent motion). For tangent momenta it is H.
  // With linkNorms, the |d_i| it forms (radialKinetic): a recorded step's
  // linkLengthErrorOf them needs no second sqrt per link.
  double energy(const State& s, double* linkNorms = nullptr) const {
    const double T = kinetic(s.p.data()), radial = radialKinetic(s.q.data(), s.p.data(), nullptr, linkNorms);
    return (radial > 0 ? T - radial : T) + potential(s.q.data());
  }

  // Vertical angular momentum J_z = Σ (x_i × p_i)·e_z (rotations about z).
  double verticalMomentum(const State& s) const {
    double J = 0;
    for (int i = 0; i < bobs(); ++i) J += s.q[3 * i] * s.p[3 * i + 1] - s.q[3 * i + 1] * s.p[3 * i];
    return J;
  }

  // max_i | |d_i| − l_i |, in metres.
  double linkLengthError(const double* x) const {
    double worst = 0;
    for (int i = 0; i < bobs(); ++i) worst = std::max(worst, std::abs(chainLink(x, i).norm() - lengths[i]));
    return worst;
  }
  // The same from the |d_i| energy(s, linkNorms) formed for the positions x (the same
  // bits); when a norm is not positive, energy stopped there: formed again from x.
  double linkLengthErrorOf(const double* linkNorms, const double* x) const {
    double worst = 0;
    for (int i = 0; i < bobs(); ++i) {
      if (!(linkNorms[i] > 0)) return linkLengthError(x);
      worst = std::max(worst, std::abs(linkNorms[i] - lengths[i]));
    }
    return worst;
  }

  Diagnostics diagnostics(const State& s) const {
    Diagnostics d;
    diagnosticsInto(s, d);
    return d;
  }
  // The same into d, writing only the fields a chain sets (the rest keep what d holds):
  // the per-step checks reuse one Diagnostics instead of zeroing a new one.
  void diagnosticsInto(const State& s, Diagnostics& d) const {
    d.energy = energy(s);
    d.momentumSize = planar ? 0 : 1;
    if (!planar) d.momentum[0] = verticalMomentum(s);
    d.constraint = linkLengthError(s.q.data());
  }

  // What the renderer draws: the bob positions.
  void visual(const State& s, std::vector<double>& out) const { out.assign(s.q.data(), s.q.data() + s.q.size()); }

  // Kinetic energy of the mean velocity (q_b − q_a)/h of a step. For the physical
  // solution it is at most the energy (the potential is ≥ 0) up to the method's
  // O(h²) energy error; a spurious root of the implicit equations is far larger.
  double meanKineticEnergy(const State& a, const State& b, double h) const {
    double T = 0;
    for (int i = 0; i < bobs(); ++i) {
      double v2 = 0;
      for (int c = 0; c < 3; ++c) {
        const double v = (b.q[3 * i + c] - a.q[3 * i + c]) / h;
        v2 += v * v;
      }
      T += 0.5 * masses[i] * v2;
    }
    return T;
  }

  // A typical energy: the potential of every bob raised by its depth, plus the
  // kinetic energy of the chain turning at 1 rad/s. Sets absolute slack only.
  double energyScale() const {
    double E = 0, depth = 0;
    for (int i = 0; i < bobs(); ++i) {
      depth += lengths[i];  // restDepth(i), kept running: the simulation asks every step
      E += masses[i] * (g * depth + depth * depth);
    }
    return E;
  }

  // Checks a state against the constraint manifold and projects it there exactly,
  // as far as the integrator's rules ask: positions within kManifoldTolerance of the
  // link lengths (each link rescaled), velocities M⁻¹p with link-length rates within
  // the tolerance (radial parts removed). Planar states must have zero y components.
  // Throws InputError naming the field.
  void project(State& s, const StateRules& rules, const std::string& qField, const std::string& pField) const;

  // The same on positions and velocities (initial data).
  void projectPositionsVelocities(VecX& x, VecX& v, const std::string& xField, const std::string& vField,
                                  const StateRules& rules = {}) const;
};

inline void ChainModel::projectPositionsVelocities(VecX& x, VecX& v, const std::string& xField,
                                                   const std::string& vField, const StateRules& rules) const {
  const bool checkPositions = rules.positionsOnManifold, checkVelocities = rules.tangentMomentum && checkPositions;
  const double tol = limits::kManifoldTolerance;
  Vec3 prev = Vec3::Zero(), prevNew = Vec3::Zero(), vPrev = Vec3::Zero(), vPrevNew = Vec3::Zero();
  for (int i = 0; i < bobs(); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    const Vec3 xi = x.segment<3>(3 * i), vi = v.segment<3>(3 * i);
    const Vec3 d = xi - prev;
    const double len = d.norm();
    const double err = std::abs(len - lengths[i]);
    if (checkPositions && !(err <= tol))
      throw InputError(InputErrorCode::OffManifold, xField + at,
                       "off the constraint manifold: | |x" + std::to_string(i + 1) +
                           (i ? " - x" + std::to_string(i) : "") + "| - l" + std::to_string(i + 1) + " | = " +
                           formatNumber(err) + " > 1e-9 (the link has length " + formatNumber(lengths[i]) + ")");
    const Vec3 e = d / len;
    const Vec3 w = vi - vPrev;
    const double radial = w.dot(e);
    if (checkVelocities && !(std::abs(radial) <= tol * (1.0 + w.norm())))
      throw InputError(InputErrorCode::OffManifold, vField + at,
                       "not tangent to the constraint manifold: the rate of change of link " + std::to_string(i + 1) +
                           "'s length is " + formatNumber(radial) + " m/s (tolerance 1e-9)");
    if (planar && !(std::abs(xi[1]) <= tol))
      throw InputError(InputErrorCode::OffManifold, xField + at + "[1]",
                       "the planar pendulum moves in the x–z plane: y must be 0, got " + formatNumber(xi[1]));
    if (planar && !(std::abs(vi[1]) <= tol))
      throw InputError(
          InputErrorCode::OffManifold, vField + at + "[1]",
          "the planar pendulum moves in the x–z plane: the y component must be 0, got " + formatNumber(vi[1]));
    // Project exactly: rescale the link, remove the radial relative velocity.
    Vec3 xNew = checkPositions ? Vec3(prevNew + lengths[i] * e) : xi;
    Vec3 vNew = checkVelocities ? Vec3(vPrevNew + (w - radial * e)) : vi;
    if (planar) xNew[1] = vNew[1] = 0;
    prev = xi;
    vPrev = vi;
    prevNew = xNew;
    vPrevNew = vNew;
    x.segment<3>(3 * i) = xNew;
    v.segment<3>(3 * i) = vNew;
  }
}

inline void ChainModel::project(State& s, const StateRules& rules, const std::string& qField,
                                const std::string& pField) const {
  const bool velocities = rules.tangentMomentum && rules.positionsOnManifold;
  VecX v = s.p;
  if (velocities)
    for (int i = 0; i < bobs(); ++i) v.segment<3>(3 * i) /= masses[i];
  projectPositionsVelocities(s.q, v, qField, pField, rules);
  if (velocities)
    for (int i = 0; i < bobs(); ++i) v.segment<3>(3 * i) *= masses[i];
  s.p = v;
}

}  // namespace vilab
