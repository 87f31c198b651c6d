// First-order ODEs y' = f(y) for the baselines, y = [q; v].
#pragma once

#include <vector>

#include "vilab/integrators/tridiagonal.hpp"
#include "vilab/mechanics.hpp"
#include "vilab/systems/chain.hpp"

namespace vilab {

// Euler–Lagrange equations of an unconstrained system, from L by AD:
//   ∂²L/∂v² a = ∂L/∂q − ∂²L/∂v∂q v.
template <class System>
struct LagrangianOde {
  static_assert(System::C == 0, "LagrangianOde is for unconstrained systems");
  static constexpr int N = System::N;
  System system;

  bool operator()(const VecX& y, VecX& dy) const {
    const Vec<double, N> q = y.template head<N>(), v = y.template tail<N>();
    // Gradient of L in v, and its Jacobian in q (∂²L/∂v∂q).
    const auto mixed = crossDerivatives<N>([&](const auto& vv, const auto& qq) { return system.lagrangian(qq, vv); }, v, q);
    Mat<double, N, N> Lvv;
    Mechanics<System>::momentum(system, q, v, &Lvv);
    Vec<double, N> Lq;
    gradient<N>(
        [&](const auto& qq) {
          using S = typename std::decay_t<decltype(qq)>::Scalar;
          return system.lagrangian(qq, constant<S, N>(v));
        },
        q, Lq);
    const Vec<double, N> a = Lvv.partialPivLu().solve(Lq - mixed.jacGradXY * v);
    dy.resize(2 * N);
    dy << v, a;
    return a.allFinite();
  }
};

// A chain in Cartesian coordinates, index-1 multiplier form: differentiate the link
// constraints twice, g̈ = 0, and solve for the multipliers at every evaluation,
//   M a = f + Dgᵀ λ,   (Dg M⁻¹ Dgᵀ) λ = −Dg M⁻¹ f − (|w_i|²/l_i)_i,   w_i = v_i − v_{i−1}.
// Nothing pulls the state back to the constraint manifold, so |g| drifts.
struct ChainIndex1Ode {
  ChainModel model;
  mutable Tridiagonal gram;
  mutable std::vector<double> lambda, scratch;

  explicit ChainIndex1Ode(ChainModel m) : model(std::move(m)) {
    gram.resize(model.bobs());
    lambda.resize(model.bobs());
  }

  bool operator()(const VecX& y, VecX& dy) const {
    const int n = model.bobs();
    const double* x = y.data();
    const double* v = y.data() + 3 * n;
    dy.resize(6 * n);
    auto vec = [](const double* a, int i) { return Vec3(a[3 * i], a[3 * i + 1], a[3 * i + 2]); };
    auto link = [&](const double* a, int i) { return i > 0 ? Vec3(vec(a, i) - vec(a, i - 1)) : vec(a, i); };
    const Vec3 gravity(0, 0, -model.g);  // f_i / m_i
    for (int i = 0; i < n; ++i) {
      const double l = model.lengths[i];
      const Vec3 a = link(x, i) / l;  // row i of Dg on bob i (minus on bob i−1)
      const Vec3 w = link(v, i);
      const double invM = 1.0 / model.masses[i];
      double diag = invM * a.squaredNorm();
      // (Dg M⁻¹ f)_i = a·(g − g) for i > 0 (same acceleration on both bobs), a·g for i = 0.
      double rhs = -w.squaredNorm() / l - (i == 0 ? a.dot(gravity) : 0.0);
      if (i > 0) {
        const double invPrev = 1.0 / model.masses[i - 1];
        diag += invPrev * a.squaredNorm();
        gram.lower[i] = -invPrev * a.dot(link(x, i - 1) / model.lengths[i - 1]);
      }
      if (i + 1 < n) gram.upper[i] = -invM * a.dot(link(x, i + 1) / model.lengths[i + 1]);
      gram.diag[i] = diag;
      lambda[i] = rhs;
    }
    if (!gram.solve(lambda.data(), scratch)) return false;
    for (int i = 0; i < n; ++i) {
      Vec3 force = lambda[i] * (link(x, i) / model.lengths[i]);
      if (i + 1 < n) force -= lambda[i + 1] * (link(x, i + 1) / model.lengths[i + 1]);
      const Vec3 acc = gravity + force / model.masses[i];
      for (int c = 0; c < 3; ++c) {
        dy[3 * i + c] = v[3 * i + c];
        dy[3 * n + 3 * i + c] = acc[c];
      }
    }
    return dy.allFinite();
  }
};

}  // namespace vilab
