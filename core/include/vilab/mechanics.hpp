// Continuous mechanics of a generic constrained Lagrangian system, derived by AD
// from the system's templated L(q, v) and g(q).
//
// A System provides
//   static constexpr int N;  // dimension of the configuration space V = R^N
//   static constexpr int C;  // number of holonomic constraints g: V -> R^C
//   template <class S> S lagrangian(const Vec<S,N>& q, const Vec<S,N>& v) const;
//   template <class S> Vec<S,C> constraints(const Vec<S,N>& q) const;
// and optionally symmetry generators for the momentum map (see momentum()).
#pragma once

#include "vilab/ad.hpp"

namespace vilab {

template <class System>
struct Mechanics {
  static constexpr int N = System::N;
  static constexpr int C = System::C;
  using VecN = Vec<double, N>;
  using MatN = Mat<double, N, N>;
  using VecC = Vec<double, C>;
  using MatCN = Mat<double, C, N>;
  using VecNC = Vec<double, N + C>;
  using MatNC = Mat<double, N + C, N + C>;

  // g(q) and Dg(q).
  static VecC constraints(const System& s, const VecN& q, MatCN& jac) {
    if constexpr (C == 0) {
      (void)s;
      (void)q;
      return VecC();
    } else {
      return jacobian<N, C>([&](const auto& x) { return s.constraints(x); }, q, jac);
    }
  }

  // ∂L/∂v at (q, v), and when asked ∂²L/∂v² (nested jets).
  static VecN momentum(const System& s, const VecN& q, const VecN& v, MatN* hessian = nullptr) {
    if (!hessian) {
      VecN grad;
      gradient<N>(
          [&](const auto& y) {
            using S = typename std::decay_t<decltype(y)>::Scalar;
            return s.lagrangian(constant<S, N>(q), y);
          },
          v, grad);
      return grad;
    }
    const auto d = crossDerivatives<N>(
        [&](const auto&, const auto& y) {
          using S = typename std::decay_t<decltype(y)>::Scalar;
          return s.lagrangian(constant<S, N>(q), y);
        },
        v, v, /*sameVariable=*/true);
    *hessian = d.jacGradXY;
    return d.gradX;
  }

  // Continuous Legendre transform inverted on the constraint manifold: the velocity v
  // with Dg(q) v = 0 and ∂L/∂v(q, v) = p + Dg(q)ᵀ μ for some μ. The normal part of p
  // is irrelevant, so this also defines the tangent projection p ↦ ∂L/∂v(q, v).
  // Newton on the KKT system with ∂²L/∂v² taken once at v = 0: exact in one
  // iteration when L is quadratic in v (mechanical systems), and the following
  // first-derivative check confirms it.
  static bool velocity(const System& s, const VecN& q, const VecN& p, VecN& v) {
    MatCN G;
    constraints(s, q, G);
    v.setZero();
    MatN Lvv;
    VecN Lv = momentum(s, q, v, &Lvv);
    MatNC K = MatNC::Zero();
    K.template topLeftCorner<N, N>() = Lvv;
    K.template topRightCorner<N, C>() = G.transpose();
    K.template bottomLeftCorner<C, N>() = G;
    const Eigen::PartialPivLU<MatNC> lu(K);
    if (!(lu.rcond() > 1e-14)) return false;
    for (int it = 0; it < 20; ++it) {
      VecNC rhs;
      rhs.template head<N>() = p - Lv;
      rhs.template tail<C>() = -G * v;
      const VecN dv = lu.solve(rhs).template head<N>();
      if (!dv.allFinite()) return false;
      v += dv;
      if (dv.cwiseAbs().maxCoeff() <= 1e-14 * (1.0 + v.cwiseAbs().maxCoeff())) return true;
      Lv = momentum(s, q, v);
    }
    return false;
  }

  // Energy E = ∂L/∂v · v − L.
  static double energy(const System& s, const VecN& q, const VecN& v) {
    const VecN Lv = momentum(s, q, v);
    return Lv.dot(v) - s.lagrangian(q, v);
  }
};

}  // namespace vilab
