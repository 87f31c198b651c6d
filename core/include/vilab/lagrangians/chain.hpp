// Lagrangian forms of the chain model (models/chain.hpp) for the generic engines:
// L(q, q̇) and g(q) written once over a template scalar, so that automatic
// differentiation gives every derivative. Three ways to constrain it:
//  - ChainCartesian: q ∈ R^{3n}, L = Σ ½ m_i |ẋ_i|² − V, constraints by multipliers;
//  - ChainPenalty: q ∈ R^{3n} unconstrained, with a stiff penalty potential;
//  - ChainAngles: two spherical angles per link (one global chart).
#pragma once

#include "vilab/ad.hpp"
#include "vilab/models/chain.hpp"

namespace vilab {

// Link constraint in length units: g_i = (|d_i|² − l_i²) / (2 l_i) ≈ |d_i| − l_i,
// with d_i = x_i − x_{i−1}. Quadratic, so its Jacobian rows are ±d_iᵀ / l_i.
template <class S>
S linkConstraint(const Vec<S, 3>& d, double length) {
  return (d.squaredNorm() - length * length) / (2 * length);
}

// L = Σ ½ m_i |ẋ_i|² − V of Bobs bobs at Cartesian positions x and velocities v, with
// V measured from the rest state (every link hanging straight down).
template <int Bobs, class S>
S cartesianChainLagrangian(const ChainModel& model, const Vec<S, 3 * Bobs>& x, const Vec<S, 3 * Bobs>& v) {
  S L = S(0.0);
  for (int i = 0; i < Bobs; ++i) {
    const double m = model.masses[i];
    L += 0.5 * m * v.template segment<3>(3 * i).squaredNorm();
    L -= m * model.g * (x[3 * i + 2] + model.restDepth(i));
  }
  return L;
}

// ---- Multipliers, q ∈ R^{3n} --------------------------------------------------
template <int Bobs>
struct ChainCartesian {
  static constexpr int N = 3 * Bobs;
  static constexpr int C = Bobs;
  ChainModel model;

  template <class S>
  S lagrangian(const Vec<S, N>& q, const Vec<S, N>& v) const {
    return cartesianChainLagrangian<Bobs>(model, q, v);
  }
  template <class S>
  Vec<S, C> constraints(const Vec<S, N>& q) const {
    Vec<S, C> out;
    for (int i = 0; i < Bobs; ++i) {
      Vec<S, 3> d = q.template segment<3>(3 * i);
      if (i > 0) d -= q.template segment<3>(3 * (i - 1));
      out[i] = linkConstraint<S>(d, model.lengths[i]);
    }
    return out;
  }
};

// ---- Penalty: the links become stiff springs ---------------------------------
// L = Σ ½ m_i |ẋ_i|² − V − (μ/2) Σ g_i², with g_i the link constraint above:
// the constraint is replaced by a spring of stiffness μ. No multipliers.
template <int Bobs>
struct ChainPenalty {
  static constexpr int N = 3 * Bobs;
  static constexpr int C = 0;
  ChainCartesian<Bobs> rigid;
  double stiffness = 1e4;

  template <class S>
  S lagrangian(const Vec<S, N>& q, const Vec<S, N>& v) const {
    const Vec<S, Bobs> g = rigid.constraints(q);
    return rigid.lagrangian(q, v) - (0.5 * stiffness) * g.squaredNorm();
  }
  template <class S>
  Vec<S, 0> constraints(const Vec<S, N>&) const {
    return Vec<S, 0>();
  }
};

// ---- Generalized coordinates: spherical angles per link -----------------------
// Link direction e(θ, φ) = (sin θ cos φ, sin θ sin φ, −cos θ): θ from the downward
// vertical, φ the azimuth about z from +x. The planar pendulum uses θ alone (φ = 0,
// θ signed). Rotation about z shifts every φ_i, a linear action, so the midpoint
// L_d is invariant and J_z = Σ p_{φ_i} is conserved exactly (discrete Noether).
//
// Poles: at θ_i = 0 or π the chart is singular. The φ-row of the mass matrix
// vanishes (m l² sin²θ), φ̇ = p_φ / (m l² sin²θ) blows up for motion passing near the
// vertical, and the Newton matrix loses rank. Expect growing energy errors and
// refused steps ("singular Newton matrix") on trajectories that pass close to the
// straight-down configuration with little angular momentum about z.
template <int Links, bool Planar = false>
struct ChainAngles {
  static constexpr int PerLink = Planar ? 1 : 2;
  static constexpr int N = PerLink * Links;
  static constexpr int C = 0;
  ChainModel model;

  // Bob positions and velocities from (u, u̇).
  template <class S>
  void cartesian(const Vec<S, N>& u, const Vec<S, N>& du, Vec<S, 3 * Links>& x, Vec<S, 3 * Links>& v) const {
    Vec<S, 3> xPrev = Vec<S, 3>::Constant(S(0.0)), vPrev = Vec<S, 3>::Constant(S(0.0));
    for (int i = 0; i < Links; ++i) {
      const double l = model.lengths[i];
      const S th = u[PerLink * i], dth = du[PerLink * i];
      const S sth = math::sin(th), cth = math::cos(th);
      Vec<S, 3> e, de;
      if constexpr (Planar) {
        e << sth, S(0.0), -cth;
        de << cth * dth, S(0.0), sth * dth;
      } else {
        const S ph = u[2 * i + 1], dph = du[2 * i + 1];
        const S sph = math::sin(ph), cph = math::cos(ph);
        e << sth * cph, sth * sph, -cth;
        de << cth * cph * dth - sth * sph * dph, cth * sph * dth + sth * cph * dph, sth * dth;
      }
      xPrev += l * e;
      vPrev += l * de;
      x.template segment<3>(3 * i) = xPrev;
      v.template segment<3>(3 * i) = vPrev;
    }
  }

  // L depends on the angles only through sin and cos, so shifting q_k and q_{k+1} by
  // the same multiple of 2π leaves L_d unchanged. Keeping each angle in (−π, π]
  // after a step keeps its absolute precision: an azimuth that had wound up to
  // φ ≈ 10³ would carry rounding errors of ulp(φ)/h into p_φ = D2 L_d every step.
  void canonicalize(Vec<double, N>& u) const {
    const double twoPi = 2 * dm::pi;
    for (int i = 0; i < N; ++i)
      if (u[i] > dm::pi || u[i] <= -dm::pi) u[i] -= twoPi * dm::floor((u[i] + dm::pi) / twoPi);
  }

  template <class S>
  S lagrangian(const Vec<S, N>& u, const Vec<S, N>& du) const {
    Vec<S, 3 * Links> x, v;
    cartesian(u, du, x, v);
    return cartesianChainLagrangian<Links>(model, x, v);
  }
  template <class S>
  Vec<S, 0> constraints(const Vec<S, N>&) const {
    return Vec<S, 0>();
  }
};

}  // namespace vilab
