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
#include "vilab/solver/dense_lu.hpp"
#include "vilab/solver/newton.hpp"

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
  // Newton on the KKT system (exact in one iteration when L is quadratic in v).
  static bool velocity(const System& s, const VecN& q, const VecN& p, VecN& v) {
    LegendreProblem problem{s, q, p, {}, {}, 1.0 + p.cwiseAbs().maxCoeff()};
    constraints(s, q, problem.G);
    VecNC x = VecNC::Zero();
    NewtonSettings settings;
    settings.fullNewton = false;  // ∂²L/∂v² is constant in v for mechanical systems
    settings.what = "the Legendre transform";
    if (!solveNewton(problem, x, settings).ok) return false;
    v = x.template head<N>();
    return v.allFinite();
  }

  // Unknowns (v, μ): ∂L/∂v(q, v) − p − Dgᵀμ = 0, Dg v = 0.
  struct LegendreProblem {
    using Vector = VecNC;
    const System& s;
    const VecN& q;
    const VecN& p;
    MatCN G;
    DenseLU<N + C> lu;
    double scale;
    NewtonEval evaluate(const VecNC& x, VecNC& r, bool linearize) {
      const VecN v = x.template head<N>();
      MatN Lvv = MatN::Zero();  // written when linearize (zeroed: GCC cannot see that)
      const VecN Lv = momentum(s, q, v, linearize ? &Lvv : nullptr);
      r.template head<N>() = Lv - p - G.transpose() * x.template tail<C>();
      r.template tail<C>() = G * v;
      if (!r.allFinite()) return NewtonEval::NonFinite;
      if (linearize) {
        MatNC K = MatNC::Zero();
        K.template topLeftCorner<N, N>() = Lvv;
        K.template topRightCorner<N, C>() = -G.transpose();
        K.template bottomLeftCorner<C, N>() = G;
        if (!lu.factorize(K)) return NewtonEval::Singular;
      }
      return NewtonEval::Ok;
    }
    double conditionEstimate() const { return lu.pivotRatio(); }
    void solve(VecNC& b) const { lu.solveInPlace(b); }
    double size(const VecNC& dx) const { return dx.cwiseAbs().maxCoeff() / scale; }
  };

  // Energy E = ∂L/∂v · v − L.
  static double energy(const System& s, const VecN& q, const VecN& v) {
    const VecN Lv = momentum(s, q, v);
    return Lv.dot(v) - s.lagrangian(q, v);
  }
};

}  // namespace vilab
